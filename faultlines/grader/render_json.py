"""The report as JSON (the CLI's --json) and as a Gradescope results.json."""

from __future__ import annotations

import json
from typing import Any

from .render_text import failure_lines
from .report import Report


def render(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=1, sort_keys=True)


def gradescope(report: Report) -> dict[str, Any]:
    """Gradescope's autograder format: one test per tier, partial credit by tier."""
    if report.error:
        return {"score": 0.0, "output": f"Cannot grade: {report.error}", "tests": []}
    tests = []
    for tier in report.tiers:
        output = (
            "passed" if tier.passed else "\n".join(failure_lines(tier.failure)) if tier.failure else "failed"
        )
        tests.append(
            {
                "name": tier.name,
                "score": tier.earned,
                "max_score": tier.points,
                "status": "passed" if tier.passed else "failed",
                "output": output,
                "visibility": "after_published" if tier.hidden else "visible",
            }
        )
    return {"score": report.score, "tests": tests, "visibility": "visible"}
