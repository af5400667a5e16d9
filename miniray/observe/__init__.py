"""Observability, shaped like Ray's tools: the timeline, the state API's memory view, metrics.

    timeline.py     `miniray.timeline()`: the event log as a Chrome trace (Perfetto opens it)
    metrics.py      golden signals over virtual time: store fill %, spill, backlog, restarts
    memory.py       `ray memory`: every live ref, its owner, size and where it lives
    blob.py         `sim.Blob(nbytes)`: a block the store sizes without the host holding it
    trace.py        the Chrome trace builder the exporters share
The Ray-shaped entry points are `miniray.timeline` and `miniray.util.state`; the sampler is
`miniray.sim.metrics()`. Everything here reads state or the log and never schedules an event.
"""

from __future__ import annotations

from .blob import Blob
from .metrics import Metrics, metrics
from .timeline import timeline
from .trace import Trace, finish

__all__ = ["timeline", "metrics", "Metrics", "Blob", "Trace", "finish"]  # Trace: a model's own Chrome trace
