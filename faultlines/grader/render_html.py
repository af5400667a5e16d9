"""The report as HTML for a notebook's output (inline styles: no stylesheet reaches an iframe).

Its outer element carries what the course site records as progress (docs/javascripts/exercises.js
reads it from the lab's iframe; docs/design/progress-file.md is the format it ends up in): the
exercise, its version, the code's hash, the verdict, the submission's source and, when a run
failed, that failure's signature (invariant, schedule tokens, hint id, replay token).

Readable on a phone (390 px) as well as a desktop: nothing scrolls inside the output (a notebook
output already scrolls), the timeline wraps at spaces so an identifier is never split, and the
replay line may break anywhere (a token has no spaces) rather than run off the edge.
"""

from __future__ import annotations

import json
import re
from html import escape

from .report import Failure, Report
from .safe_text import visible

OK = "#1b7f3b"
BAD = "#b3261e"
# A timeline line wraps at spaces only, its continuation indented past the time; a replay token
# (one long word) wraps anywhere.
WRAP_WORDS = "white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow:visible;max-height:none"
WRAP_ANYWHERE = "white-space:normal;word-break:break-all;overflow-wrap:anywhere"
_LINE = "padding-left:10ch;text-indent:-10ch"
_BACKTICKS = re.compile(r"`([^`]+)`")
# JupyterLab right-aligns every cell of an output's table (.jp-RenderedHTMLCommon td): a tier's
# name reads from the left, its numbers line up on the right.
_TEXT_CELL = "text-align:left"
_NUMBER_CELL = "text-align:right"


def inline(text: str) -> str:
    """Escaped text with `backticks` shown as code, as the hints and details are written."""
    return _BACKTICKS.sub(lambda m: f"<code>{m.group(1)}</code>", escape(visible(text)))


def timeline(lines: list[str]) -> str:
    """A run's log lines, one block each, so a long line wraps under its own text, not the time."""
    rows = "".join(f'<div style="{_LINE}">{escape(visible(line))}</div>' for line in lines)
    return f'<div class="fl-timeline" style="font-family:var(--jp-code-font-family,monospace);{WRAP_WORDS}">{rows}</div>'


def _hint(failure: Failure) -> list[str]:
    if failure.hint is None:
        return []
    first, *more = failure.hint.levels
    label = "Hint" if failure.hint.known else "No known mistake matches"
    parts = [f'<p class="fl-hint fl-hint-{escape(failure.hint.id)}"><b>{label}:</b> {inline(first)}</p>']
    for level, text in enumerate(more, start=2):
        parts.append(
            f"<details><summary>More help ({level}/{len(failure.hint.levels)})</summary>"
            f"<p>{inline(text)}</p></details>"
        )
    return parts


def _failure(failure: Failure, share_url: str | None) -> str:
    parts = [
        f"<p><b>Broken invariant:</b> <code>{escape(failure.invariant)}</code><br>",
        f"<b>What happened:</b> {inline(failure.detail)}</p>",
    ]
    if failure.schedule:
        moves = "".join(
            f"<li><code>{escape(move)}</code>: {inline(words)}</li>"
            for move, words in zip(failure.schedule, failure.moves or [""] * len(failure.schedule))
        )
        parts.append(
            f"<p><b>Scenario</b> {escape(failure.scenario)}, <b>minimal schedule:</b></p>"
            f'<ul class="fl-moves">{moves}</ul>'
        )
    else:
        # No fault injected: the scenario's own events (fault09's node loss) still happen.
        parts.append(f"<p><b>Scenario</b> {escape(failure.scenario)}, as written: no fault injected</p>")
    parts += _hint(failure)
    parts.append(
        f'<p class="fl-replay-call"><b>Replay:</b> <code style="{WRAP_ANYWHERE}">'
        f"{escape(failure.replay_call)}</code></p>"
    )
    if share_url:
        parts.append(
            f'<p><a class="fl-share" href="{escape(share_url, quote=True)}" target="_blank" '
            'rel="noopener">Share this failing run</a> (opens the replay page in a new tab)</p>'
        )
    parts.append(
        f"<details open><summary>Timeline of the failing run ({len(failure.timeline)} events)</summary>"
        f"{timeline(failure.timeline)}</details>"
    )
    if failure.effects:
        parts.append(
            "<details><summary>Effects (external calls, by attempt)</summary>"
            f'<pre style="{WRAP_WORDS}">{escape(visible(chr(10).join(failure.effects)))}</pre></details>'
        )
    return "".join(parts)


def _signature(failure: Failure | None) -> str:
    """The first failure's signature as data attributes: what groups learners stuck alike."""
    if failure is None:
        return ""
    schedule = json.dumps(failure.schedule, separators=(",", ":"))
    hint = failure.hint.id if failure.hint is not None else ""
    return (
        f' data-invariant="{escape(failure.invariant)}" data-schedule="{escape(schedule)}"'
        f' data-hint="{escape(hint)}" data-token="{escape(failure.token)}"'
    )


def render(report: Report, share_url: str | None = None, source: str = "", note: str = "") -> str:
    if report.error:
        return f'<div class="fl-report" style="color:{BAD}"><b>Cannot grade:</b> {escape(visible(report.error))}</div>'
    color = OK if report.passed else BAD
    verdict = "Passed" if report.passed else "Not yet"
    rows = []
    for tier in report.tiers:
        mark = "✔" if tier.passed else "✘"
        rows.append(
            f'<tr><td style="color:{OK if tier.passed else BAD}">{mark}</td>'
            f'<td style="{_TEXT_CELL}">{escape(tier.name)}</td>'
            f'<td style="{_NUMBER_CELL}">{tier.earned:g}/{tier.points:g}</td>'
            f'<td style="{_NUMBER_CELL}">{tier.schedules}</td></tr>'
        )
    failure = report.first_failure
    body = _failure(failure, share_url) if failure is not None else ""
    signature = ""
    if failure is not None:  # the failure's signature, for whatever groups a class's failures
        data = json.dumps(failure.signature(report.version), sort_keys=True)
        signature = f' data-signature="{escape(data, quote=True)}"'
    return (
        f'<div class="fl-report fl-ex-{escape(report.exercise)} fl-v{report.version} '
        f'fl-{"passed" if report.passed else "failed"} fl-code-{escape(report.code_hash)}" '
        f'data-exercise="{escape(report.exercise)}" data-version="{report.version}" '
        f'data-passed="{str(report.passed).lower()}" data-code="{escape(report.code_hash)}"{signature}'
        f'{_signature(failure)} data-source="{escape(source)}">'
        f'<h4 style="color:{color}">{escape(report.exercise)}: {verdict} '
        f"({report.score:g}/{report.max_score:g} points)</h4>"
        f'<table class="fl-tiers"><tr><th></th><th style="{_TEXT_CELL}">tier</th>'
        f'<th style="{_NUMBER_CELL}">points</th><th style="{_NUMBER_CELL}">schedules</th></tr>'
        + "".join(rows)
        + "</table>"
        + (f'<p class="fl-report__note"><small>{escape(note)}</small></p>' if note else "")
        + body
        + "</div>"
    )
