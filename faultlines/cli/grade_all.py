"""`python -m faultlines grade-all EXERCISE FOLDER [--out DIR] [--hidden DIR] [--jobs N] [--ray ADDRESS]`.

Grades every FOLDER/*.py (or FOLDER/<student>/*.py, one file per student) in its own sandboxed
subprocess, on every core (or fanned out over a Ray cluster with --ray), with a progress bar;
writes OUT/summary.csv and a Gradescope OUT/<name>/results.json per submission.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import socket
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from faultlines.grader import render_json

from . import UsageError, sandbox
from .grade import check_inputs, hidden_text


def add_parser(verbs: argparse._SubParsersAction) -> None:
    p = verbs.add_parser("grade-all", help="grade a folder of submissions: CSV summary, Gradescope results")
    p.add_argument("exercise")
    p.add_argument("folder")
    p.add_argument("--out", metavar="DIR", help="where results go (default: FOLDER/graded)")
    p.add_argument("--hidden", metavar="DIR", help="folder of hidden tiers: DIR/<exercise>/tiers.toml")
    p.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="parallel graders (default: every core)"
    )
    p.add_argument("--ray", metavar="ADDRESS", help="fan the submissions out over a real Ray cluster")
    p.set_defaults(run=run)


def submissions(folder: Path) -> list[tuple[str, Path]]:
    found = [(p.stem, p) for p in sorted(folder.glob("*.py"))]
    for student in sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "graded"):
        files = sorted(student.glob("*.py"))
        if len(files) == 1:
            found.append((student.name, files[0]))
    return found


def _bar(done: int, total: int, width: int = 30) -> None:
    filled = width * done // max(total, 1)
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="", file=sys.stderr, flush=True)


def _grade_local(exercise: str, hidden: str | None) -> Callable[[Path], dict]:
    def one(path: Path) -> dict:
        verdict = sandbox.run(exercise, path, hidden)
        return {"report": verdict.report.to_dict(), "bad_input": verdict.bad_input}

    return one


def _worker_env() -> dict[str, str]:
    """Ray workers import faultlines too: from the same place as this process does."""
    root = str(Path(__file__).resolve().parents[2])
    return {"PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


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
        ray.init(address=None if address == "local" else address, runtime_env={"env_vars": _worker_env()})
    except Exception as e:
        raise UsageError(
            f"--ray {address}: cannot start or reach the Ray cluster ({str(e).strip().splitlines()[0]})"
        ) from None
    return ray


def _ray_map(ray: Any, exercise: str, hidden: str | None, items: list[tuple[str, Path]]) -> Iterable[dict]:
    @ray.remote(num_cpus=1)
    def grade_remote(source: str, name: str) -> dict:
        import tempfile
        from pathlib import Path as P

        from faultlines.cli import sandbox as box

        with tempfile.TemporaryDirectory() as tmp:
            path = P(tmp) / name
            path.write_text(source)
            verdict = box.run(exercise, path, hidden)
        return {"report": verdict.report.to_dict(), "bad_input": verdict.bad_input}

    try:
        refs = [grade_remote.remote(path.read_text(), path.name) for _, path in items]
        pending = list(refs)
        while pending:
            _ready, pending = ray.wait(pending, num_returns=1)
            yield {}
        results = ray.get(refs)
    finally:  # disconnect (and stop a "local" Ray) even when grading is interrupted
        ray.shutdown()
    yield from results


def run(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder")
    items = submissions(folder)
    if not items:
        raise UsageError(f"{folder}: no submissions (*.py, or one .py per student folder)")
    check_inputs(args.exercise, str(items[0][1]))
    hidden = hidden_text(args.hidden, args.exercise)
    out = Path(args.out) if args.out else folder / "graded"
    out.mkdir(parents=True, exist_ok=True)
    total = len(items)
    ray = _ray_connect(args.ray) if args.ray else None
    _bar(0, total)
    results: list[dict] = []
    if ray is not None:
        done = 0
        for item in _ray_map(ray, args.exercise, hidden, items):
            if item:
                results.append(item)
            else:
                done += 1
                _bar(done, total)
    else:
        grade_one = _grade_local(args.exercise, hidden)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(grade_one, path) for _, path in items]
            for done, future in enumerate(futures, start=1):
                results.append(future.result())
                _bar(done, total)
    print(file=sys.stderr)
    from faultlines.grader.report import Report

    all_passed = True
    with open(out / "summary.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["submission", "score", "max_score", "passed", "first_failure"])
        for (name, _path), result in zip(items, results):
            report = Report.from_dict(result["report"])
            failure = report.first_failure
            reason = report.error or (f"{failure.invariant}: {failure.detail}" if failure else "")
            writer.writerow([name, f"{report.score:g}", f"{report.max_score:g}", report.passed, reason])
            target = out / name
            target.mkdir(exist_ok=True)
            (target / "results.json").write_text(json.dumps(render_json.gradescope(report), indent=1))
            all_passed = all_passed and report.passed
    print(f"graded {total} submissions of {args.exercise}: {out / 'summary.csv'}")
    return 0 if all_passed else 1
