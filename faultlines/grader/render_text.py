"""The report as plain text: a terminal, the CLI, a notebook without HTML. What a submission put
in it (an exception's message, a value's repr) is shown escaped (safe_text.visible): no ANSI
sequence, carriage return or lone surrogate reaches the terminal."""

from __future__ import annotations

from .report import Failure, Report
from .safe_text import visible

TIMELINE_LINES = 40  # the failing run's log is cut here; the replay call prints it whole


def failure_lines(failure: Failure, hint_levels: int = 1) -> list[str]:
    lines = [f"  broken invariant: {failure.invariant}", f"  what happened:    {failure.detail}"]
    if failure.nondeterminism:
        lines.append(f"  NONDETERMINISM:   {failure.nondeterminism}")
    schedule = "; ".join(failure.schedule) if failure.schedule else "(no faults)"
    shrunk = (
        f" (shrunk from {failure.shrunk_from} moves)" if failure.shrunk_from > len(failure.schedule) else ""
    )
    lines.append(f"  scenario:         {failure.scenario}, schedule: {schedule}{shrunk}")
    for move, words in zip(failure.schedule, failure.moves):
        lines.append(f"    {move}: {words}")
    if failure.hint is not None:
        label = "hint" if failure.hint.known else "about"
        for level, text in enumerate(failure.hint.levels[:hint_levels], start=1):
            lines.append(
                f"  {label} {level}/{len(failure.hint.levels)}:{' ' * 9 if label == 'hint' else ' ' * 8}{text}"
            )
    lines.append(f"  replay:           {failure.replay_call}")
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
