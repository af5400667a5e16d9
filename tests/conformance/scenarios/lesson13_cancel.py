"""Lesson 13's story on both backends: a long export task writes one row file every 0.2 s, and
its caller cancels it part-way, once with `ray.cancel(ref)` and once with `force=True`.

Each row is its own file, written whole, so a body miniray re-runs from its journal writes the
same files again and the count stays the rows the task reached. Observed: what `ray.get` raises
(a RayTaskError(TaskCancelledError) for the interrupted task, a plain TaskCancelledError for the
forced one), that some rows were written and not all (the effect is left half-done), and that
no row appears after the cancel (a cancelled task is never retried, though `max_retries=3`).
Shown, not compared: the error's words, and whether the task's `finally` block ran. Also shown
only, for the interrupted task (`ray.cancel(ref)`, no force), what `ray.get` raised and whether
the effect was left half-done: Ray 2.60 did not interrupt this export at all (it wrote all its
rows and `ray.get` returned, twice in two recordings) where miniray stops it at the cancel, a
difference lesson 13's "Where real Ray differs" and docs/reference/miniray.md state.
"""

import os
import time

from _observe import describe_error, get_or_error
from _said import error

# Real Ray needs about half a minute for it (two cancels, waits for rows that never come):
# checked against the recording (record.py), not live.
LIVE_ON_RAY = False
ROWS = 40


def run(ray, cluster_utils, workdir):
    ray.init(num_cpus=1)
    try:
        return {**_cancel(ray, workdir, "interrupted", False), **_cancel(ray, workdir, "forced", True)}
    finally:
        ray.shutdown()


def _rows(folder):
    return len([name for name in os.listdir(folder) if name.startswith("row_")])


def _cancel(ray, workdir, name, force):
    folder = os.path.join(workdir, name)
    os.makedirs(folder)

    @ray.remote  # max_retries=3 by default
    def export_rows(folder, rows):
        try:
            for i in range(rows):
                for _ in range(2):  # 0.2 s a row, in steps Ray's cancel can interrupt between
                    time.sleep(0.1)
                with open(os.path.join(folder, f"row_{i:03d}"), "w") as f:
                    f.write(f"row {i}\n")
            return rows
        finally:
            with open(os.path.join(folder, "cleanup"), "w") as f:
                f.write("the finally block ran\n")

    ref = export_rows.remote(folder, ROWS)
    deadline = time.time() + 60
    while _rows(folder) < 3 and time.time() < deadline:  # it is running, and has written rows
        time.sleep(0.05)
    ray.cancel(ref, force=force)
    _, exc = get_or_error(ray, ref)
    at_cancel = _rows(folder)
    time.sleep(3.0)  # a retry, if there were one, would write rows meanwhile
    later = _rows(folder)
    shown = "_" if not force else ""  # the interrupted task's outcome: shown only (the docstring)
    return {
        f"{shown}{name}_error": describe_error(ray, exc),
        f"{shown}{name}_half_done": 0 < at_cancel < ROWS,
        f"{name}_no_row_after_cancel": later == at_cancel,
        f"_{name}_rows": at_cancel,
        f"_said_{name}": error(exc) if exc is not None else "",
        f"_{name}_cleanup_ran": os.path.exists(os.path.join(folder, "cleanup")),
    }
