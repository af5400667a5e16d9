"""The reference solutions' runs on the public fixed schedules, recorded as events (data, not code).

"Compare with a passing run" needs a passing run. When the learner's code fails even with no
faults, there is none of theirs; for an exercise's public scenario tiers the reference's run
on the same schedule is recorded here instead, so no solution ships with the course, only what
it did. record.py writes these files; regenerate them after changing an exercise (a unit test
fails until you do):

    python -m faultlines.debugger.record
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from faultlines.reading import Reading
from miniray import sim

from .model import Model, of_reading

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
            return of_reading(Reading(records, schedule), run["outcome"])
    return None
