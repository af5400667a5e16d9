"""OUT/report.html: the class map as one page that needs nothing else (styles inlined, no script,
no request to anywhere). Each group links to OUT/replays/<number>.html, its failing run.

Top to bottom: what the class handed in; per exercise, each tier's and each invariant's failure
rate, the mistake groups a catalogued hint explains, the unexplained ones (each with a stub for a
new catalogue entry: group_html.py), what could not be graded or regraded; then one row per
student. Tables have captions and header cells; wide ones scroll in a focusable region.
"""

from __future__ import annotations

from html import escape
from importlib import resources

from faultlines.grader.render_html import inline

from . import group_html
from .groups import ClassMap, ExerciseMap, Rate
from .handin import UNVERIFIED, Handin


def _css() -> str:
    return resources.files(__package__).joinpath("report.css").read_text(encoding="utf-8")


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def _scroll(label_id: str, table: str) -> str:
    return f'<div class="scroll" role="region" aria-labelledby="{label_id}" tabindex="0">{table}</div>'


def _rates(ex: ExerciseMap, rates: list[Rate], what: str, kind: str) -> str:
    caption_id = f"{ex.exercise}-{kind}"
    rows = "".join(
        f'<tr><th scope="row">{"<code>" + escape(r.name) + "</code>" if kind == "invariants" else escape(r.name)}</th>'
        f'<td class="num">{r.failed} of {r.of}</td>'
        f'<td class="rate"><span class="bar" aria-hidden="true"><span style="width:{100 * r.share:.0f}%"></span></span>'
        f"{_percent(r.failed, r.of)}</td></tr>"
        for r in rates
    )
    table = (
        f'<table><caption id="{caption_id}">{escape(what)}</caption>'
        f'<thead><tr><th scope="col">{"Tier" if kind == "tiers" else "Invariant"}</th>'
        '<th scope="col" class="num">Failed</th><th scope="col">Failure rate</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    return _scroll(caption_id, table)


def _no_verdict(ex: ExerciseMap) -> str:
    items = ex.no_verdict
    if not items:
        return ""
    rows = "".join(f"<li><code>{escape(h.key)}</code>: {inline(h.problem)}</li>" for h in items)
    return (
        f'<h3 id="{ex.exercise}-no-verdict">No verdict ({len(items)})</h3>'
        "<p>Not graded, or graded without a verdict to group on (two executions of the same "
        "schedule differed):</p>"
        f"<ul>{rows}</ul>"
    )


def _unverified(ex: ExerciseMap) -> str:
    items = ex.unverified
    if not items:
        return ""
    rows = []
    for h in items:
        claim = h.claimed
        if claim is None:
            what = inline(h.message)
        else:
            schedule = escape(claim.schedule_text) or "no fault"
            hint = f", hint <code>{escape(claim.hint)}</code>" if claim.hint else ", no catalogued hint"
            what = (
                f"<code>{escape(claim.invariant)}</code> on <code>{schedule}</code>{hint} (v{claim.version})"
            )
        rows.append(f'<tr><th scope="row"><code>{escape(h.key)}</code></th><td>{what}</td></tr>')
    caption_id = f"{ex.exercise}-unverified"
    table = (
        f'<table><caption id="{caption_id}">What progress files claim, unverified</caption>'
        '<thead><tr><th scope="col">File</th><th scope="col">Claim</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    return (
        f'<h3 id="{ex.exercise}-unverified-title">Unverified ({len(items)})</h3>'
        "<p>These progress files carry no source for this exercise, so nothing was regraded: "
        "the claims below are the learner's browser's, shown as it recorded them (raw schedules, "
        "not grouped).</p>" + _scroll(caption_id, table)
    )


def _exercise(ex: ExerciseMap) -> str:
    graded = len(ex.graded)
    failed = graded - ex.passed
    figures = [
        f"<li><b>{len(ex.handins)}</b>{'submission' if len(ex.handins) == 1 else 'submissions'}</li>",
        f"<li><b>{ex.passed}</b>passed ({_percent(ex.passed, graded)} of graded)</li>",
        f"<li><b>{failed}</b>failed</li>",
        f"<li><b>{len(ex.groups)}</b>{'mistake group' if len(ex.groups) == 1 else 'mistake groups'}</li>",
    ]
    if ex.no_verdict:
        figures.append(f"<li><b>{len(ex.no_verdict)}</b>no verdict</li>")
    if ex.unverified:
        figures.append(f"<li><b>{len(ex.unverified)}</b>unverified</li>")
    parts = [
        f'<section aria-labelledby="{ex.exercise}">',
        f'<h2 id="{ex.exercise}">{escape(ex.exercise)}: {escape(ex.title)} <span class="muted">(v{ex.version})</span></h2>',
        f'<ul class="figures">{"".join(figures)}</ul>',
    ]
    if ex.tiers:
        parts.append(
            '<div class="tables">'
            + _rates(ex, ex.tiers, "Failure rate of each tier", "tiers")
            + (
                _rates(ex, ex.invariants, "Failure rate of each invariant", "invariants")
                if ex.invariants
                else ""
            )
            + "</div>"
        )
    named, unexplained = ex.named_groups, ex.unexplained_groups
    parts.append(f'<h3 id="{ex.exercise}-groups">Mistake groups ({len(named)})</h3>')
    if named:
        parts.append(
            '<ol class="groups">'
            + "".join(f"<li>{group_html.render(g, failed)}</li>" for g in named)
            + "</ol>"
        )
    else:
        parts.append("<p>No failure here matches a catalogued mistake.</p>")
    if unexplained:
        parts.append(
            f'<h3 id="{ex.exercise}-unexplained">Unexplained failures ({len(unexplained)})</h3>'
            "<p>No catalogued mistake explains these groups. Each has a stub for a new catalogue "
            "entry: read the replay, name the mistake, write the evidence that tells it apart "
            "(docs/design/grader.md), and the next class's map names it.</p>"
            '<ol class="groups">'
            + "".join(f"<li>{group_html.render(g, failed)}</li>" for g in unexplained)
            + "</ol>"
        )
    parts += [_no_verdict(ex), _unverified(ex), "</section>"]
    return "".join(parts)


def _cell(cmap: ClassMap, handin: Handin | None) -> str:
    if handin is None:
        return '<td><span aria-hidden="true">—</span><span class="visually-hidden">not handed in</span></td>'
    if handin.passed:
        return '<td><span class="ok">passed</span></td>'
    group = cmap.group_of(handin)
    if group is not None:
        report = handin.report
        score = f" {report.score:g}/{report.max_score:g}" if report is not None else ""
        return (
            f'<td><span class="bad">failed</span>{score}, '
            f'<a href="#group-{group.number}">group #{group.number}</a></td>'
        )
    if handin.status == UNVERIFIED:
        return '<td class="muted">unverified</td>'
    return '<td class="muted">no verdict</td>'


def _students(cmap: ClassMap) -> str:
    exercises = [ex.exercise for ex in cmap.exercises]
    by_student: dict[str, dict[str, Handin]] = {}
    for ex in cmap.exercises:
        for h in ex.handins:
            by_student.setdefault(h.student, {})[ex.exercise] = h
    head = "".join(f'<th scope="col">{escape(e)}</th>' for e in exercises)
    rows = "".join(
        f'<tr><th scope="row">{escape(student)}</th>'
        + "".join(_cell(cmap, by_student[student].get(e)) for e in exercises)
        + "</tr>"
        for student in cmap.students
    )
    table = (
        '<table class="students"><caption id="students-caption">Each student\'s result per exercise</caption>'
        f'<thead><tr><th scope="col">Student</th>{head}</tr></thead><tbody>{rows}</tbody></table>'
    )
    return (
        '<section aria-labelledby="students"><h2 id="students">Per student</h2>'
        + _scroll("students-caption", table)
        + "</section>"
    )


def _summary(cmap: ClassMap) -> str:
    handins = sum(len(ex.handins) for ex in cmap.exercises)
    failures, named = cmap.failures, cmap.in_named_groups
    groups = cmap.groups
    named_groups = sum(1 for g in groups if g.named)
    return (
        f'<p class="lede">{_plural(handins, "submission")} of {_plural(len(cmap.exercises), "exercise")} '
        f"from {_plural(len(cmap.students), 'student')}. {_plural(failures, 'failure')} in "
        f"{_plural(len(groups), 'group')}: {named} ({_percent(named, failures)}) in the "
        f"{_plural(named_groups, 'group')} a catalogued mistake explains.</p>"
        '<p class="lede muted">A group is one mistake: the same broken invariant, on the same '
        "minimal fault schedule (named by what the code did, not by its names or step counts), "
        "with the same hint. Each group's link opens its failing run in a new tab.</p>"
    )


def _contents(cmap: ClassMap) -> str:
    links = "".join(f'<li><a href="#{ex.exercise}">{escape(ex.exercise)}</a></li>' for ex in cmap.exercises)
    return f'<nav aria-label="Contents"><ul>{links}<li><a href="#students">Per student</a></li></ul></nav>'


def _not_read(notes: list[str]) -> str:
    if not notes:
        return ""
    items = "".join(f"<li>{escape(n)}</li>" for n in notes)
    return f'<p class="note">Files in the class folder that were not read:</p><ul>{items}</ul>'


def render(cmap: ClassMap, title: str = "Class map", notes: list[str] | None = None) -> str:
    """The page; `notes`: files of the class folder that were not read, one line each."""
    body = (
        _summary(cmap)
        + _not_read(notes or [])
        + _contents(cmap)
        + "".join(_exercise(ex) for ex in cmap.exercises)
        + _students(cmap)
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_css()}</style></head>"
        f"<body><main><h1>{escape(title)}</h1>{body}</main></body></html>\n"
    )
