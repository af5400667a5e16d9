import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError

TRANSIENT = (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError)


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    delay = base_delay_s
    while True:
        try:
            return ray.get(submit())
        except TRANSIENT:
            time.sleep(delay)
            delay *= 2
