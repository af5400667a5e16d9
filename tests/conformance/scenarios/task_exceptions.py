"""A task body raises: which errors are retried, how often, and what reaches the caller?

Rows of issue 2: ValueError with default options -> 1 run, RayTaskError(ValueError)
carrying the remote traceback; retry_exceptions=True with max_retries=2 / default ->
3 / 4 runs; retry_exceptions=[ConnectionError] raising ValueError / ConnectionError
-> 1 / 3 runs.
"""

from _observe import RunLog, about_one_second_apart, error_text, gaps, outcome


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        observations = {"default_value_error": _default_value_error(ray, workdir)}
        for label, error, options in (
            ("retry_true_max_retries_2", ValueError, {"retry_exceptions": True, "max_retries": 2}),
            ("retry_true_default_retries", ValueError, {"retry_exceptions": True}),
            (
                "retry_list_raises_value_error",
                ValueError,
                {"retry_exceptions": [ConnectionError], "max_retries": 2},
            ),
            (
                "retry_list_raises_connection_error",
                ConnectionError,
                {"retry_exceptions": [ConnectionError], "max_retries": 2},
            ),
        ):
            observations[label] = _retried(ray, workdir, label, error, options)
        return observations
    finally:
        ray.shutdown()


def _default_value_error(ray, workdir):
    log = RunLog(workdir, "default_value_error")

    @ray.remote
    def raise_value_error():
        log.bump()
        raise ValueError("bad input 42")

    result = outcome(ray, raise_value_error.remote())
    text = error_text(ray, raise_value_error.remote())
    return {
        "runs": log.count() - 1,  # the second call only fetched the message
        "result": result,
        # The message is the remote traceback: the raising line and the original message.
        "message_has_original": "ValueError: bad input 42" in text,
        "message_has_source_line": 'raise ValueError("bad input 42")' in text,
        "message_names_function": "raise_value_error" in text,
    }


def _retried(ray, workdir, label, error, options):
    log = RunLog(workdir, label)

    @ray.remote
    def always_raises():
        log.bump()
        raise error("attempt failed")

    result = outcome(ray, always_raises.options(**options).remote())
    return {
        "runs": log.count(),
        "result": result,
        "attempts_about_1s_apart": about_one_second_apart(log.times()) if log.count() > 1 else None,
        "_gaps_s": gaps(log.times()),
    }
