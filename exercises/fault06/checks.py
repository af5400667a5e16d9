"""fault06 checks: a task's output is committed exactly once, whole, whatever attempts run.

Duplicate attempts come from Ray's retry after a crash (the first attempt may have written
already) and from a second client: a speculative copy of the same task, as a straggler
mitigation would start. The blob store's exclusive `commit` is kept out of reach: the learner
gets put, rename (which refuses an existing destination), read and delete, and builds it.

The classes the statement names, and where each is drawn: a duplicate attempt from a retry
after a crash (before the write, between the private write and the rename, after the rename)
and from a speculative copy started after any service call; a node loss; up to two of these in
a run (the search), three (the random tier). A cleanup in `finally:` or `with` runs only for an
attempt that really continues (miniray unwinds a blocked body without reaching the store).
"""

from __future__ import annotations

import time
from typing import Any

import miniray as ray
from faultlines.grader.checks import Broken, Checks, Service
from miniray import sim
from miniray.liveness import BlobStore

checks = Checks()
SHARDS = (1, 2)


OUT = "out"  # the name its calls are logged as: the learner's `out.put`, `out.rename`, ...


class Output(Service):
    """What write_output gets: a blob store, and a name unique to the running attempt. Its calls
    are logged as the learner writes them, `out.put`, `out.rename`, ... (not `blob.put`)."""

    def __init__(self, services: Any) -> None:
        self._blobs = BlobStore(services, name=OUT)
        self._svc = services
        self.reads: list[tuple[str, str]] = []  # (attempt, path) of every read

    @property
    def store(self) -> BlobStore:
        """The blobs themselves, for the checks (not part of the learner's API)."""
        return self._blobs

    def put(self, path: str, data: Any) -> None:
        self._blobs.put(path, data)

    def rename(self, src: str, dst: str) -> None:
        """Atomic; raises FileExistsError if dst exists (the first rename wins)."""
        self._blobs.rename(src, dst)

    def read(self, path: str) -> Any:
        attempt = sim.current_attempt()
        self.reads.append((attempt.key if attempt is not None else "driver", path))
        return self._blobs.read(path)

    def delete(self, path: str) -> None:
        self._blobs.delete(path)

    def attempt_name(self) -> str:
        """A name no other attempt has, e.g. for a private temporary path."""
        attempt = sim.current_attempt()
        return attempt.key.replace("#", "-").replace("/", "-") if attempt is not None else "driver"


def _task(sub: Any, out: Output) -> Any:
    @ray.remote(max_retries=3)
    def produce(shard: int) -> None:
        stamp = time.time()  # differs per attempt: two attempts' rows can be told apart
        rows = [f"shard {shard} row {i} @{stamp:.0f}" for i in range(2)]
        time.sleep(1.0)  # the work: a window for a crash, a node loss or a duplicate
        return sub.write_output(out, f"out/shard-{shard}", rows)

    return produce


@checks.scenario("two-shards")
def two_shards(sub: Any, ctx: Any) -> dict:
    ctx.cluster(workers=2)
    out = Output(ctx.services)
    task = _task(sub, out)
    ctx.extra["task"] = task
    errors = {}
    refs = {shard: task.remote(shard) for shard in SHARDS}
    for shard, ref in refs.items():
        try:
            ray.get(ref)
        except Exception as e:
            errors[shard] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}"
    ctx.wait_clients()
    return {
        "reads": list(out.reads),
        "errors": errors,
        "files": dict(out.store.files),
        "writers": dict(out.store.writers),
    }


@checks.client
def speculative_copy(sub: Any, ctx: Any) -> Any:
    """A second attempt of shard 1 started while the first still runs (speculative execution)."""
    return ctx.extra["task"].remote(1)


def _final(shard: int) -> str:
    return f"out/shard-{shard}"


@checks.invariant("written-once")
def written_once(outcome: dict, ctx: Any) -> list[Broken]:
    """Each shard's final path is written once, by one attempt (a put or a rename onto it): no reader sees it change."""
    problems = []
    for shard in SHARDS:
        path = _final(shard)
        writes = [
            e
            for e in ctx.services.of(service=OUT, outcome="ok")
            if (e.op == "put" and e.key == path) or (e.op == "rename" and e.key.endswith("->" + path))
        ]
        if len(writes) > 1:
            who = ", ".join(f"{e.attempt} {e.op}" for e in writes)
            why = f"{path} was written {len(writes)} times ({who}): a reader may have seen the first"
            problems.append(Broken(why, attempts=[e.attempt for e in writes]))
    return problems


@checks.invariant("every-shard-committed")
def committed(outcome: dict, ctx: Any) -> list[str | Broken]:
    """When the job ends, every shard's final path holds one attempt's complete output (both of its rows)."""
    problems: list[str | Broken] = []
    for shard in SHARDS:
        path = _final(shard)
        data = outcome["files"].get(path)
        if shard in outcome["errors"]:
            # Ray gave the shard's task up: it broke there.
            problems.append(
                Broken(f"shard {shard}: the task failed with {outcome['errors'][shard]}", final=True)
            )
        elif data is None:
            problems.append(f"{path} is missing after the job finished")
        elif (
            not isinstance(data, list) or len(data) != 2 or len({row.rsplit("@", 1)[-1] for row in data}) != 1
        ):
            problems.append(f"{path} is not one attempt's complete output: {data!r}")
    return problems


@checks.invariant("no-stray-files")
def no_strays(outcome: dict, ctx: Any) -> list[str]:
    """An attempt that ran to its end leaves no temporary file behind (a killed one cannot clean up)."""
    # A killed attempt cannot clean up after itself (a job-end sweep would); one that ran to its
    # end must leave nothing behind.
    finals = {_final(shard) for shard in SHARDS}
    finished = ctx.finished_attempts()
    strays = sorted(p for p in outcome["files"] if p not in finals and outcome["writers"].get(p) in finished)
    return (
        [f"left behind: {', '.join(strays)} (a losing attempt must delete its temporary output)"]
        if strays
        else []
    )


def _final_puts(ctx: Any) -> list[tuple[str, str]]:
    finals = {_final(shard) for shard in SHARDS}
    return [
        (e.attempt, e.key) for e in ctx.services.of(service=OUT, op="put", outcome="ok") if e.key in finals
    ]


@checks.evidence_for("put-the-final-path")
def put_final(outcome: Any, ctx: Any) -> bool:
    """Two attempts put the same final path directly (no private file, no rename)."""
    puts = _final_puts(ctx)
    return any(sum(1 for _, p in puts if p == path) > 1 for _, path in puts)


@checks.evidence_for("looked-before-writing")
def looked_before_writing(outcome: Any, ctx: Any) -> bool:
    """An attempt that put a final path had read that path first."""
    reads = set(outcome["reads"]) if outcome else set()
    return any((attempt, path) in reads for attempt, path in _final_puts(ctx))


@checks.evidence_for("deleted-a-final-path")
def deleted_a_final_path(outcome: Any, ctx: Any) -> bool:
    finals = {_final(shard) for shard in SHARDS}
    return any(e.key in finals for e in ctx.services.of(service=OUT, op="delete"))


@checks.evidence_for("two-attempts-one-temp")
def two_attempts_one_temp(outcome: Any, ctx: Any) -> bool:
    """Two attempts put the same temporary (not final) path."""
    finals = {_final(shard) for shard in SHARDS}
    writers: dict[str, set[str]] = {}
    for e in ctx.services.of(service=OUT, op="put"):
        if e.key not in finals:
            writers.setdefault(e.key, set()).add(e.attempt)
    return any(len(attempts) > 1 for attempts in writers.values())
