"""Numbers and blocks for lesson 14's page: the story's reads before and after a rebuild, with
the clock's seed and the table read as it is now, then with both passed as arguments; what Ray
2.60 did with the same program, and with a generator retried after a crash."""

from __future__ import annotations

import functools
import inspect
import textwrap

from conformance.recorded_view import compare
from faultlines.reading import Kind, Reading
from faultlines.stories import replays as story
from faultlines.timeline import observe

# The story's log on the page: the node's death, the two rebuilds and the attempts that made them.
SHOWN = (Kind.NODE_DIED, Kind.TASK_RECONSTRUCT)
REBUILT = ("sample#1/2", "rows#1/2")

# Lesson 14's story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson14_replays.py).
RAY_ROWS = [
    ("draws seeded by the clock, rebuilt", lambda o: o["clock_draws_rebuilt"]),
    ("draws seeded by an argument, rebuilt", lambda o: o["seeded_draws_rebuilt"]),
    (
        "the unkeyed stream's last row, after a re-run one row longer",
        lambda o: f"`{o['unkeyed_last_row_after']['class']}`" if o["unkeyed_last_row_after"] else "its value",
    ),
    ("the keyed stream's rows, after its re-run", lambda o: ", ".join(o["keyed_rows_after"])),
]
SAID = [("error", lambda o: o["_said_error"])]

# A generator retried after a crash (tests/conformance/scenarios/generator_replay.py): its first
# attempt, set to yield 2 items, dies after the first; the retry yields 4.
CRASH_ROWS = [
    ("items the driver read", lambda o: str(len(o["crashed_more"]["values"]))),
    ("any error", lambda o: "none" if all("value" in v for v in o["crashed_more"]["values"]) else "yes"),
    ("runs of the generator", lambda o: str(o["crashed_more"]["runs"])),
]


def _log(reading: Reading) -> str:
    shown = {r.index for r in reading.of(*SHOWN)}
    shown |= {r.index for r in reading.records if r.fields.get("attempt") in REBUILT}
    return textwrap.dedent("\n".join(r.line() for r in reading.records if r.index in shown))


def _rows(values: list[str]) -> str:
    return ", ".join(v.replace("RayTaskError(", "`").replace(")", "`") if "Error" in v else v for v in values)


def numbers() -> dict[str, str]:
    plain = observe(story.replays)
    fixed = observe(functools.partial(story.replays, seed=7, snapshot=True)).run.value
    edited = observe(functools.partial(story.replays, change="edit")).run.value
    deleted = observe(functools.partial(story.replays, change="delete")).run.value
    first, again = plain.run.value["first"], plain.run.value["again"]
    view = compare("lesson14_replays", RAY_ROWS, said=SAID)
    ray_says, miniray_says = view.said_by("error")
    crashed = compare("generator_replay", CRASH_ROWS)
    return {
        "story_code": inspect.getsource(story.replays),
        "big_kb": f"{story.BIG / 1000:g}",
        "first_draws": ", ".join(map(str, first["draws"])),
        "again_draws": ", ".join(map(str, again["draws"])),
        "first_rows": ", ".join(first["rows"]),
        "again_rows": _rows(again["rows"]),
        "fixed_draws": ", ".join(map(str, fixed["again"]["draws"])),
        "fixed_rows": ", ".join(fixed["again"]["rows"]),
        "edit_rows": ", ".join(edited["again"]["rows"]),
        "delete_rows": _rows(deleted["again"]["rows"]),
        "rebuild_log": _log(Reading.of_run(plain.run)),
        "ray_table": view.table(),
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "crash_table": crashed.table(),
        "crash_items": crashed.ray("items the driver read"),
    }


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
