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

A page also quotes what each backend *printed* for the same program: an error message, the
driver's log lines, a listing. A scenario keeps that text under a key starting with "_said"
(tests/conformance/scenarios/_said.py normalises pids, ids and addresses first); such keys are
shown, never compared, so Ray may word them differently from run to run. `compare(..., said=...)`
names them, and `Comparison.said_by(name)` gives real Ray's recorded words beside miniray's:

    view = compare("lesson02_quote_outage", rows, said=[("error", lambda o: o["default"]["_said_error"])])
    ray_words, miniray_words = view.said_by("error")

Real Ray's side always comes from the recording, so the page cannot drift from it; an empty or
missing recorded text stops the build.
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
# (name, observations -> the printed text to quote): read from "_said" keys, never compared.
Said = tuple[str, Callable[[dict], str]]


class RecordingError(RuntimeError):
    """No recording for a scenario, or miniray and the recording disagree on a row a page shows."""


@dataclass(frozen=True)
class Comparison:
    scenario: str
    ray_version: str
    rows: tuple[tuple[str, str, str], ...]  # (label, real Ray's words, miniray's words)
    said: tuple[tuple[str, str, str], ...] = ()  # (name, real Ray's printed text, miniray's)

    def ray(self, label: str) -> str:
        return next(r for lab, r, _ in self.rows if lab == label)

    def said_by(self, name: str) -> tuple[str, str]:
        """What real Ray printed (recorded) and what miniray prints (run now), line for line (the
        page's `fl-said` fence wraps a long line on a narrow screen)."""
        return next((r, m) for n, r, m in self.said if n == name)

    def table(self) -> str:
        head = f"| | real Ray {self.ray_version}, recorded | miniray |\n|---|---|---|\n"
        return head + "\n".join(f"| {label} | {ray} | {mini} |" for label, ray, mini in self.rows)


def compare(
    scenario: str, rows: Sequence[Row], ray_observations: dict | None = None, said: Sequence[Said] = ()
) -> Comparison:
    """Real Ray's recorded words for each row beside miniray's, checked equal; and the printed
    text each `said` entry names, real Ray's from the recording beside miniray's."""
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
    quoted = []
    for name, text in said:
        try:
            ray_text, mini_text = text(recorded), text(run.observations)
        except KeyError as missing:
            raise RecordingError(f"{scenario}: no {missing} to quote for {name!r}; re-record it") from None
        if not ray_text.strip():
            raise RecordingError(f"{scenario}: the recording has no text for {name!r} to quote; re-record it")
        quoted.append((name, ray_text, mini_text))
    version = recorded_file().get("ray", "2.60.0").rsplit(".", 1)[0]
    return Comparison(scenario, version, tuple(shown), tuple(quoted))
