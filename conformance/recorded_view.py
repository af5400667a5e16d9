"""A lesson's story as real Ray 2.60 recorded it, beside miniray: the table a page prints.

A lesson whose opening story Ray can run has a conformance scenario (tests/conformance/
scenarios/lessonNN_*.py). Its numbers module names the rows it wants to show, each a label and a
function from a scenario's observations to the words the page prints:

    view = compare("lesson02_quote_outage", [("attempts", lambda o: str(o["default"]["attempts"]))])
    view.table()   # a Markdown table: the row, real Ray (recorded), miniray (run now)

The Ray column is read from recorded/ray-2.60.0.json; the miniray column runs the same scenario
on miniray now, in a fresh process. If the two disagree on a row the page would print, or the
scenario has no recording, `compare` raises: a page cannot state a Ray behaviour its recording
contradicts.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from conformance.observations import load_recorded, recorded_file
from conformance.scenario_runs import run_scenario

# (label, words) rows must agree; (label, words, False) rows are shown side by side even when the
# backends differ (a count that depends on real Ray's timing), so the page can say so.
Row = tuple[str, Callable[[dict], str]] | tuple[str, Callable[[dict], str], bool]


class RecordingError(RuntimeError):
    """No recording for a scenario, or miniray and the recording disagree on a row a page shows."""


@dataclass(frozen=True)
class Comparison:
    scenario: str
    ray_version: str
    rows: tuple[tuple[str, str, str], ...]  # (label, real Ray's words, miniray's words)

    def ray(self, label: str) -> str:
        return next(r for lab, r, _ in self.rows if lab == label)

    def table(self) -> str:
        head = f"| | real Ray {self.ray_version}, recorded | miniray |\n|---|---|---|\n"
        return head + "\n".join(f"| {label} | {ray} | {mini} |" for label, ray, mini in self.rows)


def compare(scenario: str, rows: Sequence[Row], ray_observations: dict | None = None) -> Comparison:
    """Real Ray's recorded words for each row beside miniray's, checked equal."""
    recorded = ray_observations if ray_observations is not None else load_recorded().get(scenario)
    if recorded is None:
        raise RecordingError(
            f"no recording of {scenario}: RAY_PYTHON=.venv-ray/bin/python .venv/bin/python "
            f"tests/conformance/record.py {scenario}"
        )
    with tempfile.TemporaryDirectory(prefix=f"{scenario}-") as workdir:
        run = run_scenario(sys.executable, "miniray", scenario, workdir)
    if run.observations is None:
        raise RecordingError(f"{scenario} failed on miniray ({run.command}):\n{run.output}")
    shown = []
    for row in rows:
        label, words, must_agree = row[0], row[1], (row[2] if len(row) > 2 else True)
        ray_words, mini_words = words(recorded), words(run.observations)
        if must_agree and ray_words != mini_words:
            raise RecordingError(
                f"{scenario}: real Ray recorded {ray_words!r} for {label!r}, miniray gives {mini_words!r}; "
                f"a page may not print a Ray behaviour its recording contradicts"
            )
        shown.append((label, ray_words, mini_words))
    version = recorded_file().get("ray", "2.60.0").rsplit(".", 1)[0]
    return Comparison(scenario, version, tuple(shown))
