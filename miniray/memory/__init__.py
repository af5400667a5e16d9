"""The memory monitor: Ray's raylet-side OOM killer, simulated on the virtual clock.

In Ray, `@ray.remote(memory=...)` only affects placement. What kills a worker for using too much
memory is the memory monitor in each node's raylet: every `memory_monitor_refresh_ms` (250 ms)
it compares the node's memory use with `memory_usage_threshold` (0.95) of its memory and, above
it, kills one worker chosen by its worker-killing policy. A task killed this way is retried on a
separate OOM counter with exponential backoff; one that may not be retried fails with
`ray.exceptions.OutOfMemoryError`.

miniray cannot measure memory, so what a task or actor uses is declared from outside the script,
as a fault: `Fault("use_memory", "load", size=13e9, duration=4)` (every attempt of `load` grows
to 13 GB over its first 4 s). The script itself stays plain Ray. A node's memory is its `memory`
resource (8 GiB unless `ray.init(memory=...)` or `Cluster.add_node(memory=...)` says otherwise).
Nothing runs, and nothing changes in the log, until a `use_memory` fault is declared.

- monitor.MemoryMonitor: the periodic check on each node and the kill;
- policy: which worker it kills, whether the task runs again, and the error text.
docs/reference/miniray.md lists where this differs from Ray.
"""

from .monitor import MemoryMonitor, Usage
from .policy import oom_retry_delay_s

__all__ = ["MemoryMonitor", "Usage", "oom_retry_delay_s"]
