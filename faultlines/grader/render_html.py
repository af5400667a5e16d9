"""The report as HTML for a notebook's output (inline styles: no stylesheet reaches an iframe).

Its outer element carries what the course site records as progress (docs/javascripts/exercises.js
reads it from the lab's iframe; docs/design/progress-file.md is the format it ends up in): the
exercise, its version, the code's hash, the verdict, the submission's source and, when a run
failed, that failure's signature (invariant, schedule tokens, hint id, replay token).
"""

from __future__ import annotations

import json
from html import escape

from .report import Failure, Report

OK = "#1b7f3b"
BAD = "#b3261e"


def _failure(failure: Failure, share_url: str | None) -> str:
    parts = [
        f"<p><b>Broken invariant:</b> <code>{escape(failure.invariant)}</code><br>",
        f"<b>What happened:</b> {escape(failure.detail)}</p>",
    ]
    if failure.nondeterminism:
        parts.append(f'<p style="color:{BAD}"><b>Nondeterminism:</b> {escape(failure.nondeterminism)}</p>')
    schedule = "; ".join(failure.schedule) if failure.schedule else "(no faults)"
    parts.append(
        f"<p><b>Scenario</b> {escape(failure.scenario)}, <b>minimal schedule</b> <code>{escape(schedule)}</code></p>"
    )
    if failure.hint is not None:
        first, *more = failure.hint.levels
        parts.append(f"<p><b>Hint:</b> {escape(first)}</p>")
        for level, text in enumerate(more, start=2):
            parts.append(
                f"<details><summary>More help ({level}/{len(failure.hint.levels)})</summary>{escape(text)}</details>"
            )
    parts.append(f"<p><b>Replay:</b> <code>{escape(failure.replay_call)}</code></p>")
    if share_url:
        parts.append(
            f'<p><a href="{escape(share_url, quote=True)}" target="_blank">Share this failing run</a></p>'
        )
    timeline = "\n".join(failure.timeline)
    parts.append(
        f"<details open><summary>Timeline of the failing run ({len(failure.timeline)} events)</summary>"
        f'<pre style="max-height:18em;overflow:auto">{escape(timeline)}</pre></details>'
    )
    if failure.effects:
        parts.append(
            "<details><summary>Effects (external calls, by attempt)</summary>"
            f"<pre>{escape(chr(10).join(failure.effects))}</pre></details>"
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


def render(report: Report, share_url: str | None = None, source: str = "") -> str:
    if report.error:
        return f'<div class="fl-report" style="color:{BAD}"><b>Cannot grade:</b> {escape(report.error)}</div>'
    color = OK if report.passed else BAD
    verdict = "Passed" if report.passed else "Not yet"
    rows = []
    for tier in report.tiers:
        mark = "✔" if tier.passed else "✘"
        rows.append(
            f'<tr><td style="color:{OK if tier.passed else BAD}">{mark}</td><td>{escape(tier.name)}</td>'
            f"<td>{tier.earned:g}/{tier.points:g}</td><td>{tier.schedules}</td></tr>"
        )
    failure = report.first_failure
    body = _failure(failure, share_url) if failure is not None else ""
    return (
        f'<div class="fl-report fl-ex-{escape(report.exercise)} fl-v{report.version} '
        f'fl-{"passed" if report.passed else "failed"} fl-code-{escape(report.code_hash)}" '
        f'data-exercise="{escape(report.exercise)}" data-version="{report.version}" '
        f'data-passed="{str(report.passed).lower()}" data-code="{escape(report.code_hash)}"'
        f'{_signature(failure)} data-source="{escape(source)}">'
        f'<h4 style="color:{color}">{escape(report.exercise)}: {verdict} '
        f"({report.score:g}/{report.max_score:g} points)</h4>"
        "<table><tr><th></th><th>tier</th><th>points</th><th>schedules</th></tr>"
        + "".join(rows)
        + "</table>"
        + body
        + "</div>"
    )
