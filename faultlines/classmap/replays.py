"""OUT/replays/<number>.html: each group's failing run, one offline page per group.

The page is the debugger's (`python -m faultlines replay TOKEN SUBMISSION --html FILE`), made by
running that command on the group's example submission: it replays the run the way `replay`
always does, so the student's code runs where `replay` runs it. When that cannot make a page (no
debugger in this faultlines, a submission that no longer loads), the group still gets a page:
the failing run as the grader reported it (its moves, timeline and effects, with the replay
command), written from the report alone.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from html import escape
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

from faultlines.grader.render_html import inline

from .groups import ClassMap, Group

DEBUGGER, FROM_REPORT = "debugger", "report"
PAGE_SECONDS = 600  # a replay is one run and a few variants; past this it is stuck


def has_debugger() -> bool:
    return find_spec("faultlines.debugger") is not None


def command(group: Group, target: Path, extra: Sequence[str] = ()) -> list[str]:
    path = group.example.path
    assert path is not None
    return [
        sys.executable,
        "-m",
        "faultlines",
        "replay",
        group.failure.token,
        str(path),
        "--html",
        str(target),
        *extra,
    ]


def from_report(group: Group, why: str = "") -> str:
    """The failing run as the grader reported it: a page written without running anything."""
    failure, sig = group.failure, group.signature
    css = resources.files(__package__).joinpath("report.css").read_text(encoding="utf-8")
    moves = "".join(
        f"<li><code>{escape(m)}</code>{': ' + inline(w) if w else ''}</li>"
        for m, w in zip(failure.schedule, failure.moves + [""] * len(failure.schedule))
    )
    timeline = "\n".join(failure.timeline)
    effects = "\n".join(failure.effects)
    title = f"{sig.exercise}, group #{group.number}: {sig.invariant}"
    note = f'<p class="note">{escape(why)}</p>' if why else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{css}</style></head><body><main>"
        f"<h1>{escape(title)}</h1>{note}"
        f"<p>The failing run of <code>{escape(group.example.key)}</code>, scenario "
        f"<code>{escape(failure.scenario)}</code>: {inline(failure.detail)}</p>"
        f"<h2>Schedule</h2><ul>{moves or '<li>no fault: the run fails as it is</li>'}</ul>"
        f"<h2>Replay it</h2><pre><code>{escape(failure.replay_call)}</code></pre>"
        f"<h2>Timeline</h2><pre><code>{escape(timeline)}</code></pre>"
        + (f"<h2>Effects</h2><pre><code>{escape(effects)}</code></pre>" if effects else "")
        + "</main></body></html>\n"
    )


def _one(group: Group, folder: Path, extra: Sequence[str], debugger: bool) -> str:
    target = folder / f"{group.number}.html"
    why = "This page shows the run as the grader reported it: this faultlines has no debugger."
    if debugger and group.example.path is not None:
        try:
            done = subprocess.run(
                command(group, target, extra), capture_output=True, text=True, timeout=PAGE_SECONDS
            )
        except subprocess.TimeoutExpired:
            done = None
        if done is not None and target.is_file() and done.returncode in (0, 1):
            return DEBUGGER
        last = (done.stderr.strip().splitlines() or [""])[-1] if done is not None else "it ran too long"
        why = f"The debugger could not replay this run ({last[:200]}); here it is as the grader reported it."
    target.write_text(from_report(group, why), encoding="utf-8")
    return FROM_REPORT


def write(cmap: ClassMap, out: Path, jobs: int = 1, extra: Sequence[str] = ()) -> dict[int, str]:
    """One page per group in OUT/replays/, `jobs` at a time; how each was made, by group number.
    `extra`: arguments `replay` needs as `grade-all` got them (its isolation)."""
    folder = out / "replays"
    folder.mkdir(parents=True, exist_ok=True)
    debugger = has_debugger()
    groups = cmap.groups
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        made = list(pool.map(lambda g: _one(g, folder, extra, debugger), groups))
    return {g.number: how for g, how in zip(groups, made)}
