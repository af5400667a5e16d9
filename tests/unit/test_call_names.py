"""One name per call: a service call is named in the run's log, the schedule's words ("right after
step 2: `api.charge`"), the debugger (which reads the same records) and the hints as the learner's
code names it, that is as the exercise's statement or starter does: `api.charge`, not
`gateway.charge`; `out.put`, not `blob.put`.

Every exercise's calls are gathered from runs of every solution it ships (starter, reference,
right and wrong ones) on each scenario, and from the report of the starter's failing check: the
dotted names of its timeline, its effects, its moves and its hints. A name is the statement's or
the starter's if their code (the starter, the statement's `code` spans) writes it whole
(`ckpt.save`), or names the object and calls the method (`out` and `rename(src, dst)`).
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from faultlines.grader import exercise, grade, submission
from faultlines.grader.runner import run_schedule

IDS = exercise.exercise_ids()
DOTTED = r"([A-Za-z_]\w*)\.([A-Za-z_]\w*)"
# Where a report writes a call's name: a timeline's or the effects' line, a crash's move.
IN_LOG = re.compile(rf"effect \S+ {DOTTED} ")
IN_EFFECTS = re.compile(rf"^\s*[0-9.]+ \S+\s+{DOTTED} ", re.MULTILINE)
IN_MOVE = re.compile(rf"step \d+: `?{DOTTED}`?")
IN_TEXT = re.compile(rf"\b{DOTTED}\b")


@cache
def _code(ex_id: str) -> str:
    """The code the learner reads: the starter, and the statement's `code` spans."""
    ex = exercise.load(ex_id)
    statement = (ex.folder / "statement.md").read_text(encoding="utf-8")
    spans = re.findall(r"`([^`]+)`", statement)
    return (ex.folder / "starter.py").read_text(encoding="utf-8") + "\n" + "\n".join(spans)


def _named(ex_id: str, obj: str, method: str) -> bool:
    code = _code(ex_id)
    if re.search(rf"\b{re.escape(obj)}\.{re.escape(method)}\b", code):
        return True
    return bool(re.search(rf"\b{re.escape(obj)}\b", code) and re.search(rf"\b{re.escape(method)}\(", code))


def _solutions(ex: exercise.Exercise) -> list:
    return [
        ex.folder / "starter.py",
        ex.reference_path,
        *ex.right_solutions(),
        *(w.path for w in ex.wrong_solutions()),
    ]


def _calls_made(ex: exercise.Exercise) -> set[tuple[str, str]]:
    """(object, method) of every service call any shipped solution makes on a run with no fault,
    logged (an effect) or not (a read, which a crash's move still names)."""
    calls: set[tuple[str, str]] = set()
    for path in _solutions(ex):
        sub = submission.from_file(path, ex.entry, ex.line_budget)
        for scenario in ex.checks.scenarios:
            run = run_schedule(ex, sub, scenario, (), sites=True)
            calls |= {(r.fields["service"], r.fields["op"]) for r in run.records if r.kind == "effect"}
            labels = {op for steps in run.journals.values() for op, _ in steps}
            calls |= {tuple(label.split(".", 1)) for label in labels if re.fullmatch(DOTTED, label)}
    return calls


def _calls_reported(ex: exercise.Exercise) -> set[tuple[str, str]]:
    """(object, method) of every call the starter's failing report names."""
    report = grade.grade(ex, submission.from_file(ex.folder / "starter.py", ex.entry, ex.line_budget))
    calls: set[tuple[str, str]] = set()
    for tier in report.tiers:
        failure = tier.failure
        if failure is None:
            continue
        calls |= {m for line in failure.timeline for m in IN_LOG.findall(line)}
        calls |= set(IN_EFFECTS.findall("\n".join(failure.effects)))
        calls |= {m for words in failure.moves for m in IN_MOVE.findall(words)}
    return calls


@pytest.mark.parametrize("ex_id", IDS)
def test_every_call_is_named_as_the_learners_code_names_it(ex_id):
    ex = exercise.load(ex_id)
    calls = _calls_made(ex) | _calls_reported(ex)
    strangers = sorted(f"{obj}.{method}" for obj, method in calls if not _named(ex_id, obj, method))
    assert strangers == [], (
        f"{ex_id}'s log, moves or debugger name calls its statement and starter never do: {strangers}"
    )


@pytest.mark.parametrize("ex_id", IDS)
def test_the_hints_name_calls_as_the_log_does(ex_id):
    """A hint that names a service's call writes it as the statement does (and so as the log
    does): a hint's `api.charge` is the log's `api.charge`."""
    ex = exercise.load(ex_id)
    objects = {obj for obj, _ in _calls_made(ex)}
    named = {
        (obj, method)
        for hint in ex.hints
        for level in hint.levels
        for obj, method in IN_TEXT.findall(level)
        if obj in objects
    }
    strangers = sorted(f"{obj}.{method}" for obj, method in named if not _named(ex_id, obj, method))
    assert strangers == [], f"{ex_id}'s hints name calls its statement and starter never do: {strangers}"


def test_fault05_says_api_charge_everywhere():
    """The case the learner walk found: the starter calls api.charge and api.mark_paid, and the
    log said gateway.charge and db.upsert orders/17."""
    ex = exercise.load("fault05")
    calls = _calls_made(ex) | _calls_reported(ex)
    assert {("api", "charge"), ("api", "mark_paid"), ("api", "paid_with")} <= calls
    assert not {obj for obj, _ in calls} - {"api"}, calls
