import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError

TRANSIENT = (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError)


class GaveUp(Exception):
    pass


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    delay = base_delay_s
    for attempt in range(1, max_attempts + 1):
        try:
            return ray.get(submit())
        except TRANSIENT as e:
            if attempt == max_attempts:
                raise GaveUp(f"no luck after {max_attempts} attempts: {e}") from None
        time.sleep(delay)
        delay *= 2
