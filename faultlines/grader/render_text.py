"""The report as plain text: a terminal, the CLI, a notebook without HTML. What a submission put
in it (an exception's message, a value's repr) is shown escaped (safe_text.visible): no ANSI
sequence, carriage return or lone surrogate reaches the terminal."""

from __future__ import annotations

import re

from .report import Failure, Hint, Report
from .safe_text import visible

TIMELINE_LINES = 40  # the failing run's log is cut here; the replay call prints it whole
_BACKTICKS = re.compile(r"`([^`]+)`")


def plain(text: str) -> str:
    """Hints and details as written (`backticks` mark code, which HTML shows as code), for text."""
    return _BACKTICKS.sub(r"\1", text)


def _field(label: str, text: str) -> str:
    return f"  {label:<17} {text}"


def _hint_lines(hint: Hint, hint_levels: int) -> list[str]:
    """A catalogued mistake's hint is numbered by level; when no mistake matched, what the
    broken check means comes instead, under its own label."""
    lines = []
    for level, text in enumerate(hint.levels[:hint_levels], start=1):
        count = f"{level}/{len(hint.levels)}"
        label = f"hint {count}:" if hint.known else "explanation:" if level == 1 else f"more {count}:"
        lines.append(_field(label, plain(text)))
    return lines


def failure_lines(failure: Failure, hint_levels: int = 1) -> list[str]:
    lines = [_field("broken invariant:", failure.invariant), _field("what happened:", plain(failure.detail))]
    schedule = "; ".join(failure.schedule) if failure.schedule else "(as written: no fault injected)"
    shrunk = (
        f" (shrunk from {failure.shrunk_from} moves)" if failure.shrunk_from > len(failure.schedule) else ""
    )
    lines.append(_field("scenario:", f"{failure.scenario}, schedule: {schedule}{shrunk}"))
    for move, words in zip(failure.schedule, failure.moves):
        lines.append(f"    {move}: {plain(words)}")
    if failure.hint is not None:
        lines += _hint_lines(failure.hint, hint_levels)
    lines.append(_field("replay:", failure.replay_call))
    lines.append("  timeline of the failing run:")
    shown = failure.timeline[:TIMELINE_LINES]
    lines += [f"    {line}" for line in shown]
    if len(failure.timeline) > len(shown):
        lines.append(f"    ... {len(failure.timeline) - len(shown)} more lines (replay it to see them all)")
    if failure.effects and len(failure.timeline) > len(shown):  # else the timeline shows them
        lines.append("  effects (external calls, by attempt):")
        lines += [f"    {line}" for line in failure.effects]
    return lines


def render(report: Report, hint_levels: int = 1) -> str:
    return visible(_render(report, hint_levels))


def _render(report: Report, hint_levels: int) -> str:
    if report.error:
        return f"{report.exercise}: cannot grade: {report.error}"
    verdict = "PASSED" if report.passed else "NOT YET"
    out = [
        f"{report.exercise} (v{report.version}) {report.title}: {verdict}, "
        f"{report.score:g}/{report.max_score:g} points, {report.schedules} schedules run"
    ]
    shown: set[str] = set()
    for tier in report.tiers:
        mark = "ok  " if tier.passed else "FAIL"
        hidden = " [hidden]" if tier.hidden else ""
        out.append(
            f"[{mark}] {tier.name}{hidden}: {tier.earned:g}/{tier.points:g} ({tier.schedules} schedules)"
        )
        if tier.failure is not None and tier.failure.token in shown:
            out.append(f"  {tier.failure.invariant}: the same failing run as above")
        elif tier.failure is not None:
            shown.add(tier.failure.token)
            out += failure_lines(tier.failure, hint_levels)
    return "\n".join(out)
