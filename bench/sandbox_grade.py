"""What the sandbox costs: `grade` and `grade-all` with the learner's code in a bubblewrap jail,
against `--unsafe-local` (everything in one process, the grading before issue 20), in one run.

- grade: every exercise's reference and catalogued wrong solutions, each graded by the CLI as a
  user runs it (a new process per command), the two modes interleaved; wall-clock medians per
  file, summed, and their ratio.
- grade-all: a class of copies of fault05's reference and wrong solutions, --jobs 2, both modes;
  submissions per second and the ratio.

    python bench/sandbox_grade.py                          # both (a few minutes on two cores)
    python bench/sandbox_grade.py --class 600 --grade-all  # the issue's class size, grade-all only
    python bench/sandbox_grade.py --against /tmp/base      # jailed grade-all, this tree vs another
                                                           # checkout of the repository, interleaved

`--against DIR` grades the same class with DIR's faultlines and miniray (the CLI run from DIR),
alternating the two trees ROUNDS times, and prints each one's median submissions per second and
their ratio: the budget of a change to the sandbox is read there, side by side in one run.

Wall-clock on a shared machine: read the ratios, and the load average printed with them.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from faultlines.grader import exercise  # noqa: E402
from faultlines.sandbox import machine  # noqa: E402

ROUNDS = 3
MODES = {"jailed": [], "unsafe-local": ["--unsafe-local"]}


def _cli(*args: str, cwd: Path = REPO) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "faultlines", *args], cwd=cwd, capture_output=True, text=True, timeout=1800
    )
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{args}: exit {proc.returncode}: {proc.stderr[-500:]}")
    return took


def bench_grade() -> None:
    files = []
    for ex_id in exercise.exercise_ids():
        ex = exercise.load(ex_id)
        files.append((ex_id, ex.reference_path))
        files += [(ex_id, w.path) for w in ex.wrong_solutions()]
    totals = {mode: 0.0 for mode in MODES}
    worst = (0.0, "")
    for ex_id, path in files:
        times: dict[str, list[float]] = {mode: [] for mode in MODES}
        for _ in range(ROUNDS):
            for mode, extra in MODES.items():
                times[mode].append(_cli("grade", ex_id, str(path), "--json", *extra))
        medians = {mode: statistics.median(t) for mode, t in times.items()}
        for mode in MODES:
            totals[mode] += medians[mode]
        ratio = medians["jailed"] / medians["unsafe-local"]
        worst = max(worst, (ratio, f"{ex_id}/{path.name}"))
    print(
        f"grade, {len(files)} files (every reference and catalogued wrong solution), median of {ROUNDS}: "
        f"jailed {totals['jailed']:.1f} s, unsafe-local {totals['unsafe-local']:.1f} s, "
        f"ratio {totals['jailed'] / totals['unsafe-local']:.2f} (worst file {worst[0]:.2f}: {worst[1]})"
    )


def bench_grade_all(size: int) -> None:
    ex = exercise.load("fault05")
    sources = [ex.reference_path] + [w.path for w in ex.wrong_solutions()]
    with tempfile.TemporaryDirectory(prefix="fl-bench-class-") as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        for i in range(size):
            shutil.copy(sources[i % len(sources)], folder / f"student{i:04d}.py")
        rates = {}
        for mode, extra in MODES.items():
            took = _cli(
                "grade-all", "fault05", str(folder), "--jobs", "2", "--out", str(Path(tmp) / mode), *extra
            )
            rates[mode] = size / took
    print(
        f"grade-all, {size} fault05 submissions, --jobs 2: jailed {rates['jailed']:.2f}/s, "
        f"unsafe-local {rates['unsafe-local']:.2f}/s, ratio {rates['unsafe-local'] / rates['jailed']:.2f}"
    )


def bench_against(other: Path, size: int) -> None:
    ex = exercise.load("fault05")
    sources = [ex.reference_path] + [w.path for w in ex.wrong_solutions()]
    trees = {"this tree": REPO, f"{other}": other}
    rates: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory(prefix="fl-bench-class-") as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        for i in range(size):
            shutil.copy(sources[i % len(sources)], folder / f"student{i:04d}.py")
        for r in range(ROUNDS):
            for name, tree in trees.items():
                out = Path(tmp) / f"out-{r}-{len(rates[name])}-{tree.name}"
                took = _cli("grade-all", "fault05", str(folder), "--jobs", "2", "--out", str(out), cwd=tree)
                rates[name].append(size / took)
    medians = {name: statistics.median(r) for name, r in rates.items()}
    mine, theirs = medians["this tree"], medians[f"{other}"]
    print(
        f"grade-all, {size} fault05 submissions, --jobs 2, jailed, median of {ROUNDS} interleaved: "
        f"this tree {mine:.2f}/s, {other} {theirs:.2f}/s, ratio {theirs / mine:.2f} "
        f"(rounds: {', '.join(f'{a:.2f}/{b:.2f}' for a, b in zip(*rates.values()))})"
    )


def main() -> None:
    plan = machine.probe()
    print(f"sandbox: {plan.describe()}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if not plan.jailed:
        print("skipped: no jail here")
        return
    size = int(sys.argv[sys.argv.index("--class") + 1]) if "--class" in sys.argv else 60
    if "--against" in sys.argv:
        bench_against(Path(sys.argv[sys.argv.index("--against") + 1]).resolve(), size)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return
    bench_grade_all(size)
    if "--grade-all" not in sys.argv:
        bench_grade()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
