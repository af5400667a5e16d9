"""What the class map costs: `grade-all all CLASS --report OUT` against plain `grade-all all CLASS`,
on a made-up class of about 200 submissions (faultlines/classmap/variants.py: the catalogued wrong
solutions and the right ones of three exercises, with harmless variations), in the same run.

The two commands alternate (plain, report, report, plain) so a change in the machine's load
falls on both alike; each time is printed beside the load average when it started. The ratio is
of the sums; the issue asks for at most 1.2. The run also prints the grouping the report found:
how many failures land in named groups, and how many groups there are.

    python bench/class_map.py                 # 70 students x fault00, fault02, fault05 = 210
    python bench/class_map.py --students 20   # a quicker look
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from faultlines.classmap import variants  # noqa: E402

EXERCISES = ["fault00", "fault02", "fault05"]


def grade_all(folder: Path, out: Path, report: Path | None, extra: list[str]) -> float:
    command = [sys.executable, "-m", "faultlines", "grade-all", "all", str(folder), "--out", str(out), *extra]
    if report is not None:
        command += ["--report", str(report)]
    start = time.perf_counter()  # the host's clock, around a whole command
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"grade-all failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return took


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--students", type=int, default=70)
    p.add_argument("--unsafe-local", action="store_true", help="grade in-process (no sandbox)")
    args = p.parse_args()
    extra = ["--unsafe-local"] if args.unsafe_local else []
    with tempfile.TemporaryDirectory(prefix="class-map-bench-") as tmp:
        root = Path(tmp)
        made = variants.make_class(root / "class", EXERCISES, args.students)
        print(
            f"class: {len(made)} submissions ({args.students} students x {', '.join(EXERCISES)}), {os.cpu_count()} cores"
        )
        times: dict[str, list[float]] = {"plain": [], "report": []}
        for i, kind in enumerate(["plain", "report", "report", "plain"]):
            load = os.getloadavg()[0]
            report = root / f"map{i}" if kind == "report" else None
            took = grade_all(root / "class", root / f"graded{i}", report, extra)
            times[kind].append(took)
            print(
                f"  grade-all all{' --report' if report else '         '}  {took:7.1f} s   (load average {load:.1f})"
            )
        plain, mapped = sum(times["plain"]), sum(times["report"])
        print(f"ratio --report / plain: {mapped / plain:.2f} (sums of two runs each; at most 1.2 asked)")
        with open(root / "map1/groups.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
        failures = sum(int(r["count"]) for r in rows)
        named = sum(int(r["count"]) for r in rows if r["hint"])
        print(
            f"grouping: {named} of {failures} failures in named groups ({named / max(failures, 1):.0%}), "
            f"{len(rows)} groups ({sum(1 for r in rows if r['hint'])} named)"
        )


if __name__ == "__main__":
    main()
