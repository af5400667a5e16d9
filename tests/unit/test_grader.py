"""The grader's machinery on real exercises: budgets, nondeterminism, tokens, bad input, search."""

from __future__ import annotations

import dataclasses
import json

import pytest
from grader_support import REPO, grade_source

from faultlines.grader import exercise, grade, search, submission, tokens
from faultlines.grader.runner import run_schedule
from faultlines.grader.submission import BadSubmission


def test_an_endless_loop_ends_with_one_clear_budget_message():
    report = grade_source(
        "fault05",
        "def process_order(api, order_id, amount):\n    while True:\n        pass\n",
    )
    failure = report.first_failure
    assert failure is not None and failure.invariant == "step-budget"
    assert "step budget exhausted" in failure.detail and "loop" in failure.detail
    assert report.score == 0


def test_a_step_budget_stop_names_the_learners_line_that_was_running(tmp_path):
    path = tmp_path / "spin.py"
    path.write_text(
        "def settle(n):\n    while n:\n        n += 1\n\n\ndef process_order(api, order_id, amount):\n"
        "    settle(1)\n"
    )
    report = grade_source("fault05", path.read_text(), str(path))
    failure = report.first_failure
    assert failure is not None and failure.invariant == "step-budget"
    assert "; it stopped at line 3 in settle: n += 1. Does a loop never end?" in failure.detail
    # At a module's top level (a notebook cell's, ticked by IPython's AST transformer), no function.
    from faultlines.grader.budgets import HOOKS, Counter, LearnerBudgetExceeded, instrument

    cell = tmp_path / "cell.py"
    cell.write_text("x = 0\nwhile True:\n    x += 1\n")
    with pytest.raises(LearnerBudgetExceeded, match=r"; it stopped at line 3: x \+= 1\. "):
        with Counter(50).counting():
            exec(instrument(cell.read_text(), str(cell)), {**HOOKS})


def test_endless_recursion_ends_with_the_depth_budget_not_a_recursion_error():
    source = "def process_order(api, order_id, amount):\n    return process_order(api, order_id, amount)\n"
    failure = grade_source("fault05", source).first_failure
    assert failure is not None and failure.invariant == "step-budget"
    assert "call depth budget exhausted" in failure.detail and "process_order" in failure.detail


def test_a_budget_cannot_be_caught_by_the_learner():
    source = (
        "def process_order(api, order_id, amount):\n"
        "    try:\n"
        "        while True:\n"
        "            pass\n"
        "    except Exception:\n"
        "        api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=str(order_id)))\n"
    )
    assert grade_source("fault05", source).first_failure.invariant == "step-budget"


def test_state_kept_in_a_global_stays_in_each_worker_and_the_verdict_is_deterministic():
    # Each simulated worker process has its own copy of `state` (miniray/isolation), as on Ray,
    # so nothing carries from one graded run into the next: the mistake fails on its own merits.
    source = (
        "state = {'n': 0}\n"
        "def process_order(api, order_id, amount):\n"
        "    state['n'] += 1\n"
        "    key = f'order-{order_id}' if state['n'] % 3 else f'fresh-{state[\"n\"]}'\n"
        "    api.mark_paid(order_id, api.charge(order_id, amount, idempotency_key=key))\n"
    )
    report = grade_source("fault05", source)
    failure = report.first_failure
    assert failure is not None and failure.nondeterminism is None
    assert failure.invariant == "charged-at-most-once"
    assert grade_source("fault05", source).first_failure == failure  # the same verdict again


def test_an_unseeded_random_source_is_a_verdict_naming_the_record_that_differed():
    source = (
        "import random\n"
        "def process_order(api, order_id, amount):\n"
        "    api.mark_paid(f'note-{random.random()}', 'seen')\n"
        "    api.mark_paid(order_id, api.charge(order_id, amount))\n"
    )
    failure = grade_source("fault05", source).first_failure
    assert failure is not None and failure.invariant == "deterministic"
    assert failure.nondeterminism == "api.mark_paid key" and "order note-0." in failure.detail


def test_a_failure_replays_from_its_token():
    source = (REPO / "exercises/fault05/starter.py").read_text()
    failure = grade_source("fault05", source).first_failure
    token = tokens.decode(failure.token)
    assert token.exercise == "fault05" and token.version == 1 and list(token.schedule) == failure.schedule
    ex = exercise.load("fault05")
    sub = submission.from_source(source, "inline.py", ex.entry, ex.line_budget)
    again = grade.replay(ex, sub, token)
    assert again.violations[0][0] == failure.invariant
    assert again.log == failure.timeline  # byte for byte the run the report showed


def test_a_token_of_another_version_says_so():
    token = tokens.Token("fault05", 99, "abc", "two-orders", ("crash process_order#1/1 step=1",))
    decoded = tokens.decode(token.encode())
    with pytest.raises(tokens.TokenError, match="version 99 of fault05, which is now version 1"):
        tokens.check_version(decoded, exercise.load("fault05").version)
    with pytest.raises(tokens.TokenError, match="not a replay token"):
        tokens.decode("hello")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def process_order(:\n", "syntax error on line 1"),
        ("def other():\n    pass\n", "no function named 'process_order'"),
        ("process_order = 3\n", "'process_order' is not a function"),
        ("raise RuntimeError('boom')\n", "importing it raised RuntimeError: boom"),
        ("while True:\n    pass\n", "while importing: step budget exhausted"),
    ],
)
def test_unusable_submissions_get_one_readable_line(source, message):
    ex = exercise.load("fault05")
    with pytest.raises(BadSubmission, match=message) as info:
        submission.from_source(source, "sub.py", ex.entry, ex.line_budget)
    assert "\n" not in str(info.value)


def test_unknown_exercise_is_one_line():
    with pytest.raises(exercise.ExerciseError, match="unknown exercise 'fault99'"):
        exercise.load("fault99")


def test_search_finds_the_shortest_failing_schedule_first():
    ex = exercise.load("fault05")
    sub = submission.from_source(
        (REPO / "exercises/fault05/wrong/check_then_charge.py").read_text(), "w.py", ex.entry, ex.line_budget
    )
    tier = next(t for t in ex.tiers if t.kind == "search")
    result = search.exhaustive(tier, lambda s: run_schedule(ex, sub, tier.scenario, s))
    assert result.failure is not None and len(result.failure.schedule) == 1


def test_a_second_client_between_two_effects_is_searched():
    # No crash at all: another client checks between the first one's check and its charge.
    ex = exercise.load("fault05")
    sub = submission.from_file(ex.folder / "wrong/check_then_charge.py", ex.entry, ex.line_budget)
    tier = dataclasses.replace(next(t for t in ex.tiers if t.kind == "search"), moves=("client",), k=1)
    result = search.exhaustive(tier, lambda s: run_schedule(ex, sub, tier.scenario, s))
    assert result.failure is not None
    assert result.failure.schedule == ("client after_call=1",)
    assert result.failure.violations[0][0] == "charged-at-most-once"
    # ...and the reference survives every such schedule.
    ref = submission.from_file(ex.reference_path, ex.entry, ex.line_budget)
    assert search.exhaustive(tier, lambda s: run_schedule(ex, ref, tier.scenario, s)).failure is None


def test_hidden_tiers_add_points_and_are_marked_hidden():
    hidden = (REPO / "tests/fixtures/hidden/fault05/tiers.toml").read_text()
    ex = exercise.load("fault05", hidden=hidden)
    assert [t.hidden for t in ex.tiers][-1] is True
    sub = submission.from_file(ex.reference_path, ex.entry, ex.line_budget)
    report = grade.grade(ex, sub)
    assert report.passed and report.tiers[-1].hidden and report.tiers[-1].schedules > 0


def test_random_schedules_are_shrunk_to_a_minimal_one():
    ex = exercise.load("fault00")
    sub = submission.from_file(ex.folder / "wrong/one_retry.py", ex.entry, ex.line_budget)
    report = grade.grade(ex, sub)
    random_tier = next(t for t in report.tiers if t.kind == "random")
    failure = random_tier.failure
    assert failure is not None and len(failure.schedule) <= failure.shrunk_from
    for index in range(len(failure.schedule)):  # 1-minimal: dropping any move makes it pass
        fewer = tuple(failure.schedule[:index] + failure.schedule[index + 1 :])
        assert not run_schedule(ex, sub, failure.scenario, fewer).failed


def test_a_deadlock_and_a_starvation_are_reported_as_such():
    deadlock = (
        "import miniray as ray\n"
        "@ray.remote(num_cpus=64)\n"
        "def huge():\n    return 1\n"
        "def call_with_retries(submit, max_attempts=4, base_delay_s=1.0):\n"
        "    ray.get(huge.remote())\n"
        "    return ray.get(submit())\n"
    )
    failure = grade_source("fault01", deadlock).first_failure
    assert failure.invariant == "progress" and failure.detail.startswith(
        "deadlock: nothing can make progress"
    )
    starvation = (REPO / "exercises/fault01/wrong/retry_forever.py").read_text()
    failure = grade_source("fault01", starvation).first_failure
    assert failure.invariant == "progress" and failure.detail.startswith(
        "starvation: the goal was not reached"
    )


# -- independent runs ---------------------------------------------------------------------------
# A driver-side global that a run changes: with state carried between runs, the first run would
# pass and every later one fail (or the reverse), and a verdict would depend on the runs' order.
STALE_GLOBAL = (REPO / "exercises/fault00/reference.py").read_text() + (
    "\n\nRUNS = []\n\n\n"
    "def run_pipeline(stages, lines):  # noqa: F811\n"
    "    RUNS.append(len(lines))\n"
    "    if len(RUNS) > 1:\n"
    "        return [0] * len(lines)  # what a run sees if an earlier run's RUNS is still there\n"
    "    clean, count = stages\n"
    "    return ray.get([count.remote(clean.remote(line)) for line in lines])\n"
)


def test_every_run_loads_the_file_afresh():
    ex = exercise.load("fault00")
    sub = submission.from_source(STALE_GLOBAL, "stale.py", ex.entry, ex.line_budget)
    first = run_schedule(ex, sub, "three-lines", ())
    again = run_schedule(ex, sub, "three-lines", ())
    assert not first.failed and first.trace == again.trace
    report = grade.grade(ex, sub)
    assert report.passed, report.first_failure  # every one of its runs saw RUNS empty


def test_a_notebooks_state_is_fresh_in_every_run_and_left_as_it_was():
    from faultlines.grader.budgets import HOOKS, instrument

    namespace: dict = {"__name__": "__main__", **HOOKS}
    exec(instrument(STALE_GLOBAL, "<cell>"), namespace)
    namespace["RUNS"].append("the learner's own")
    ex = exercise.load("fault00")
    sub = submission.from_namespace(namespace, ex.entry)  # copies the state once, now
    namespace["RUNS"].append("changed after check() began")  # not seen by the runs
    report = grade.grade(ex, sub)
    assert not report.passed  # RUNS was not empty when check() began: every run sees that
    assert report.first_failure.invariant == "counts-correct"
    assert report.first_failure.nondeterminism is None
    assert namespace["RUNS"] == ["the learner's own", "changed after check() began"]  # untouched


def test_the_root_schedule_runs_again_when_a_failure_is_checked(monkeypatch):
    ran: list[tuple] = []
    real = grade.run_schedule

    def spy(ex, sub, scenario, schedule, counter=None, sites=False):
        ran.append(schedule)
        return real(ex, sub, scenario, schedule, counter, sites)

    monkeypatch.setattr(grade, "run_schedule", spy)
    failure = grade_source("fault05", (REPO / "exercises/fault05/starter.py").read_text()).first_failure
    assert failure is not None and failure.schedule and failure.nondeterminism is None
    assert ran.count(()) >= 2  # the search's own root run, and the determinism check's


# -- hints that need evidence from the run --------------------------------------------------------
def _exercise_copy(tmp_path, monkeypatch, hint: str):
    import shutil

    folder = tmp_path / "fault00"
    shutil.copytree(REPO / "exercises/fault00", folder)
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text() + hint)
    monkeypatch.setenv("FAULTLINES_EXERCISES", str(tmp_path))


@pytest.mark.parametrize(
    ("hint", "message"),
    [
        ('[[hint]]\nid = "x"\ninvariant = "counts-correct"\ncode = "max_retries"\nlevels = ["?"]\n', "code="),
        ('[[hint]]\nid = "x"\ninvariant = "counts-correct"\nlevels = ["?"]\n', "names no evidence"),
        (
            '[[hint]]\nid = "x"\ninvariant = "counts-correct"\nevidence = "nope"\nlevels = ["?"]\n',
            "unknown evidence",
        ),
    ],
)
def test_a_hint_must_rest_on_evidence_from_the_run(tmp_path, monkeypatch, hint, message):
    _exercise_copy(tmp_path, monkeypatch, hint)
    with pytest.raises(exercise.ExerciseError, match=message):
        exercise.load("fault00")


@pytest.mark.parametrize(
    ("tier", "message"),
    [
        (
            'moves = ["evict"]',
            r"names an unknown move 'evict'; the moves are node_loss, pause, drain, preempt, stall, crash, cancel, client",
        ),
        ('moves = ["crash"]\ncaps = { pause = 1 }', "caps 'pause', which is not one of its moves"),
        ('moves = ["pause"]\nmove_args = { pause = { length = 3 } }', "has no parameter 'length'"),
        ('moves = ["pause"]\nmove_args = { pause = { duration = "long" } }', "duration= is float"),
        ('moves = ["crash"]\nmove_args = { pause = { duration = 3.0 } }', "gives values to 'pause'"),
    ],
)
def test_a_tier_names_only_moves_there_are_with_values_their_entries_take(
    tmp_path, monkeypatch, tier, message
):
    tier_toml = f'[[tier]]\nname = "more"\nkind = "search"\nscenario = "three-lines"\n{tier}\n'
    _exercise_copy(tmp_path, monkeypatch, tier_toml)
    with pytest.raises(exercise.ExerciseError, match=message):
        exercise.load("fault00")


def test_a_tiers_move_args_reach_its_moves():
    from faultlines.grader.schedule import Boundaries
    from miniray.sim import ChoicePoints

    points = ChoicePoints(attempts=[("f#1/1", 0)], marks=[(3, ("node:1",))])
    moves = Boundaries(points, calls=0).moves(
        ("pause", "crash", "node_loss", "client"), {"pause": {"duration": 4.5}}
    )
    assert moves == [
        "crash f#1/1 step=0",
        "kill_node node:1 after_event=3",
        "pause_node node:1 after_event=3 duration=4.5",
        "client after_call=0",
    ]
    assert exercise.load("fault07").tiers[1].move_args == {"pause": {"duration": 15.0}}  # its pause_s


def test_a_tier_may_search_drains(tmp_path, monkeypatch):
    """The `drain` move (miniray's drain_node kind) validates in exercise.toml and is searched: at
    each node event, a drain with the tier's deadline. fault00's reference survives every one."""
    tier = (
        '[[tier]]\nname = "drains"\nkind = "search"\npoints = 1\nscenario = "three-lines"\nk = 1\n'
        'moves = ["drain"]\nmove_args = { drain = { deadline_s = 10.0 } }\n'
    )
    _exercise_copy(tmp_path, monkeypatch, tier)
    ex = exercise.load("fault00")
    assert ex.tiers[-1].move_args == {"drain": {"deadline_s": 10.0}}
    report = grade_source("fault00", (REPO / "exercises/fault00/reference.py").read_text())
    drains = report.tiers[-1]
    assert drains.passed and drains.schedules > 1, drains


def test_when_no_known_mistake_matches_the_report_says_so_and_explains_the_invariant():
    off_by_one = (
        (REPO / "exercises/fault00/reference.py")
        .read_text()
        .replace("return ray.get(refs)", "return [n + 1 for n in ray.get(refs)]")
    )
    failure = grade_source("fault00", off_by_one).first_failure
    assert failure is not None and failure.invariant == "counts-correct"
    assert failure.hint is not None and not failure.hint.known and failure.hint.id == exercise.NO_MATCH
    assert "matches none of the mistakes this exercise knows" in failure.hint.levels[0]
    assert "holds the right word count for every line" in failure.hint.levels[0]  # the docstring


# -- what a report shows ---------------------------------------------------------------------------
def test_the_text_report_numbers_hints_explains_an_unmatched_failure_and_shows_no_backticks():
    from faultlines.grader import render_text

    known = render_text.render(grade_source("fault05", (REPO / "exercises/fault05/starter.py").read_text()))
    assert "  hint 1/" in known and "`" not in known
    assert "right after step 0: api.charge (inline.py:3)" in known  # `api.charge` in HTML
    spin = "def process_order(api, order_id, amount):\n    while True:\n        pass\n"
    unmatched = render_text.render(grade_source("fault05", spin))
    assert "  explanation:      This run matches none of the mistakes" in unmatched
    assert "about 1/" not in unmatched and "`" not in unmatched
    assert "step-budget asks:" in unmatched
    fields = [line for line in unmatched.splitlines() if line[:2] == "  " and line[2] != " " and ": " in line]
    assert len(fields) >= 5 and all(line[19] == " " != line[20] for line in fields[:5]), "one column"


def test_the_timeline_has_no_bookkeeping_and_the_crash_reads_as_miniray_says_it():
    failure = grade_source("fault05", (REPO / "exercises/fault05/starter.py").read_text()).first_failure
    assert failure is not None and failure.timeline
    text = "\n".join(failure.timeline)
    assert "object.free" not in text and "token=" not in text and " id=" not in text
    assert "key=order-17" not in text  # the starter passes no key, and the log says so
    assert "api.charge order 17, no idempotency key -> ok" in text
    assert failure.schedule == ["crash process_order#1/1 step=1"]
    assert "injected crash before step 1 of process_order#1/1" in text
    assert failure.moves == [
        "at 0 s the worker running process_order#1/1 dies before step 1, right after step 0: "
        "`api.charge` (inline.py:3)"
    ]


def test_the_html_report_reads_on_a_phone():
    from faultlines.grader import render_html

    report = grade_source("fault05", (REPO / "exercises/fault05/starter.py").read_text())
    html = render_html.render(report, share_url="https://course.example/exercises/replay/#s=abc")
    assert "max-height:18em" not in html and "overflow:auto" not in html  # no box that scrolls
    assert "word-break:normal;" in html  # the timeline wraps between words, never inside one
    assert "overflow-wrap:anywhere" in html  # the replay token wraps instead of being cut
    assert "<code>api.charge</code>" in html  # backticks are code
    # A tier's name reads from the left (JupyterLab right-aligns an output's cells), its numbers
    # line up on the right.
    assert '<td style="text-align:left">teaching scenarios</td><td style="text-align:right">0/2</td>' in html
    assert 'href="https://course.example/exercises/replay/#s=abc" target="_blank"' in html
    signature = json.loads(html.split('data-signature="')[1].split('"')[0].replace("&quot;", '"'))
    assert signature == {
        "hint": "retry-repeats-the-charge",
        "invariant": "charged-at-most-once",
        "schedule": ["crash process_order#1/1 step=1"],
        "canonical": ["crash process_order#1/1 after api.charge"],  # what a class map groups on
        "version": 1,
    }


def test_a_reports_data_carries_each_failures_signature_and_round_trips():
    from faultlines.grader.report import Report

    report = grade_source("fault05", (REPO / "exercises/fault05/starter.py").read_text())
    data = report.to_dict()
    failed = [t["failure"] for t in data["tiers"] if t["failure"]]
    assert failed and all(
        set(f["signature"]) == {"invariant", "schedule", "canonical", "hint", "version"} for f in failed
    )
    assert Report.from_dict(json.loads(json.dumps(data))).to_dict() == data
