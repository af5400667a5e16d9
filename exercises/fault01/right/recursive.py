# Correct, written apart from the reference: recursion instead of a loop; the delay for the next
# try travels as an argument; the transient classes are reached through ray.exceptions.
import time

import miniray as ray


def _transient(error):
    return isinstance(
        error,
        (ConnectionError, TimeoutError, ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError),
    )


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    try:
        return ray.get(submit())
    except Exception as error:
        if not _transient(error) or max_attempts <= 1:
            raise
    time.sleep(base_delay_s)
    return call_with_retries(submit, max_attempts - 1, base_delay_s * 2)
