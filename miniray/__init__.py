"""miniray: a deterministic simulator of a Ray cluster. `import miniray as ray` reads like Ray.

Simulation-only controls (virtual clock, seed, faults, event log) live in `miniray.sim`.
"""

# After `import ray`: `ray.actor.exit_actor`, `ray.util.placement_group`, `ray._raylet.GcsClient`,
# `ray._private.state.state.get_draining_nodes()`.
from . import _private as _private
from . import _raylet as _raylet
from . import actor, exceptions, util
from .api import (
    available_resources,
    cluster_resources,
    get,
    get_actor,
    init,
    is_initialized,
    kill,
    nodes,
    put,
    shutdown,
    wait,
)
from .cancel import cancel
from .generators import DynamicObjectRefGenerator, ObjectRefGenerator
from .objects import ObjectRef
from .observe.timeline import timeline
from .remote_function import method, remote
from .runtime_context import get_runtime_context
from .util.state import memory as _memory

__version__ = "0.1.0"

__all__ = [
    "init",
    "shutdown",
    "is_initialized",
    "remote",
    "method",
    "get",
    "put",
    "wait",
    "kill",
    "cancel",
    "ObjectRefGenerator",
    "DynamicObjectRefGenerator",
    "get_runtime_context",
    "actor",
    "util",
    "get_actor",
    "nodes",
    "cluster_resources",
    "available_resources",
    "exceptions",
    "ObjectRef",
    "timeline",
    "memory_summary",
]


def memory_summary() -> str:
    """The `ray memory` report as text (rows: `miniray.util.state.memory()`)."""
    return _memory().text
