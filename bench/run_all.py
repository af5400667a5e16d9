"""Run every benchmark and keep its output in bench/out/ (`make bench` calls this).

Each benchmark prints its own baseline and ratio from the same run; nothing
here compares against stored numbers. Benchmarks that need something absent
(real Ray: RAY_PYTHON; Pyodide: node_modules) are reported as skipped.
"""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = BENCH / "out"

# (script, what it needs, why it would be skipped)
BENCHMARKS = [
    ("kernel_vs_simpy.py", None, None),
    (
        "sim_events.py",
        lambda: (REPO / "node_modules" / "pyodide" / "pyodide.mjs").exists() and shutil.which("node"),
        "needs node and node_modules/pyodide (make node-deps)",
    ),
    (
        "conformance_wall.py",
        lambda: os.environ.get("RAY_PYTHON"),
        "needs RAY_PYTHON (make bench sets it; make ray-venv builds it)",
    ),
    ("replay_cost.py", None, None),
    ("pg_starvation.py", None, None),
    ("grader_check.py", None, None),
    ("traceback_cache.py", None, None),
    ("sandbox_grade.py", None, None),  # prints its own "skipped" where no jail can be made
    ("debugger_cost.py", None, None),
]


def main():
    OUT.mkdir(exist_ok=True)
    failed = []
    for script, available, why in BENCHMARKS:
        if not (BENCH / script).exists():
            continue
        print(f"=== {script}", flush=True)
        if available is not None and not available():
            print(f"skipped: {why}\n", flush=True)
            continue
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, str(BENCH / script)], cwd=REPO, capture_output=True, text=True)
        text = proc.stdout + (proc.stderr if proc.returncode else "")
        (OUT / (Path(script).stem + ".txt")).write_text(text)
        print(text.rstrip())
        print(f"({time.perf_counter() - start:.1f} s wall)\n", flush=True)
        if proc.returncode:
            failed.append(script)
    if failed:
        print("failed: " + ", ".join(failed))
        return 1
    print(f"outputs kept in {OUT.relative_to(REPO)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
