"""Ray's driver API: init, get, put, wait, kill, get_actor and the cluster queries."""

from __future__ import annotations

from typing import Any

from . import context
from . import exceptions as exc
from .objects import ObjectRef
from .runtime import Runtime

_pending = {"seed": 0, "faults": [], "budget": {}}
DEFAULT_NUM_CPUS = 4  # fixed, not the host's count: a run must not depend on the machine


def init(
    address: str | None = None,
    *,
    num_cpus: float | None = None,
    num_gpus: float | None = None,
    resources: dict | None = None,
    _system_config: dict | None = None,
    ignore_reinit_error: bool = False,
    labels: dict | None = None,
    object_store_memory: int | None = None,
    **_ignored: Any,
):
    """Start a one-node simulated cluster, or connect to a `miniray.cluster_utils.Cluster`.

    As in Ray, `address` comes first: "auto" connects to the running cluster (the newest
    `cluster_utils.Cluster`), "local" always starts a new one, and a Cluster's `address`
    connects to that cluster.
    """
    if context.current() is not None:
        if ignore_reinit_error:
            return context.current()
        raise RuntimeError(
            "Maybe you called miniray.init twice by accident? This error can be "
            "suppressed by passing in 'ignore_reinit_error=True' or by calling "
            "'miniray.shutdown()' prior to 'miniray.init()'."
        )
    if address == "local":  # hook (Ray's address values): a new local cluster, as with no address
        address = None
    if address is not None:
        from .cluster_utils import Cluster

        cluster = Cluster.by_address(address)
        if cluster is None and address == "auto":
            raise ConnectionError(
                "Could not find any running Ray instance. Please specify the one to connect to by "
                "setting `--address` flag or `RAY_ADDRESS` environment variable. (In miniray, start "
                "one with miniray.cluster_utils.Cluster(initialize_head=True).)"
            )
        if cluster is None:
            raise ConnectionError(
                f"No miniray cluster at address {address!r}; create one with "
                "miniray.cluster_utils.Cluster() and pass cluster.address."
            )
        context.activate(cluster.rt)
        return cluster.rt
    rt = new_runtime(_system_config)
    rt.add_node(
        num_cpus=DEFAULT_NUM_CPUS if num_cpus is None else num_cpus,
        num_gpus=num_gpus or 0,
        resources=resources,
        labels=labels,
        is_head=True,
        object_store_memory=object_store_memory or 2 * 1024**3,
    )
    context.activate(rt)
    return rt


def new_runtime(system_config: dict | None) -> Runtime:
    from .runtime import DEFAULT_CONFIG
    from .system_config import check

    check(system_config, DEFAULT_CONFIG)  # hook: unknown keys are refused, as Ray 2.60 does
    cfg = dict(system_config or {})
    cfg.update(_pending["budget"])
    return Runtime(seed=_pending["seed"], system_config=cfg, faults=list(_pending["faults"]))


def shutdown() -> None:
    rt = context.current()
    if rt is not None:
        rt.alive = False
    context.deactivate()


def is_initialized() -> bool:
    return context.current() is not None


def _rt(what: str):
    return context.runtime(what)


def _check_refs(refs: Any, fn: str) -> tuple[list[ObjectRef], bool]:
    single = isinstance(refs, ObjectRef)
    items = [refs] if single else refs
    if not isinstance(items, (list, tuple)) or not all(isinstance(r, ObjectRef) for r in items):
        bad = (
            refs
            if not isinstance(refs, (list, tuple))
            else next(r for r in items if not isinstance(r, ObjectRef))
        )
        raise TypeError(
            f"Attempting to call `{fn}` on the value {bad!r:.80}, which is not an "
            "ObjectRef. Pass the ref that .remote() or put() returned "
            "(or a list of them)."
        )
    return list(items), single


def _outcome(rt, ref: ObjectRef):
    entry = rt.objects.entries.get(ref.hex())
    if entry is None:
        return ("error", exc.ObjectFreedError(ref.hex()))
    return rt.objects.resolve(entry)


def get(object_refs, *, timeout: float | None = None):
    """Block until the objects are ready; raise the first error among them, in order."""
    rt = _rt("get")
    refs, single = _check_refs(object_refs, "get")

    if rt.current:
        body = rt.current[-1]

        def live():
            outcomes = [_outcome(rt, r) for r in refs]
            if all(o is not None for o in outcomes):
                values = _values(outcomes)
                _read_spilled(rt, body, refs, values)
                return values
            _wait_in_body(rt, body, refs, len(refs), timeout, "get")

        values = body.interact(live)
        if isinstance(values, _Timeout):
            raise exc.GetTimeoutError("Get timed out: some object(s) not ready.")  # Ray 2.60's words
        return values[0] if single else values

    outcomes: list = [None] * len(refs)
    cursor = [0]

    def done() -> bool:
        while cursor[0] < len(refs):
            got = _outcome(rt, refs[cursor[0]])
            if got is None:
                return False
            outcomes[cursor[0]] = got
            cursor[0] += 1
        return True

    what = f"miniray.get is waiting for {refs[min(cursor[0], len(refs) - 1)]!r}"
    if not rt.run_until(done, timeout, what):
        raise exc.GetTimeoutError("Get timed out: some object(s) not ready.")  # Ray 2.60's words
    values = _values(outcomes)
    cost = rt.objects.fetch_cost(refs)
    if cost:  # the driver reads spilled objects from disk too: that much virtual time passes
        rt.run_until(lambda: False, cost, "miniray.get is reading spilled objects from disk")
    return values[0] if single else values


def _values(outcomes: list) -> list:
    """The values in order, or raise the first error. No frame may keep the exception it raises:
    with its traceback that is a cycle holding the frames' refs until the garbage collector runs,
    so objects would be freed at GC-dependent times."""
    for i in range(len(outcomes)):
        if outcomes[i][0] == "error":
            error = outcomes[i][1]
            outcomes.clear()
            try:
                raise error
            finally:
                error = None
    return [value for _, value in outcomes]


def _read_spilled(rt, body, refs, values) -> None:
    """A body's get of spilled objects takes the disk read's virtual time, like a sleep."""
    cost = rt.objects.fetch_cost(refs)
    if not cost:
        return
    kernel = rt.kernel
    wake = kernel.now + cost
    nxt = kernel.peek()
    if nxt is None or nxt > wake:  # nothing happens meanwhile: just move the clock
        kernel.now = wake
        return
    body.timers.append(kernel.at(wake, body.resume, True, values, label="spill-read"))
    body.block(f"reading {cost:.3f}s of spilled objects from disk")


class _Timeout:
    """Journaled when a get inside a body times out, so the replay raises at the same point."""


def _wait_in_body(rt, body, refs, num_returns: int, timeout: float | None, fn: str) -> None:
    """Register wake-ups for a body blocked in get/wait; the resumed body re-checks."""
    fired = [False]

    def wake(*_):
        if fired[0] or not body.live:
            return
        ready = [r for r in refs if _outcome(rt, r) is not None]
        if len(ready) >= num_returns:
            fired[0] = True
            try:
                answer(_outcome(rt, r) for r in refs)
            finally:
                # `wake` refers to itself (it re-registers), a cycle only the GC breaks: empty the
                # list it captured so its refs are freed when the program drops them, not later.
                refs[:] = []
            return
        for r in refs:
            entry = rt.objects.entries.get(r.hex())
            if entry is not None and rt.objects.resolve(entry) is None and wake not in entry.waiters:
                entry.waiters.append(wake)

    def expire():
        if fired[0] or not body.live:
            return
        fired[0] = True
        if fn == "get":
            body.resume(True, _Timeout())
        else:
            body.resume(True, _split(refs, num_returns, [_outcome(rt, r) for r in refs]))
        refs[:] = []

    def answer(outcomes) -> None:
        outcomes = list(outcomes)
        if fn != "get":
            body.resume(True, _split(refs, num_returns, outcomes))
            return
        for kind, value in outcomes:
            if kind == "error":
                body.resume(False, value)
                return
        values = [value for _, value in outcomes]
        cost = rt.objects.fetch_cost(refs)  # spilled ones among them are read from disk
        if cost:
            body.timers.append(rt.kernel.schedule(cost, body.resume, True, values, label="spill-read"))
        else:
            body.resume(True, values)

    wake()
    if not fired[0]:
        if timeout is not None:
            body.timers.append(rt.kernel.schedule(timeout, expire, label="get-timeout"))
        body.block(f"{fn}({', '.join(repr(r) for r in refs[:3])}{'...' if len(refs) > 3 else ''})")
    # A wake that fired synchronously already journaled the answer: replay it now.
    from .execution import Suspended

    raise Suspended()


def _split(refs, num_returns, outcomes):
    ready, not_ready = [], []
    for ref, got in zip(refs, outcomes):
        (ready if got is not None and len(ready) < num_returns else not_ready).append(ref)
    return ready, not_ready


def wait(object_refs, *, num_returns: int = 1, timeout: float | None = None, fetch_local: bool = True):
    """Return (ready, not_ready) once num_returns objects are ready or the timeout passes."""
    from .generators import ObjectRefGenerator
    from .generators import wait as wait_generators

    if isinstance(object_refs, list) and any(isinstance(r, ObjectRefGenerator) for r in object_refs):
        return wait_generators(object_refs, num_returns, timeout)  # hook: streaming generators
    rt = _rt("wait")
    if isinstance(object_refs, ObjectRef):
        raise TypeError(
            "wait() expected a list of ObjectRef, got a single ObjectRef; "
            "wrap it in a list: miniray.wait([ref])."
        )
    refs, _ = _check_refs(object_refs, "wait")
    if len(set(r.hex() for r in refs)) != len(refs):
        raise ValueError("Wait requires a list of unique object refs.")
    if not 0 <= num_returns <= len(refs):
        raise ValueError(
            f"Invalid number of objects to return {num_returns}: it must be between 0 and {len(refs)}."
        )
    if rt.current:
        body = rt.current[-1]

        def live():
            outcomes = [_outcome(rt, r) for r in refs]
            if sum(o is not None for o in outcomes) >= num_returns or timeout == 0:
                return _split(refs, num_returns, outcomes)
            _wait_in_body(rt, body, refs, num_returns, timeout, "wait")

        return body.interact(live)

    def count() -> int:
        return sum(_outcome(rt, r) is not None for r in refs)

    rt.run_until(
        lambda: count() >= num_returns,
        timeout,
        f"miniray.wait is waiting for {num_returns} of {len(refs)} objects",
    )
    return _split(refs, num_returns, [_outcome(rt, r) for r in refs])


def put(value: Any, *, _owner=None) -> ObjectRef:
    if isinstance(value, ObjectRef):
        raise TypeError(
            "Calling 'put' on an ObjectRef is not allowed. If you really want to do "
            "this, you can wrap the ObjectRef in a list and call 'put' on it."
        )
    rt = _rt("put")

    def live():
        owner = rt.caller()
        ref = rt.objects.create(owner)
        rt.objects.store(rt.objects.entries[ref.hex()], value, owner.node, force_plasma=True)
        return ref

    return context.interact(rt, live)


def kill(actor, *, no_restart: bool = True) -> None:
    from .remote_function import ActorHandle

    if not isinstance(actor, ActorHandle):
        raise ValueError(
            f"miniray.kill() only supported for actors. For tasks, try "
            f"miniray.cancel(). Got: {type(actor).__name__}."
        )
    rt = _rt("kill")
    context.interact(rt, lambda: rt.actors.kill(actor._actor, no_restart))


def get_actor(name: str, namespace: str | None = None):
    from .remote_function import ActorHandle

    rt = _rt("get_actor")
    actor = rt.actors.named.get(name)
    if actor is None:
        raise ValueError(
            f"Failed to look up actor with name '{name}'. This could because 1. You "
            "are trying to look up a named actor you didn't create. 2. The named actor "
            "died. 3. You did not use a namespace matching the namespace of the actor."
        )
    return ActorHandle(actor)


def nodes() -> list[dict]:
    return [n.info() for n in _rt("nodes").nodes]


def _sum(dicts) -> dict:
    out: dict[str, float] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0.0) + v
    return out


def cluster_resources() -> dict:
    return _sum(n.total for n in _rt("cluster_resources").nodes if n.alive)


def available_resources() -> dict:
    return {
        k: v
        for k, v in _sum(n.available for n in _rt("available_resources").nodes if n.alive).items()
        if v > 0
    }
