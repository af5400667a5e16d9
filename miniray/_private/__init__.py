"""`ray._private`'s names a Ray program reaches for: `ray._private.state.state.get_draining_nodes()`."""

from . import state

__all__ = ["state"]
