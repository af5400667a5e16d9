"""Errors a learner reads from Ray's examples: a failed argument, an unsubclassable exception,
and a get that times out. (Cancelling tasks is the `cancel` scenario.)
"""

import time

from _observe import describe_error, get_or_error

# Real Ray needs minutes for this one (restarts, timeouts, cancellations): checked against the
# recording (record.py) in `make test`, not live.
LIVE_ON_RAY = False

ARG_FAILED = "At least one of the input arguments for this task could not be computed:"


def nap(seconds):
    """Sleep in 0.1 s steps. Ray's (non-forced) cancel interrupts a task between Python
    bytecodes, so one long time.sleep would run to its end before the task stops."""
    for _ in range(int(seconds * 10)):
        time.sleep(0.1)


class FinalError(Exception):
    def __init_subclass__(cls, /, *args, **kwargs):
        raise TypeError("Cannot subclass this exception class.")


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=2)
    try:
        return {
            "failed_argument": _failed_argument(ray),
            "unsubclassable": _unsubclassable(ray),
            "get_timeout": _timeout(ray),
        }
    finally:
        ray.shutdown()


def _failed_argument(ray):
    @ray.remote
    def bad(kind):
        if kind == "value":
            raise ValueError("bad input")
        raise Exception("the real error")

    @ray.remote
    def use(x):
        return x

    out = {}
    for kind in ("value", "plain"):
        _, error = get_or_error(ray, use.remote(bad.remote(kind)))
        text = str(error)
        out[kind] = {
            "error": describe_error(ray, error),
            "says_arguments_failed": ARG_FAILED in text,
            "names_the_dependent_first": text.split("\n")[0].find("use()") >= 0,
            "shows_upstream_task": "bad()" in text,
            "cause_text": str(getattr(error, "cause", "")),
            "_text": text,
        }
    return out


def _unsubclassable(ray):
    @ray.remote
    def raises_final():
        raise FinalError("a final exception")

    _, error = get_or_error(ray, raises_final.remote())
    return {
        "error": describe_error(ray, error),
        "cause_is_final": isinstance(getattr(error, "cause", None), FinalError),
        "is_final": isinstance(error, FinalError),
        "_text": str(error),
    }


def _timeout(ray):
    @ray.remote
    def slow():
        nap(30)

    ref = slow.remote()
    out = {}
    for timeout in (0, 0.5):
        _, error = get_or_error(ray, ref, timeout=timeout)
        out[f"timeout_{timeout}"] = {"error": describe_error(ray, error), "text": str(error)}
    ray.cancel(ref)
    return out
