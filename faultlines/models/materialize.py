"""Reconstruction or materialization: what a lost mid-pipeline output costs each way.

A pipeline of `stages` stages of `stage_s` seconds keeps its intermediates in the object store.
If the node holding stage `lost_at`'s output dies, lineage re-runs stages 1..lost_at
(`lost_at * stage_s`). Materializing that stage to durable storage costs `persist_s` on every
run, and turns the loss into one `reload_s` read. With a chance `p_loss` of losing the node
during a run, the expected extra seconds per run are p * recompute for lineage and
persist + p * reload for materialization; materializing pays off above
p = persist / (recompute - reload).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Comparison:
    recompute_s: float  # lineage: stages re-run after the loss
    persist_s: float  # materialization: paid on every run
    reload_s: float  # materialization: paid on a loss
    p_loss: float

    @property
    def saved_on_loss_s(self) -> float:
        return self.recompute_s - self.reload_s

    @property
    def expected_lineage_s(self) -> float:
        return self.p_loss * self.recompute_s

    @property
    def expected_materialize_s(self) -> float:
        return self.persist_s + self.p_loss * self.reload_s

    @property
    def break_even_p(self) -> float | None:
        """The loss chance above which materializing is cheaper; None if it never is."""
        if self.saved_on_loss_s <= 0:
            return None
        return (
            min(1.0, self.persist_s / self.saved_on_loss_s)
            if self.persist_s <= self.saved_on_loss_s
            else None
        )

    @property
    def choice(self) -> str:
        return "materialize" if self.expected_materialize_s < self.expected_lineage_s else "rely on lineage"


def compare(stage_s: float, lost_at: int, persist_s: float, reload_s: float, p_loss: float) -> Comparison:
    if lost_at < 1 or stage_s < 0 or persist_s < 0 or reload_s < 0:
        raise ValueError("lost_at must be at least 1 and the times must not be negative")
    if not 0.0 <= p_loss <= 1.0:
        raise ValueError(f"p_loss must be a probability in [0, 1], got {p_loss}")
    return Comparison(lost_at * stage_s, persist_s, reload_s, p_loss)
