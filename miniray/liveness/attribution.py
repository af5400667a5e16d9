"""Who failed, and is it worth retrying: per-node failure attribution and error classification.

A scheduler that silently re-runs failed attempts elsewhere hides a bad machine: the job
succeeds, twice as slowly, every night. Attribution counts failed attempts by the node they ran
on (read from the event log: `task.start` says where an attempt ran, `task.fail` / `task.error`
that it failed) and blacklists a node that stands out, so the scheduler stops placing work there.
Only failures that implicate the node count: a worker or node that died under the attempt, or a
retryable error. A terminal error (a ValueError on a malformed record) fails identically on
every node, so it says nothing about the node it happened on.

Classification is by exception class, not by heuristics: a malformed input fails identically on
every node, so retrying it only multiplies the work. `RETRYABLE` is a tuple ready for Ray's own
option: `@ray.remote(retry_exceptions=list(attribution.RETRYABLE))`.
"""

from __future__ import annotations

from collections import Counter

from .. import context
from .. import exceptions as exc
from ..events import Kind
from ..log import Record


class TransientError(Exception):
    """Raise this (or a subclass) for a failure that another attempt may not hit: a flaky disk."""


# Failures of the environment, not of the input: another attempt (on another node) may succeed.
RETRYABLE: tuple = (
    TransientError,
    ConnectionError,
    TimeoutError,
    exc.WorkerCrashedError,
    exc.NodeDiedError,
    exc.ObjectLostError,
    exc.ActorUnavailableError,
)
# Failures of the input or the code: identical on every node. Anything unlisted counts as
# terminal too, so an unknown error is not amplified by retries.
TERMINAL: tuple = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    AssertionError,
    ZeroDivisionError,
    NotImplementedError,
)


def classify(error: BaseException, retryable: tuple = RETRYABLE) -> str:
    """'retryable' or 'terminal' by exception class (a RayTaskError is judged by its cause)."""
    cause = getattr(error, "cause", None)
    if isinstance(error, exc.RayTaskError) and isinstance(cause, BaseException):
        error = cause
    return "retryable" if isinstance(error, retryable) else "terminal"


def _class_names(classes: tuple) -> set[str]:
    """The names of `classes` and of every subclass defined so far (the log records names only)."""
    # Walk by class, not by name: two classes may share a name (a lesson's own TransientError),
    # and skipping the second would skip its subclasses too.
    seen: set[type] = set()
    todo = list(classes)
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.add(cls)
            todo.extend(cls.__subclasses__())
    return {cls.__name__ for cls in seen}


class Attribution:
    """Counts failed attempts per node from the event log; blacklists a node that stands out.

    A node stands out when it has at least `min_failures` failed attempts and at least `ratio`
    times as many as the average of the other worker nodes (so a cluster-wide outage, where every
    node fails, blacklists nobody). A blacklisted node gets no new work; what runs there finishes.
    """

    def __init__(
        self,
        rt=None,
        min_failures: int = 3,
        ratio: float = 3.0,
        blacklist: bool = True,
        retryable: tuple = RETRYABLE,
    ):
        rt = rt or context.current()
        if rt is None:
            raise RuntimeError("miniray is not initialized: call miniray.init() before Attribution().")
        self.rt = rt
        self.min_failures = int(min_failures)
        self.ratio = float(ratio)
        self.enabled = blacklist
        self.retryable = retryable
        self.where: dict[str, str] = {}  # attempt key -> node name
        self.failures: Counter = Counter()  # node name -> failed attempts that implicate the node
        self.successes: Counter = Counter()
        self.errors: Counter = Counter()  # (node, error class or cause) -> count, terminal ones too
        self.blacklisted: dict[str, float] = {}  # node name -> virtual time it was blacklisted
        for rec in rt._log.records:
            self._on_record(rec)
        rt._log.listeners.append(self._on_record)
        if blacklist:
            rt.scheduler.node_filters.append(lambda node: node.name not in self.blacklisted)

    def implicates_node(self, rec: Record) -> bool:
        """A death under the attempt does; an error only if it is retryable (see the module doc)."""
        if rec.kind == Kind.TASK_FAIL:
            return True
        return rec["error"] in _class_names(self.retryable)

    def _on_record(self, rec: Record) -> None:
        if rec.kind == Kind.TASK_START:
            self.where[rec["attempt"]] = rec["node"]
        elif rec.kind in (Kind.TASK_FAIL, Kind.TASK_ERROR):
            node = self.where.get(rec["attempt"])
            if node is None:
                return
            self.errors[(node, rec.get("error") or rec.get("cause"))] += 1
            if self.implicates_node(rec):
                self.failures[node] += 1
                self._judge(node)
        elif rec.kind == Kind.TASK_FINISH:
            node = self.where.get(rec["attempt"])
            if node is not None:
                self.successes[node] += 1

    def stands_out(self, node: str) -> bool:
        n = self.failures[node]
        others = [self.failures[x.name] for x in self.rt.nodes if not x.is_head and x.name != node]
        mean = sum(others) / len(others) if others else 0.0
        return n >= self.min_failures and n >= self.ratio * max(mean, 1.0)

    def _judge(self, node: str) -> None:
        if self.enabled and node not in self.blacklisted and self.stands_out(node):
            self.blacklisted[node] = self.rt.now()
            self.rt.emit(
                Kind.LIVENESS_BLACKLIST,
                node=node,
                failures=self.failures[node],
                successes=self.successes[node],
            )

    def report(self) -> list[dict]:
        """One row per worker node: failed and finished attempts, and whether it is blacklisted."""
        return [
            {
                "node": n.name,
                "failures": self.failures[n.name],
                "successes": self.successes[n.name],
                "blacklisted": n.name in self.blacklisted,
            }
            for n in self.rt.nodes
            if not n.is_head
        ]
