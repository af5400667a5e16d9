import time

import miniray as ray


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    delay = base_delay_s
    for attempt in range(1, max_attempts + 1):
        try:
            return ray.get(submit())
        except (ValueError, TypeError):  # the bugs I could think of
            raise
        except Exception:
            if attempt == max_attempts:
                raise
        time.sleep(delay)
        delay *= 2
