"""Record the reference solutions' runs on each exercise's public fixed schedules, as events
(recorded.py reads them): `python -m faultlines.debugger.record`. Run it from a checkout, where
the references are; the files it writes ship, the references do not.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from faultlines.grader import exercise, runner, submission

from .recorded import HERE, path_for
from .session import judged


def record(exercise_id: str) -> dict[str, Any] | None:
    """The reference's run on each schedule of the exercise's public scenario tiers."""
    ex = exercise.load(exercise_id)
    if not ex.reference_path.is_file():
        return None
    sub = submission.from_file(ex.reference_path, ex.entry, ex.line_budget)
    runs = []
    seen = set()
    for tier in ex.tiers:
        if tier.kind != "scenarios" or tier.hidden:
            continue
        for scenario, schedule in tier.runs:
            if (scenario, schedule) in seen:
                continue
            seen.add((scenario, schedule))
            done = runner.run_schedule(ex, sub, scenario, tuple(schedule))
            if not done.records:
                continue  # a course model's check, with no cluster: nothing to step through
            records = [[r.time, r.step, r.kind, dict(r.fields)] for r in done.records]
            runs.append(
                {
                    "scenario": scenario,
                    "schedule": list(schedule),
                    "outcome": judged(done.violations),
                    "records": records,
                }
            )
    return {"exercise": ex.id, "version": ex.version, "runs": runs}


def dumps(data: dict[str, Any]) -> str:
    # One run per line: a diff of a regenerated file shows which run changed.
    head = json.dumps({k: v for k, v in data.items() if k != "runs"}, sort_keys=True)[:-1]
    runs = ",\n".join(json.dumps(run, separators=(",", ":"), default=str) for run in data["runs"])
    return f'{head}, "runs": [\n{runs}\n]}}\n'


def main() -> int:
    HERE.mkdir(exist_ok=True)
    for exercise_id in exercise.exercise_ids():
        data = record(exercise_id)
        if data is None or not data["runs"]:
            continue
        path_for(exercise_id).write_text(dumps(data), encoding="utf-8")
        print(f"{path_for(exercise_id).relative_to(Path.cwd())}: {len(data['runs'])} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
