# Correct, written apart from the reference: the except keeps the error and the loop runs out;
# the wait is computed from the attempt number with a power, and the last error is re-raised.
import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    last = None
    for n in range(max_attempts):
        if n:
            time.sleep(base_delay_s * 2 ** (n - 1))
        try:
            return ray.get(submit())
        except (ConnectionError, TimeoutError) as error:  # raised by the task: transient
            last = error
        except (WorkerCrashedError, NodeDiedError) as error:  # the machine under it: transient
            last = error
    raise last
