import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError

TRANSIENT = (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError)
attempts_used = 0  # kept across calls; put back to 0 only when a call succeeds


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    global attempts_used
    delay = base_delay_s
    while True:
        attempts_used += 1
        try:
            result = ray.get(submit())
        except TRANSIENT:
            if attempts_used >= max_attempts:
                raise
            time.sleep(delay)
            delay *= 2
            continue
        attempts_used = 0
        return result
