"""miniray: a deterministic simulator of a Ray cluster. `import miniray as ray` reads like Ray.

Simulation-only controls (virtual clock, seed, faults, event log) live in `miniray.sim`.
"""

from . import exceptions
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
from .objects import ObjectRef
from .observe.timeline import timeline
from .remote_function import method, remote
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
