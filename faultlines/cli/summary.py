"""grade-all's files, written from the rows: OUT/summary.csv and OUT/<key>/results.json.

Each student's Gradescope file sits under its key, so `alice.py` and `alice/solution.py` get
OUT/alice.py/results.json and OUT/alice/solution.py/results.json, never one over the other.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from faultlines.grader import render_json
from faultlines.grader.safe_text import visible

from .classroom import StudentResult

COLUMNS = ["submission", "score", "max_score", "passed", "status", "first_failure"]


def write_csv(results: list[StudentResult], path: Path) -> None:
    """Every row, whatever a submission's text holds: each cell shown escaped (safe_text), and a
    character UTF-8 cannot write escaped too, never an error that loses the rows after it."""
    with open(path, "w", newline="", encoding="utf-8", errors="backslashreplace") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for r in results:
            writer.writerow(
                [
                    visible(r.key),
                    f"{r.report.score:g}",
                    f"{r.report.max_score:g}",
                    r.passed,
                    r.status,
                    visible(r.first_failure),
                ]
            )


def write_gradescope(results: list[StudentResult], out: Path) -> None:
    for r in results:
        target = out / r.key.rstrip("/")
        target.mkdir(parents=True, exist_ok=True)
        data = render_json.gradescope(r.report)
        if r.message and not r.report.error:
            data = {"score": 0.0, "output": f"Cannot grade: {r.message}", "tests": []}
        (target / "results.json").write_text(json.dumps(data, indent=1))
