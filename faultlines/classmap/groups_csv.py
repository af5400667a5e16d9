"""OUT/groups.csv: one row per mistake group, largest first.

    exercise,invariant,schedule,hint,count,submissions
    fault05,charged-at-most-once,crash process_order#1/1 after api.charge,retry-repeats-the-charge,23,alice.py;bob.py

`schedule` is the canonical schedule's moves joined by "; " (empty: the run fails with no fault),
`hint` the catalogued hint's id (empty: no catalogued mistake explains it), `submissions` the
members' keys (paths relative to the class folder), sorted, joined by ";". Ties in count keep the
report's order. Claims from progress files that could not be regraded are not groups: they are
in the report only, marked unverified.
"""

from __future__ import annotations

import csv
from pathlib import Path

from faultlines.grader.safe_text import visible

from .groups import ClassMap

HEADER = ["exercise", "invariant", "schedule", "hint", "count", "submissions"]


def rows(cmap: ClassMap) -> list[list[str]]:
    ordered = sorted(cmap.groups, key=lambda g: (-g.count, g.number))
    return [
        [
            g.signature.exercise,
            g.signature.invariant,
            g.signature.schedule_text,
            g.signature.hint,
            str(g.count),
            ";".join(sorted(g.keys)),
        ]
        for g in ordered
    ]


def write(cmap: ClassMap, path: Path) -> None:
    # A key (a file name) or a message may hold what UTF-8 cannot write: escaped, never an error.
    with open(path, "w", newline="", encoding="utf-8", errors="backslashreplace") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows([[visible(cell) for cell in row] for row in rows(cmap)])
