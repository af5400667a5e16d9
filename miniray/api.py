"""Ray's driver API: init, get, put, wait, kill, get_actor and the cluster queries.

A thin facade: it checks arguments the way Ray does and hands the work to the layers below
(`context` for the active runtime, `waiting` for get and wait, the managers for the rest).
"""

from __future__ import annotations

from typing import Any

from . import context, waiting
from .context import DEFAULT_NUM_CPUS
from .generators import ObjectRefGenerator
from .liveness import enable as enable_liveness
from .objects import ObjectRef
from .remote_function import ActorHandle
from .runtime import Runtime
from .session import SESSION

__all__ = [
    "DEFAULT_NUM_CPUS",
    "init",
    "new_runtime",
    "shutdown",
    "is_initialized",
    "get",
    "wait",
    "put",
    "kill",
    "get_actor",
    "nodes",
    "cluster_resources",
    "available_resources",
]


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
    memory: float | None = None,
    **_ignored: Any,
):
    """Start a one-node simulated cluster, or connect to a `miniray.cluster_utils.Cluster`.

    As in Ray, `address` comes first: "auto" connects to the running cluster (the newest
    `cluster_utils.Cluster`), "local" always starts a new one, and a Cluster's `address`
    connects to that cluster.
    """
    active = context.current()
    if active is not None:
        if ignore_reinit_error:
            return active
        raise RuntimeError(
            "Maybe you called miniray.init twice by accident? This error can be "
            "suppressed by passing in 'ignore_reinit_error=True' or by calling "
            "'miniray.shutdown()' prior to 'miniray.init()'."
        )
    if address == "local":  # Ray's word for a new local cluster, as with no address
        address = None
    if address is not None:
        rt = SESSION.find_cluster(address)
        if rt is None and address == "auto":
            raise ConnectionError(
                "Could not find any running Ray instance. Please specify the one to connect to by "
                "setting `--address` flag or `RAY_ADDRESS` environment variable. (In miniray, start "
                "one with miniray.cluster_utils.Cluster(initialize_head=True).)"
            )
        if rt is None:
            raise ConnectionError(
                f"No miniray cluster at address {address!r}; create one with "
                "miniray.cluster_utils.Cluster() and pass cluster.address."
            )
        context.activate(rt)
        return rt
    if memory is not None:  # Ray's `memory` resource; the memory monitor's capacity (miniray/memory)
        resources = {**(resources or {}), "memory": float(memory)}
    return context.start_local(
        new_runtime(_system_config),
        num_cpus=num_cpus,
        num_gpus=num_gpus,
        resources=resources,
        labels=labels,
        object_store_memory=object_store_memory,
    )


def new_runtime(system_config: dict | None) -> Runtime:
    """A runtime built from the pending init options, with the failure detector if configured."""
    rt = SESSION.new_runtime(system_config)
    liveness = rt.system_config.get("liveness")
    if liveness is not None:
        enable_liveness(rt, **liveness)
    return rt


def shutdown() -> None:
    context.deactivate()


def is_initialized() -> bool:
    return context.current() is not None


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


def get(object_refs, *, timeout: float | None = None):
    """Block until the objects are ready; raise the first error among them, in order."""
    rt = context.runtime()
    refs, single = _check_refs(object_refs, "get")
    values = waiting.get(rt, refs, timeout)
    return values[0] if single else values


def wait(object_refs, *, num_returns: int = 1, timeout: float | None = None, fetch_local: bool = True):
    """Return (ready, not_ready) once num_returns objects are ready or the timeout passes."""
    rt = context.runtime()
    if isinstance(object_refs, list) and any(isinstance(r, ObjectRefGenerator) for r in object_refs):
        return waiting.wait_generators(rt, object_refs, num_returns, timeout)  # streaming generators
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
    return waiting.wait(rt, refs, num_returns, timeout, fetch_local)


def put(value: Any, *, _owner=None) -> ObjectRef:
    if isinstance(value, ObjectRef):
        raise TypeError(
            "Calling 'put' on an ObjectRef is not allowed. If you really want to do "
            "this, you can wrap the ObjectRef in a list and call 'put' on it."
        )
    rt = context.runtime()

    def live():
        return rt.objects.put(value, rt.caller())

    return context.interact(rt, live, "put")


def kill(actor, *, no_restart: bool = True) -> None:
    if not isinstance(actor, ActorHandle):
        raise ValueError(
            f"miniray.kill() only supported for actors. For tasks, try "
            f"miniray.cancel(). Got: {type(actor).__name__}."
        )
    rt = context.runtime()
    context.interact(rt, lambda: rt.actors.kill(actor._actor, no_restart), "kill")


def get_actor(name: str, namespace: str | None = None):
    rt = context.runtime()
    actor = rt.actors.named.get(name)
    if actor is None:
        raise ValueError(
            f"Failed to look up actor with name '{name}'. This could because 1. You "
            "are trying to look up a named actor you didn't create. 2. The named actor "
            "died. 3. You did not use a namespace matching the namespace of the actor."
        )
    return ActorHandle(actor)


def nodes() -> list[dict]:
    return [n.info() for n in context.runtime().nodes]


def _sum(dicts) -> dict:
    out: dict[str, float] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0.0) + v
    return out


def cluster_resources() -> dict:
    return _sum(n.total for n in context.runtime().nodes if n.alive)


def available_resources() -> dict:
    # A node a resumed blocked task oversubscribes (miniray/blocking.py) offers none, not less than none.
    free = ({k: max(0.0, v) for k, v in n.available.items()} for n in context.runtime().nodes if n.alive)
    return {k: v for k, v in _sum(free).items() if v > 0}
