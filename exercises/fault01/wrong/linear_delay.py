import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError

TRANSIENT = (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError)


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    for attempt in range(1, max_attempts + 1):
        try:
            return ray.get(submit())
        except TRANSIENT:
            if attempt == max_attempts:
                raise
        time.sleep(base_delay_s * attempt)  # 1 s, 2 s, 3 s: growing, but not doubling
