"""The head node's GCS: alive, or dead since a virtual time, and the driver's deadline after that."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Kind

if TYPE_CHECKING:
    from ..cluster import Node
    from ..kernel import Timer
    from ..runtime import Runtime

DEFAULT_RECONNECT_TIMEOUT_S = 60  # Ray 2.60's gcs_rpc_server_reconnect_timeout_s


def gcs_unreachable_message(timeout_s: float) -> str:
    """What Ray 2.60's GCS client logs before it terminates the process (rpc_client.h)."""
    return (
        f"Failed to connect to GCS within {timeout_s:g} seconds. GCS may have been killed. It's either "
        "GCS is terminated by `ray stop` or is killed unexpectedly. If it is killed unexpectedly, see "
        "the log file gcs_server.out. https://docs.ray.io/en/master/ray-observability/user-guides/"
        "configure-logging.html#logging-directory-structure. The program will terminate."
    )


def remove_connected_node_error() -> ValueError:
    """Ray's cluster_utils refusal to remove the node the driver is connected to."""
    return ValueError(
        "Removing a node that is connected to this Ray client is not allowed because it will break "
        "the driver. You can use the get_other_node utility to avoid removing a node that the Ray "
        "client is connected."
    )


class Gcs:
    """The Global Control Service on the head node: it schedules actors and placement groups.

    Tasks are leased by the raylets and actor calls go straight to the actor's worker, so neither
    needs it. Without it the driver waits `gcs_rpc_server_reconnect_timeout_s`, then exits."""

    def __init__(self, rt: Runtime):
        self.rt = rt
        self.timeout_s = float(
            rt.system_config.get("gcs_rpc_server_reconnect_timeout_s", DEFAULT_RECONNECT_TIMEOUT_S)
        )
        self.alive = True
        self.died_at: float | None = None
        self.exit_message: str | None = None  # set when the driver gave up: it has exited
        self._deadline: Timer | None = None

    def kill(self) -> None:
        """The GCS process dies now (idempotent)."""
        if not self.alive:
            return
        self.alive = False
        self.died_at = self.rt.now()
        head = next((n for n in self.rt.nodes if n.is_head), None)
        self.rt.emit(
            Kind.GCS_DIED, node=head.name if head is not None else "", reconnect_timeout_s=self.timeout_s
        )
        self._deadline = self.rt.call_later(self.timeout_s, self._give_up, label="gcs-reconnect-timeout")
        self.rt.request_dispatch()

    def can_start(self, kind: str, node: Node) -> bool:
        """Can work of this kind start on `node` now? The GCS places actors, and a new worker
        process registers with it before it runs anything, so without the GCS only a task that
        finds an idle worker on the node starts (Ray's raylets lease tasks on their own)."""
        if self.alive:
            return True
        return kind != "actor_creation" and bool(node.idle)

    def _give_up(self) -> None:
        self.exit_message = gcs_unreachable_message(self.timeout_s)
        self.rt.emit(Kind.GCS_UNREACHABLE, after_s=self.timeout_s)
        self.raise_if_exited()

    def raise_if_exited(self) -> None:
        """The driver's process is gone: anything it was doing or does next ends with SystemExit."""
        if self.exit_message is not None:
            raise SystemExit(self.exit_message)

    def block(self, what: str) -> None:
        """A driver call that is a synchronous GCS request (creating a placement group): while the
        GCS is dead it waits, as Ray's does, until the driver gives up and exits."""
        if self.alive:
            return
        self.rt.run_until(lambda: self.alive, None, what)
