"""Lesson 13's story: a long export stopped from outside by `ray.cancel`.

`export_rows` writes a table of ROWS rows, one every ROW_S virtual seconds, through miniray's
simulated database (so each row is an effect in the world, journaled and stamped with its
attempt). Its caller changes its mind at `cancel_at` seconds and calls `ray.cancel`. How the
export is written and cancelled (`MODES`):

* ``"interrupt"``: `ray.cancel(ref)` on the running task: it stops where it is;
* ``"force"``: `ray.cancel(ref, force=True)`: its worker is killed;
* ``"queued"``: the export waits behind another job for the only CPU when it is cancelled;
* ``"actor"``: the export is an actor method; Ray only flags it, and it runs on to its end;
* ``"actor + is_canceled"``: the method asks `ray.get_runtime_context().is_canceled()` before
  each row and stops;
* ``"staged"``: the task builds every row first and writes the table in one call at the end.

The task has Ray's default `max_retries=3`, and no mode runs a second attempt: Ray never
retries a cancelled task.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import miniray as ray
from faultlines.reading import Kind, Reading
from miniray import exceptions, sim
from miniray.liveness import Services

ROWS = 10
ROW_S = 0.5  # one row every half second: the export takes 5 s
CANCEL_AT = 2.2  # when the caller cancels it: during the fifth row
MODES = ("interrupt", "force", "queued", "actor", "actor + is_canceled", "staged")


@dataclass
class Stopped:
    mode: str
    cancel_at: float
    raised: str  # what ray.get raised (its class), or what it returned
    rows: int  # rows in the table once everything has settled
    attempts: int  # attempts of the export Ray started
    log_text: str
    token: str
    timeline: str  # starts, the cancel, deaths, ends, effects: the run without its bookkeeping


# What the page's timeline shows of a run.
SHOWN = (Kind.TASK_START, Kind.TASK_CANCEL, Kind.WORKER_DIED, Kind.TASK_FINISH, Kind.TASK_ERROR, Kind.EFFECT)


def _writer(services: Services):
    def write_row(i: int) -> None:
        time.sleep(ROW_S)  # reading and shaping the row: the long part
        services.db.upsert("export", f"row-{i}", i)

    return write_row


def _task(mode: str, services: Services, rows: int):
    write_row = _writer(services)

    @ray.remote  # max_retries=3 by default
    def export_rows(n: int) -> int:
        if mode == "staged":  # every row built first, with no effect; then one write
            table = {}
            for i in range(n):
                time.sleep(ROW_S)
                table[f"row-{i}"] = i
            services.blobs.put("export.json", table)
            return n
        for i in range(n):
            write_row(i)
        return n

    return export_rows


def _other_job(services: Services):
    @ray.remote
    def nightly_report(n: int) -> int:
        for i in range(n):
            time.sleep(ROW_S)
            services.db.upsert("report", f"line-{i}", i)
        return n

    return nightly_report


def _actor(mode: str, services: Services):
    write_row = _writer(services)

    @ray.remote
    class Exporter:
        def export(self, n: int) -> int:
            for i in range(n):
                if mode == "actor + is_canceled" and ray.get_runtime_context().is_canceled():
                    return i  # the caller asked to stop: stop at a row boundary
                write_row(i)
            return n

    return Exporter.remote()  # type: ignore[attr-defined]  # @ray.remote made it an actor class


def export(mode: str = "interrupt", cancel_at: float | None = CANCEL_AT, rows: int = ROWS) -> Stopped:
    """Run the export once, cancelled at `cancel_at` (None: never), and count what it left."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; the modes are {', '.join(MODES)}")
    services = Services()

    def scenario() -> str:
        ray.init(num_cpus=1)
        if mode.startswith("actor"):
            ref = _actor(mode, services).export.remote(rows)
        else:
            first = _other_job(services).remote(rows) if mode == "queued" else None  # holds the CPU
            ref = _task(mode, services, rows).remote(rows)
        if cancel_at is not None:
            time.sleep(cancel_at)
            ray.cancel(ref, force=mode == "force")
        try:
            said = f"returned {ray.get(ref)}"
        except exceptions.RayError as error:
            said = type(error).__name__
        if mode == "queued":
            ray.get(first)
        time.sleep(2 * ROW_S)  # a retry, if there were one, would write rows meanwhile
        return said

    run = sim.run(scenario)
    if run.error is not None:
        raise RuntimeError(f"the export failed unexpectedly (replay: {run.token()}): {run.error!r}")
    staged = services.blobs.files.get("export.json")
    written = len(staged) if mode == "staged" and staged is not None else len(services.db.rows("export"))
    reading = Reading.of_run(run)
    return Stopped(
        mode=mode,
        cancel_at=cancel_at if cancel_at is not None else -1.0,
        raised=str(run.value),
        rows=written,
        attempts=reading.count(Kind.TASK_START, task="export_rows") or reading.count(Kind.ACTOR_START),
        log_text=run.log_text,
        token=run.token(),
        timeline="\n".join(r.line() for r in reading.of(*SHOWN)),
    )


SWEEP = tuple(i / 4 for i in range(23))  # cancel times from 0 to 5.5 s, every quarter second


def sweep(mode: str, times: tuple[float, ...] = SWEEP) -> list[int]:
    """Rows the table holds when the export is cancelled at each of `times`."""
    return [export(mode, t).rows for t in times]
