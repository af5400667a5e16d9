"""`python -m faultlines grade-all EXERCISE|all FOLDER [--out DIR] [--hidden DIR] [--jobs N] [--ray ADDRESS]
[--report DIR]`.

Grades every student of FOLDER (classroom.py: one row per submission, keyed by its path in the
folder; nothing dropped without a row), each in its own judge process with its own jail, on every
core (or fanned out over a Ray cluster with --ray, where every node must sandbox), with a progress
bar; writes OUT/summary.csv and a Gradescope OUT/<key>/results.json per student (summary.py).
Without a working bubblewrap it refuses, unless --unsafe-local. What FOLDER holds (one
exercise's submissions, a folder per exercise, learners' progress files) is class_folder.py's;
--report adds the class map (class_report.py).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Any

from faultlines.grader.safe_text import visible

from . import UsageError, class_folder, classroom, fanout, isolation, summary
from .class_folder import Batch
from .classroom import StudentResult
from .grade import check_exercise, exercise_id, hidden_text


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The verb's arguments, on the parser cli/__init__ made for it (with its help line)."""
    p.add_argument(
        "exercise",
        help="an exercise's id (fault05), its folder (exercises/fault05), or `all`: FOLDER holds one folder per exercise",
    )
    p.add_argument("folder", help="the submissions, or a folder of learners' progress files (*.json)")
    p.add_argument("--out", metavar="DIR", help="where results go (default: FOLDER/graded)")
    p.add_argument("--hidden", metavar="DIR", help="folder of hidden tiers: DIR/<exercise>/tiers.toml")
    p.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="parallel graders (default: every core)"
    )
    p.add_argument("--ray", metavar="ADDRESS", help="fan the submissions out over a real Ray cluster")
    p.add_argument(
        "--report",
        metavar="DIR",
        help="also write the class map: DIR/report.html, DIR/groups.csv, DIR/replays/<n>.html",
    )
    isolation.add_options(p)
    p.set_defaults(run=run)


class Bar:
    """The progress bar on stderr; `close` ends its line, so whatever is printed next starts afresh."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total, self.width, self.done = total, width, 0
        self.draw()

    def draw(self) -> None:
        filled = self.width * self.done // max(self.total, 1)
        bar = f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total}"
        print(f"\r{bar}", end="", file=sys.stderr, flush=True)

    def tick(self) -> None:
        self.done += 1
        self.draw()

    def close(self) -> None:
        print(file=sys.stderr, flush=True)


def _probe(address: str, timeout_s: float = 10.0) -> None:
    """A HOST:PORT nobody listens on fails here, in seconds: ray.init would wait for it for minutes."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return  # "local", "auto": Ray's own words, which it resolves itself
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as e:
        raise UsageError(f"--ray {address}: cannot start or reach the Ray cluster ({e})") from None


def _ray_connect(address: str) -> Any:
    """The ray module, connected: before the progress bar, so a failure is a line of its own."""
    try:
        import ray  # the real Ray: an instructor's cluster with faultlines installed on its nodes
    except ImportError:
        raise UsageError("--ray needs Ray installed in this Python (pip install 'ray==2.60.0')") from None
    _probe(address)
    # "local" starts a one-machine Ray for trying this out; anything else is a cluster address.
    try:
        ray.init(
            address=None if address == "local" else address, runtime_env={"env_vars": fanout.worker_env()}
        )
    except Exception as e:
        raise UsageError(
            f"--ray {address}: cannot start or reach the Ray cluster ({str(e).strip().splitlines()[0]})"
        ) from None
    return ray


def _grade_batch(
    batch: Batch, iso: isolation.Isolation, hidden: str | None, jobs: int, ray: Any, bar: Bar
) -> list[StudentResult]:
    """One exercise's rows, in its students' order; its summary.csv and Gradescope files written."""
    graded: dict[str, StudentResult] = {}
    for s in batch.students:
        if s.path is None:
            graded[s.key] = classroom.skipped(batch.exercise, s)
            bar.tick()
    gradable = [s for s in batch.students if s.path is not None]
    if ray is not None:
        for r in fanout.ray_grade(ray, iso, batch.exercise, hidden, gradable, bar.tick):
            graded[r.key] = r
    else:
        for r in fanout.LocalJudges(iso, batch.exercise, hidden, jobs).grade(gradable):
            graded[r.key] = r
            bar.tick()
    results = [graded[s.key] for s in batch.students]
    batch.out.mkdir(parents=True, exist_ok=True)
    summary.write_csv(results, batch.out / "summary.csv")
    summary.write_gradescope(results, batch.out)
    return results


def _report_folder(given: str | None) -> Path | None:
    if given is None:
        return None
    report = Path(given)
    if report.exists() and not report.is_dir():
        raise UsageError(f"--report {report}: not a folder")
    return report


def _replay_args(args: argparse.Namespace) -> list[str]:
    """What `replay` needs to run a student's code as this grade-all ran it."""
    extra = ["--unsafe-local"] if args.unsafe_local else []
    return extra + (["--wall-seconds", str(args.wall_seconds)] if args.wall_seconds else [])


def run(args: argparse.Namespace) -> int:
    chosen = args.exercise if args.exercise == class_folder.ALL else exercise_id(args.exercise)
    if chosen != class_folder.ALL:
        check_exercise(chosen)
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder")
    out = Path(args.out) if args.out else folder / "graded"
    report = _report_folder(args.report)
    plan = class_folder.plan(folder, chosen, out, (report or out) / "sources")
    hidden = {b.exercise: hidden_text(args.hidden, b.exercise) for b in plan.batches}
    iso = isolation.choose(args, "grade-all")
    ray = _ray_connect(args.ray) if args.ray else None
    if ray is not None:
        fanout.check_nodes(ray, iso.mode)
    for line in plan.problems:
        print(line, file=sys.stderr)
    bar = Bar(sum(len(b.students) for b in plan.batches))
    results: list[tuple[Batch, list[StudentResult]]] = []
    try:
        for batch in plan.batches:
            results.append((batch, _grade_batch(batch, iso, hidden[batch.exercise], args.jobs, ray, bar)))
    finally:
        bar.close()
    for batch, rows in results:
        for r in rows:
            if r.status in (classroom.SKIPPED, classroom.CRASHED):
                print(visible(f"{batch.prefix}{r.key}: {r.message}"), file=sys.stderr)
        print(f"graded {len(rows)} submissions of {batch.exercise}: {batch.out / 'summary.csv'}")
    if report is not None:
        # Here, not at the top: the class map's page and groups load only when --report asks.
        from . import class_report

        handins = [h for batch, rows in results for h in class_report.handins(batch, rows)]
        class_report.write(report, plan, handins, args.jobs, hidden, _replay_args(args))
    everyone = [r for _, rows in results for r in rows]
    return 0 if all(r.passed for r in everyone) else 1
