"""One mistake group as the report shows it: the count, the hint, the minimal schedule, what the
example's run did, the replay link, the submissions; for an unexplained group, a stub for a new
catalogue entry; when two catalogued mistakes share the group, a note that says so."""

from __future__ import annotations

from html import escape

from faultlines.grader.render_html import inline

from .groups import Group

MEMBERS_SHOWN = 12  # past this, the submissions fold into a <details>


def replay_href(group: Group) -> str:
    return f"replays/{group.number}.html"


def _items(items: list[str]) -> str:
    """One item as it is, several as a list."""
    if len(items) == 1:
        return items[0]
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def _schedule(group: Group) -> str:
    moves = group.signature.schedule
    if not moves:
        return "none: the run fails with no fault at all"
    return _items([f"<code>{escape(m)}</code>" for m in moves])


def _run(group: Group) -> str:
    failure = group.failure
    words = [w for w in failure.moves if w]
    # The grader writes code in its words between backticks (a hint, a move's "right after
    # `api.charge`"): shown as code, as the learner's report shows them.
    moves = "<ul>" + "".join(f"<li>{inline(w)}</li>" for w in words) + "</ul>" if words else ""
    return (
        f"In <code>{escape(group.example.key)}</code>’s run{':' if words else ','} {moves}"
        f"<code>{escape(failure.invariant)}</code> broke: {inline(failure.detail)}"
    )


def _hint(group: Group) -> str:
    hint = group.failure.hint
    first = hint.levels[0] if hint is not None and hint.levels else ""
    if not group.named:  # the grader explains the invariant instead: show that
        return "none catalogued" + (f". {inline(first)}" if first else "")
    return f"<code>{escape(group.signature.hint)}</code>" + (f": {inline(first)}" if first else "")


def _catalogued(group: Group) -> str:
    if not group.catalogued:
        return ""
    items = [f"<code>{escape(c.file)}</code>: {inline(c.why)}" for c in group.catalogued]
    return f"<dt>Catalogued as</dt><dd>{_items(items)}</dd>"


def _members(group: Group) -> str:
    items = "".join(f"<li><code>{escape(key)}</code></li>" for key in group.keys)
    listing = f'<ul class="members">{items}</ul>'
    if group.count <= MEMBERS_SHOWN:
        return listing
    return f"<details><summary>all {group.count}</summary>{listing}</details>"


def _indistinct(group: Group) -> str:
    if not group.indistinct:
        return ""
    files = " and ".join(f"<code>{escape(c.file)}</code>" for c in group.catalogued)
    return (
        '<p class="note"><strong>The catalogue cannot tell these mistakes apart.</strong> '
        f"Its wrong solutions {files} break the same invariant on the same minimal schedule and "
        "get the same hint, so this group may hold either. To split it, give the scenario a run "
        "where they differ, or evidence that does (docs/design/grader.md).</p>"
    )


def stub(group: Group) -> str:
    """A new catalogue entry to fill in: the hint for exercise.toml, the wrong solution for
    wrong/catalogue.toml, with this group's invariant, schedule and an example submission."""
    sig, example = group.signature, group.example
    schedule = sig.schedule_text or "(no fault)"
    return (
        f"# exercises/{sig.exercise}/exercise.toml\n"
        "[[hint]]\n"
        'id = "name-this-mistake"\n'
        f'invariant = "{sig.invariant}"\n'
        'evidence = ["what-this-run-shows"]  # a fact checks.py can see in the run\n'
        'levels = ["a nudge", "more of the answer", "the fix"]\n\n'
        f"# exercises/{sig.exercise}/wrong/catalogue.toml (a copy of {example.key})\n"
        "[[wrong]]\n"
        f'file = "{example.student}.py"\n'
        'hint = "name-this-mistake"\n'
        'why = "what the code does wrong, in one line"\n'
        f"# minimal schedule: {schedule}\n"
        f"# replay: {group.failure.replay_call}\n"
    )


def render(group: Group, failed_in_exercise: int) -> str:
    n, sig = group.number, group.signature
    share = f"{round(100 * group.count / failed_in_exercise)}%" if failed_in_exercise else "–"
    kind = "group" if group.named else "group unexplained"
    example = group.example.key
    facts = (
        f"<dt>Hint</dt><dd>{_hint(group)}</dd>"
        f"{_catalogued(group)}"
        f"<dt>Minimal schedule</dt><dd>{_schedule(group)}</dd>"
        f"<dt>What happened</dt><dd>{_run(group)}</dd>"
        # A new tab: the map is a long page the instructor goes back to, scrolled where it was.
        f'<dt>Replay</dt><dd><a href="{replay_href(group)}" target="_blank" rel="noopener">'
        f"Open the failing run of <code>{escape(example)}</code></a> (in a new tab)</dd>"
        f"<dt>Submissions</dt><dd>{_members(group)}</dd>"
    )
    extra = ""
    if not group.named:
        extra = (
            f"<details><summary>Stub for a new catalogue entry</summary><pre><code>{escape(stub(group))}"
            "</code></pre></details>"
        )
    return (
        f'<article class="{kind}" id="group-{n}" aria-labelledby="group-{n}-title">'
        f'<h4 id="group-{n}-title">#{n} <code>{escape(sig.invariant)}</code> '
        f'<span class="count">{group.count} {"submission" if group.count == 1 else "submissions"}, '
        f"{share} of failures</span></h4>"
        f'<dl class="facts">{facts}</dl>{_indistinct(group)}{extra}</article>'
    )
