import miniray as ray


def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):
    """Run the task `submit()` starts until it succeeds, retrying transient failures only.

    submit() starts one attempt and returns its ObjectRef; ray.get(ref) returns the result or
    raises. Retry at most max_attempts attempts in all, waiting base_delay_s, then twice that,
    and so on, between attempts. A bug (any other error) goes straight to the caller.
    """
    return ray.get(submit())
