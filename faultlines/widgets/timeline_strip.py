"""Draw a miniray (or Ray) Chrome-trace timeline as a state strip: one row per task call.

`ray.timeline()` returns Chrome trace events; each task attempt is a complete event ("ph": "X")
with a start (`ts`) and a duration (`dur`) in microseconds. Perfetto draws one track per worker;
for a short lesson workload one row per call reads better, and it makes a straggler obvious.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import statestrip


def task_bars(events: Iterable[dict], names: tuple[str, ...] | None = None) -> list[statestrip.Row]:
    """One row per task attempt slice, in start order, labelled with its name and a counter."""
    slices = [e for e in events if e.get("ph") == "X" and (names is None or e.get("name") in names)]
    slices.sort(key=lambda e: (e["ts"], e.get("name", "")))
    counts: dict[str, int] = {}
    rows = []
    for e in slices:
        name = e["name"]
        counts[name] = counts.get(name, 0) + 1
        start = e["ts"] / 1e6
        rows.append(
            statestrip.Row(f"{name} {counts[name]}", [statestrip.Band(start, start + e["dur"] / 1e6, name)])
        )
    return rows


def strip_from_trace(
    events: Iterable[dict], title: str, names: tuple[str, ...] | None = None
) -> statestrip.Strip:
    rows = task_bars(events, names)
    return statestrip.Strip(title=title, xlabel="virtual time (s)", rows=rows, row_height=16)
