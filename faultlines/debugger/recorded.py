"""The reference solutions' runs on the public fixed schedules, recorded as events (data, not code).

"Compare with a passing run" needs a passing run. When the learner's code fails even with no
faults, there is none of theirs; for an exercise's public scenario tiers the reference's run
on the same schedule is recorded here instead, so no solution ships with the course, only what
it did. Regenerate after changing an exercise (a unit test fails until you do):

    python -m faultlines.debugger.recorded
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from miniray import sim

from .model import Model, fold, outcome_of

HERE = Path(__file__).resolve().parent / "recorded"


def path_for(exercise: str) -> Path:
    return HERE / f"{exercise}.json"


@cache
def _read(exercise: str) -> dict[str, Any] | None:
    path = path_for(exercise)
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def load(exercise: str, version: int, scenario: str, schedule: tuple[str, ...]) -> Model | None:
    data = _read(exercise)
    if data is None or data["version"] != version:
        return None  # recorded for another version of the exercise: it would compare other runs
    for run in data["runs"]:
        if run["scenario"] == scenario and tuple(run["schedule"]) == tuple(schedule):
            records = [
                sim.Record(index, time, kind, fields, step)
                for index, (time, step, kind, fields) in enumerate(run["records"])
            ]
            return fold(records, schedule, outcome=run["outcome"])
    return None


def record(exercise_id: str) -> dict[str, Any] | None:
    """The reference's run on each schedule of the exercise's public scenario tiers."""
    # The grader is imported here, not at the top: loading a recording (in the learner's lab)
    # needs none of it, and this module must not pull the grader in for that.
    from faultlines.grader import exercise, runner, submission

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
            done = runner.execute(ex, sub, scenario, tuple(schedule))
            records = [[r.time, r.step, r.kind, dict(r.fields)] for r in done.run.records]
            runs.append(
                {
                    "scenario": scenario,
                    "schedule": list(schedule),
                    "outcome": outcome_of(done.run.value, done.run.error),
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
    from faultlines.grader import exercise

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
