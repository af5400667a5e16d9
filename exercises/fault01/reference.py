import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError

# Transient: the network or the machine, not the input. Another attempt may well succeed.
TRANSIENT = (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError)


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    delay = base_delay_s
    for attempt in range(1, max_attempts + 1):
        try:
            return ray.get(submit())
        except TRANSIENT:
            # A task's ConnectionError reaches us as a RayTaskError that is also a ConnectionError.
            if attempt == max_attempts:
                raise
        time.sleep(delay)
        delay *= 2
