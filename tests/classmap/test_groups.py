"""The class map as data and as files (faultlines/classmap: groups, groups_csv, page): grouping by
signature, the order of groups, the rates, what is kept apart, the CSV and the page's content."""

from __future__ import annotations

import csv
import io
import re
from html import unescape

from faultlines.classmap import groups, groups_csv, page
from faultlines.classmap.catalogue import Catalogued
from faultlines.classmap.handin import NOT_GRADED, UNVERIFIED, Handin, student_of
from faultlines.classmap.signature import Signature
from faultlines.grader.report import Failure, Hint, Report, TierResult

CRASH = ["crash process_order#1/1 after api.charge"]


def _failure(
    invariant: str, canonical: list[str], hint: str, raw: list[str] | None = None, **extra
) -> Failure:
    return Failure(
        invariant=invariant,
        detail=f"{invariant} broke",
        scenario="two-orders",
        schedule=raw if raw is not None else [m.replace(" after api.charge", " step=1") for m in canonical],
        token="FL1.fault05.v1.abc.two-orders.W10",
        replay_call="python -m faultlines replay FL1.fault05.v1.abc.two-orders.W10 x.py",
        timeline=["0.000 task.submit task=process_order"],
        hint=Hint(hint, [f"nudge for {hint}", "more"]),
        canonical=canonical,
        **extra,
    )


def _differed(what: str) -> Failure:
    """Two runs of one schedule that differed: a verdict, its hint's id naming what differed."""
    hint = "nondeterministic-" + what.replace(".", "-").replace(" ", "-")
    return _failure("deterministic", [], hint, nondeterminism=what)


def _report(*failures: Failure | None, exercise: str = "fault05", error: str | None = None) -> Report:
    report = Report(exercise, "Pay once", 1, "abc", error=error)
    for i, failure in enumerate(failures):
        report.tiers.append(
            TierResult(
                f"tier {i + 1}", "scenarios", 2.0, 0.0 if failure else 2.0, failure is None, 3, failure
            )
        )
    return report


def _handin(key: str, report: Report | None, **kw) -> Handin:
    return Handin(
        key, student_of(key), report.exercise if report else kw.pop("exercise", "fault05"), report, **kw
    )


def _class() -> list[Handin]:
    retry = lambda: _failure("charged-at-most-once", CRASH, "retry-repeats-the-charge")  # noqa: E731
    return [
        _handin("alice.py", _report(retry(), None)),
        _handin("bob/solution.py", _report(retry(), _failure("every-order-paid", [], "key-not-per-order"))),
        _handin("cy.py", _report(None, _failure("every-order-paid", [], "key-not-per-order"))),
        _handin("dan.py", _report(_failure("every-order-paid", [], "no-known-mistake"), None)),
        _handin("eve.py", _report(None, None)),
        _handin("fay.py", _report(retry(), None, error="the submission changed the grader: not graded")),
        _handin("hal.py", None, status=NOT_GRADED, message="hal.py: syntax error on line 2"),
        Handin(
            "ida.json",
            "ida",
            "fault05",
            status=UNVERIFIED,
            claimed=Signature(
                "fault05", 1, "charged-at-most-once", ("crash process_order#1/1 step=1",), "", False
            ),
        ),
    ]


def _catalogue(exercise: str) -> dict[Signature, tuple[Catalogued, ...]]:
    sig = Signature("fault05", 1, "charged-at-most-once", tuple(CRASH), "retry-repeats-the-charge")
    return {
        sig: (
            Catalogued("no_key.py", "retry-repeats-the-charge", "no key"),
            Catalogued("retry_inside.py", "retry-repeats-the-charge", "a loop"),
        )
    }


def test_failures_group_by_invariant_canonical_schedule_and_hint_named_ones_first():
    cmap = groups.build(_class(), _catalogue)
    (ex,) = cmap.exercises
    got = [(g.number, g.signature.invariant, g.signature.hint, g.keys) for g in ex.groups]
    assert got == [
        (1, "charged-at-most-once", "retry-repeats-the-charge", ["alice.py", "bob/solution.py"]),
        (2, "every-order-paid", "key-not-per-order", ["cy.py"]),
        (3, "every-order-paid", "", ["dan.py"]),  # no catalogued mistake: unexplained, last
    ]
    assert [g.named for g in ex.groups] == [True, True, False]
    assert ex.groups[0].indistinct and not ex.groups[1].indistinct
    assert cmap.failures == 4 and cmap.in_named_groups == 3
    # No verdict to group on: a report that says it could not grade, bad input.
    assert [h.key for h in ex.no_verdict] == ["fay.py", "hal.py"]
    assert [h.key for h in ex.unverified] == ["ida.json"]
    assert ex.passed == 1 and len(ex.graded) == 5


def test_two_runs_that_differed_are_a_failure_each_grouped_by_what_differed():
    cmap = groups.build(
        [
            _handin("gus.py", _report(_differed("gateway.charge key"))),
            _handin("jo.py", _report(None, _differed("gateway.charge key"))),
            _handin("kim.py", _report(_differed("db.upsert key"), _differed("db.upsert key"))),
            _handin("lu.py", _report(None, None)),
        ]
    )
    (ex,) = cmap.exercises
    got = [(g.signature.invariant, g.signature.hint, g.keys) for g in ex.groups]
    assert got == [
        ("deterministic", "nondeterministic-gateway-charge-key", ["gus.py", "jo.py"]),
        ("deterministic", "nondeterministic-db-upsert-key", ["kim.py"]),
    ]
    # Three failing students, three failures (one each, however many tiers), none without a verdict.
    assert cmap.failures == 3 and ex.no_verdict == [] and ex.passed == 1 and len(ex.graded) == 4


def test_a_raw_schedule_never_groups_with_a_canonical_one():
    raw = _failure("charged-at-most-once", CRASH, "retry-repeats-the-charge")
    raw.canonical = None  # a grader that did not compute it: grouped on the raw tokens, apart
    cmap = groups.build(
        [
            _handin("a.py", _report(raw)),
            _handin("b.py", _report(_failure("charged-at-most-once", CRASH, "retry-repeats-the-charge"))),
        ]
    )
    assert sorted(g.count for g in cmap.groups) == [1, 1]


def test_each_tier_and_each_invariant_has_its_failure_rate_over_the_graded():
    (ex,) = groups.build(_class()).exercises
    assert [(r.name, r.failed, r.of) for r in ex.tiers] == [("tier 1", 3, 5), ("tier 2", 2, 5)]
    assert [(r.name, r.failed, r.of) for r in ex.invariants] == [
        ("every-order-paid", 3, 5),
        ("charged-at-most-once", 2, 5),
    ]


def test_students_are_read_from_the_keys():
    assert [student_of(k) for k in ["alice.py", "bob/solution.py", "cy/", "ida.json"]] == [
        "alice",
        "bob",
        "cy",
        "ida",
    ]


def test_groups_csv_has_the_exact_header_and_one_row_per_group_by_count():
    cmap = groups.build(_class(), _catalogue)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([groups_csv.HEADER, *groups_csv.rows(cmap)])
    lines = out.getvalue().splitlines()
    assert lines[0] == "exercise,invariant,schedule,hint,count,submissions"
    assert lines[1:] == [
        "fault05,charged-at-most-once,crash process_order#1/1 after api.charge,retry-repeats-the-charge,2,alice.py;bob/solution.py",
        "fault05,every-order-paid,,key-not-per-order,1,cy.py",
        "fault05,every-order-paid,,,1,dan.py",
    ]


def test_the_page_shows_each_group_with_its_replay_and_the_unexplained_with_a_stub():
    html = page.render(groups.build(_class(), _catalogue))
    assert html.count('href="replays/') == 3
    for n in (1, 2, 3):
        assert f'id="group-{n}"' in html and f'href="replays/{n}.html"' in html
    assert "The catalogue cannot tell these mistakes apart" in html and "retry_inside.py" in html
    assert "Unexplained failures (1)" in html and "[[hint]]" in html
    assert 'invariant = "every-order-paid"' in unescape(html)
    assert "No verdict (2)" in html and "syntax error on line 2" in html
    assert "Unverified (1)" in html and "crash process_order#1/1 step=1" in html
    # The per-student view links each failure to its group.
    assert re.search(
        r'<th scope="row">bob</th><td><span class="bad">failed</span> 0/4, <a href="#group-1">', html
    )
    assert '<th scope="row">eve</th><td><span class="ok">passed</span>' in html
    # One page, nothing fetched: no script, no link to anywhere but its own replays and anchors.
    assert "<script" not in html and "http" not in html
    assert all(h.startswith(("#", "replays/")) for h in re.findall(r'href="([^"]*)"', html))
    assert "<caption" in html and 'scope="col"' in html


def test_the_graders_backticks_are_code_and_a_replay_opens_in_a_new_tab():
    """The grader writes code between backticks (a move's "right after step 0: `api.charge`", a
    hint's `idempotency_key=`): the map shows it as code, never the backticks. A group's replay
    opens in a new tab, so the long map stays where the instructor left it."""
    moved = _failure(
        "charged-at-most-once",
        CRASH,
        "retry-repeats-the-charge",
        moves=["right after step 0: `api.charge` (alice.py:3)"],
    )
    moved.hint = Hint("retry-repeats-the-charge", ["`api.charge` accepts `idempotency_key=`", "more"])
    moved.detail = "order 17 charged by `api.charge` twice"
    html = page.render(groups.build([_handin("alice.py", _report(moved))], _catalogue))
    text = re.sub(r"<pre>.*?</pre>", "", html, flags=re.DOTALL)  # a stub's TOML is shown as written
    assert "`" not in text
    assert "<code>api.charge</code> (alice.py:3)" in html and "<code>idempotency_key=</code>" in html
    assert re.search(r'<a href="replays/1.html" target="_blank" rel="noopener">', html)


def test_what_a_learner_named_is_escaped_on_the_page():
    hostile = _handin(
        '<img src=x onerror="alert(1)">.py', _report(_failure("every-order-paid", [], "key-not-per-order"))
    )
    html = page.render(groups.build([hostile]))
    assert "<img" not in html and "&lt;img src=x" in html
