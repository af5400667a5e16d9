"""The head node as a coordination point: what losing its GCS does to a job (Ray 2.60, no GCS FT).

What real Ray 2.60 did on this machine (tests/conformance/scenarios/head_node_loss.py records it):
- `Cluster.remove_node(cluster.head_node)` while the driver is connected to it: Ray shuts the
  driver down (`ray.shutdown()`) and raises ValueError ("Removing a node that is connected to
  this Ray client is not allowed because it will break the driver ...").
- The head's GCS process dies (`cluster.head_node.kill_gcs_server()`): work that needs only the
  raylets and the workers goes on. A running task finishes and its result reaches the driver,
  calls to an existing actor are answered, and new tasks are leased and run. Work that the GCS
  must schedule never starts: a new actor stays pending (`ray.get(..., timeout=)` raises
  GetTimeoutError) and `ray.util.placement_group(...)` blocks the driver. After
  `gcs_rpc_server_reconnect_timeout_s` (60 s) without the GCS, the driver process exits with
  status 1: "Failed to connect to GCS within 60 seconds. ... The program will terminate."

miniray models it as `Gcs` below: `kill_gcs_server()` on the head node (or the `kill_gcs` fault)
stops actor creation and placement-group creation, and at the reconnect timeout raises SystemExit
with Ray's message in whatever the driver is blocked on (a script exits with status 1, as on Ray; a
notebook cell shows the exception). docs/reference/miniray.md lists where it differs from Ray.
"""

from .gcs import Gcs, gcs_unreachable_message, remove_connected_node_error

__all__ = ["Gcs", "gcs_unreachable_message", "remove_connected_node_error"]
