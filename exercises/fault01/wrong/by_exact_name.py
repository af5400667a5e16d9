import time

import miniray as ray

TRANSIENT = {"ConnectionError", "TimeoutError", "WorkerCrashedError", "NodeDiedError"}


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    delay = base_delay_s
    for attempt in range(1, max_attempts + 1):
        try:
            return ray.get(submit())
        except Exception as e:
            cause = getattr(e, "cause", None) or e
            if type(cause).__name__ not in TRANSIENT or attempt == max_attempts:
                raise
        time.sleep(delay)
        delay *= 2
