"""`python -m faultlines grade-all EXERCISE FOLDER [--out DIR] [--hidden DIR] [--jobs N] [--ray ADDRESS]`.

Grades every student of FOLDER (classroom.py: one row per submission, keyed by its path in the
folder; nothing dropped without a row), each in its own judge process with its own jail, on every
core (or fanned out over a Ray cluster with --ray, where every node must sandbox), with a progress
bar; writes OUT/summary.csv and a Gradescope OUT/<key>/results.json per student (summary.py).
Without a working bubblewrap it refuses, unless --unsafe-local.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Any

from . import UsageError, classroom, fanout, isolation, summary
from .classroom import StudentResult
from .grade import check_exercise, exercise_id, hidden_text


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("grade-all", help="grade a folder of submissions: CSV summary, Gradescope results")
    p.add_argument("exercise", help="an exercise's id (fault05) or its folder (exercises/fault05)")
    p.add_argument("folder")
    p.add_argument("--out", metavar="DIR", help="where results go (default: FOLDER/graded)")
    p.add_argument("--hidden", metavar="DIR", help="folder of hidden tiers: DIR/<exercise>/tiers.toml")
    p.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="parallel graders (default: every core)"
    )
    p.add_argument("--ray", metavar="ADDRESS", help="fan the submissions out over a real Ray cluster")
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


def run(args: argparse.Namespace) -> int:
    args.exercise = exercise_id(args.exercise)
    check_exercise(args.exercise)
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder")
    out = Path(args.out) if args.out else folder / "graded"
    from faultlines.grader import exercise

    entries = exercise.load(args.exercise).entry
    students = classroom.find(folder, entries, exclude=[out])
    if not students:
        raise UsageError(f"{folder}: no submissions (*.py, or a folder of .py files per student)")
    hidden = hidden_text(args.hidden, args.exercise)
    iso = isolation.choose(args, "grade-all")
    ray = _ray_connect(args.ray) if args.ray else None
    if ray is not None:
        fanout.check_nodes(ray, iso.mode)
    out.mkdir(parents=True, exist_ok=True)
    gradable = [s for s in students if s.path is not None]
    bar = Bar(len(students))
    graded: dict[str, StudentResult] = {}
    try:
        for s in students:
            if s.path is None:
                graded[s.key] = classroom.skipped(args.exercise, s)
                bar.tick()
        if ray is not None:
            for r in fanout.ray_grade(ray, iso, args.exercise, hidden, gradable, bar.tick):
                graded[r.key] = r
        else:
            for r in fanout.LocalJudges(iso, args.exercise, hidden, args.jobs).grade(gradable):
                graded[r.key] = r
                bar.tick()
    finally:
        bar.close()
    results = [graded[s.key] for s in students]
    summary.write_csv(results, out / "summary.csv")
    summary.write_gradescope(results, out)
    for r in results:
        if r.status in (classroom.SKIPPED, classroom.CRASHED):
            print(f"{r.key}: {r.message}", file=sys.stderr)
    print(f"graded {len(results)} submissions of {args.exercise}: {out / 'summary.csv'}")
    return 0 if all(r.passed for r in results) else 1
