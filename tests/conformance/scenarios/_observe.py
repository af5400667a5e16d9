"""Helpers shared by the conformance scenarios: run counters, error and state probes.

Every scenario runs unchanged on real Ray (bodies execute in separate worker
processes, possibly on other simulated nodes) and on miniray (bodies execute in
the driver process under a virtual clock). So:

* run counts live in files under ``workdir``: a body appends one line per run,
  which works across processes and costs nothing to simulate;
* timestamps come from time.time() inside bodies: wall time on Ray, virtual
  time on miniray, so "about 1 s apart" means the same on both;
* errors are described by class name plus ``isinstance`` checks against Ray's
  exception classes, never by full message text (which carries pids and paths).

Keys of an observation dict that start with "_" are informational: the
comparison in test_conformance.py prints them but does not compare them.
"""

import os
import re
import time

# Ray exception classes whose isinstance() answers are part of an observation.
# Kept as names so the same list works for ``ray.exceptions`` and
# ``miniray.exceptions``.
RAY_ERROR_NAMES = (
    "RayError",
    "RayTaskError",
    "WorkerCrashedError",
    "RayActorError",
    "ActorDiedError",
    "ActorUnavailableError",
    "ObjectLostError",
    "OwnerDiedError",
    "ObjectReconstructionFailedError",
    "ObjectFreedError",
    "GetTimeoutError",
    "TaskCancelledError",
    "NodeDiedError",
)

# Builtin exception classes a scenario raises from user code.
USER_ERRORS = (ValueError, ConnectionError)


def is_miniray(ray):
    return ray.__name__.split(".")[0] == "miniray"


class RunLog:
    """Append-only file counting runs of one body; picklable for Ray workers.

    Timestamps come from time.time(), which miniray answers with virtual time
    inside a body. miniray may run a body that blocks (time.sleep, get) again
    from the start, replaying its earlier calls from a journal; a file write is
    not journaled, so bodies call ``bump`` after their last blocking call.
    """

    def __init__(self, workdir, name):
        self.path = os.path.join(workdir, name + ".runs")
        open(self.path, "w").close()

    def bump(self):
        """Record one run and return how many runs there have been, this one included."""
        with open(self.path, "a") as f:
            f.write(f"{time.time()!r}\n")
        return self.count()

    def times(self):
        with open(self.path) as f:
            return [float(line) for line in f if line.strip()]

    def count(self):
        return len(self.times())


def gaps(times):
    return [round(b - a, 2) for a, b in zip(times, times[1:])]


def about_one_second_apart(times):
    """True when every gap between consecutive runs is roughly one second.

    Real Ray's gap after a worker crash is the time to start a fresh worker
    process (0.8-1.8 s seen on a 2-core machine, more while another cluster
    starts beside it); after an exception it is a 1.0 s retry delay. The band
    is wide on purpose: it tells "about a second" from "at once" or a backoff.
    """
    g = gaps(times)
    return bool(g) and all(0.4 <= x <= 5.0 for x in g)


def describe_error(ray, exc):
    """A comparable summary of an exception raised by ``ray.get`` (None if no error)."""
    if exc is None:
        return None
    isa = [n for n in RAY_ERROR_NAMES if _isinstance_named(ray, exc, n)]
    isa += [c.__name__ for c in USER_ERRORS if isinstance(exc, c)]
    summary = {"class": type(exc).__name__, "isa": isa}
    cause = getattr(exc, "cause", None)
    if isinstance(exc, ray.exceptions.RayTaskError) and cause is not None:
        summary["cause"] = type(cause).__name__
    return summary


def _isinstance_named(ray, exc, name):
    cls = getattr(ray.exceptions, name, None)
    return isinstance(cls, type) and isinstance(exc, cls)


def get_or_error(ray, ref, timeout=None):
    """(value, None) on success, (None, exception) when ``ray.get`` raises."""
    try:
        if timeout is None:
            return ray.get(ref), None
        return ray.get(ref, timeout=timeout), None
    except Exception as exc:  # noqa: BLE001 - any error is an observation
        return None, exc


def outcome(ray, ref, timeout=None):
    """JSON-friendly result of getting ``ref``: {"value": v} or {"error": {...}}."""
    value, exc = get_or_error(ray, ref, timeout)
    if exc is not None:
        return {"error": describe_error(ray, exc)}
    if isinstance(value, bytes):  # the scenarios' big objects: their size is what matters
        return {"value_len": len(value)}
    return {"value": value}


def error_text(ray, ref):
    """The message of the error ``ray.get(ref)`` raises ('' when it succeeds)."""
    _, exc = get_or_error(ray, ref)
    return "" if exc is None else str(exc)


def unreconstructable_reasons(text):
    """The OBJECT_UNRECONSTRUCTABLE_* reason codes named in an error message, sorted."""
    return sorted(set(re.findall(r"OBJECT_UNRECONSTRUCTABLE_[A-Z_]+", text)))


def actor_state(ray, handle):
    """The actor's lifecycle state name as Ray's GCS reports it (ALIVE, RESTARTING, DEAD...).

    Real Ray: ``ray.util.state`` needs the dashboard (ray[default]), which the
    plain ``ray`` wheel lacks, so read the GCS actor table directly. miniray: the
    same question through ``ray.util.state.get_actor`` (Ray's public spelling),
    falling back to a ``state`` attribute on the simulator's record.
    """
    actor_id = handle._actor_id  # an ActorID on Ray, already a hex string on miniray
    actor_id = actor_id.hex() if hasattr(actor_id, "hex") else str(actor_id)
    if not is_miniray(ray):
        import ray._private.state as gcs_state

        return gcs_state.actors(actor_id=actor_id).get("State")
    from miniray.util import state as sim_state

    info = sim_state.get_actor(actor_id)
    return info["state"] if isinstance(info, dict) else getattr(info, "state", None)


def wait_until(ray, predicate, step_s=0.05, limit_s=30.0):
    """Poll ``predicate()`` on the backend's clock until it holds; return whether it did."""
    waited = 0.0
    while not predicate():
        if waited >= limit_s:
            return False
        pass_time(ray, step_s)
        waited += step_s
    return True


def pass_time(ray, seconds):
    """Let ``seconds`` pass on the backend's clock, from the driver.

    miniray makes a driver-side time.sleep advance its virtual clock; this
    helper says so at the call site.
    """
    time.sleep(seconds)
