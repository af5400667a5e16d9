"""The debugger's Python half: a run folded into per-event states, code links, the moment an
invariant broke, the passing run and the first difference, what-if schedules, the view's HTML
and data, the recorded reference runs, the standalone page and the notebook hooks.

Each test runs a real exercise's starter (or reference) under the schedule its check() reports,
as the learner's debugger does. They run in Pyodide too (tests/pyodide), so nothing here needs
ipywidgets: the notebook widget's tests are in tests/lessons/test_debugger_widget.py, the
browser half in tests/browser/test_site_debugger.py."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from grader_support import REPO

from faultlines.debugger import page, record, recorded, render, session, whatif
from faultlines.debugger.compare import first_difference
from faultlines.grader import exercise, grade, submission
from miniray import sim
from miniray.events import Kind

STARTER_FAILURES = {  # what each starter's check() reports first (tests/unit/exercise_traces.json)
    "fault00": ("three-lines", ("crash clean#2/1 step=0",), "pipeline-finishes"),
    "fault05": ("two-orders", ("crash process_order#1/1 step=1",), "charged-at-most-once"),
    "fault09": ("one-node-loss", (), "no-due-group-starves"),
}


def _source(exercise_id: str, code: str = "starter.py") -> session.ExerciseSource:
    ex = exercise.load(exercise_id)
    sub = submission.from_file(REPO / "exercises" / exercise_id / code, ex.entry, ex.line_budget)
    scenario, _, invariant = STARTER_FAILURES[exercise_id]
    return session.ExerciseSource(ex, sub, scenario, invariant)


def _snap(exercise_id: str) -> session.Snapshot:
    return _source(exercise_id).run(STARTER_FAILURES[exercise_id][1])


@pytest.mark.parametrize("exercise_id", sorted(STARTER_FAILURES))
def test_the_starters_report_the_failures_these_tests_debug(exercise_id):
    ex = exercise.load(exercise_id)
    sub = submission.from_file(REPO / "exercises" / exercise_id / "starter.py", ex.entry, ex.line_budget)
    failure = grade.grade(ex, sub).first_failure
    assert failure is not None
    assert (failure.scenario, tuple(failure.schedule), failure.invariant) == STARTER_FAILURES[exercise_id]


def test_the_fold_gives_the_state_after_each_event():
    model = _snap("fault00").model
    assert len(model.events) == 27 and [e.index for e in model.events] == list(range(27))
    crash = model.events[12]
    assert crash.kind == "worker.exit" and crash.fault == "crash clean#2/1 step=0"
    running = model.state_at(10)  # clean#1/1 and clean#2/1 have started
    assert running["tasks"]["clean#2"] == ("clean#2", "running", "1", "node:2, worker 10003")
    assert running["workers"]["10003"] == ("10003", "node:2", "running clean#2/1")
    after = model.state_at(14)  # the task failed for good
    assert after["tasks"]["clean#2"][1] == "died: failed"
    assert after["workers"]["10003"][2] == "dead"
    assert after["nodes"]["node:2"][1] == "alive"  # a worker died, not its node
    assert model.state_at(-1) == {name: {} for name in model.state_at(-1)}
    assert [e.noise for e in model.events].count(True) == 6  # the objects going out of scope
    assert model.events[14].text == "clean#2/1 dies with its worker (worker_died); no retries left: it fails"


def test_a_pause_shows_on_its_node_until_it_resumes():
    ex = exercise.load("fault07")
    sub = submission.from_file(REPO / "exercises/fault07/starter.py", ex.entry, ex.line_budget)
    schedule = ("pause_node node:1 at=3.0 duration=15.0",)
    source = session.ExerciseSource(ex, sub, "two-leaders", "no-stale-write")
    model = source.run(schedule).model
    pause = next(e for e in model.events if e.fault)
    assert pause.fault == schedule[0]
    assert model.state_at(pause.index)["nodes"]["node:1"][1] == "paused"
    resumed = next(e for e in model.events if e.kind == "node.resumed")
    assert model.state_at(resumed.index)["nodes"]["node:1"][1] == "alive"
    assert model.state_at(resumed.index)["services"]  # the lease and the store, as the run left them


def test_a_node_loss_kills_the_node_and_its_workers():
    ex = exercise.load("fault03")
    sub = submission.from_file(REPO / "exercises/fault03/starter.py", ex.entry, ex.line_budget)
    model = (
        session.ExerciseSource(ex, sub, "four-outputs", "outputs-survive")
        .run(("kill_node node:1 after_event=11",))
        .model
    )
    died = next(e for e in model.events if e.kind == "node.died")
    state = model.state_at(died.index)
    assert state["nodes"]["node:1"][1] == "dead"
    on_node1 = [row for row in state["workers"].values() if row[1] == "node:1"]
    assert on_node1 and all(row[2] == "dead" for row in on_node1)
    assert any(e.fault == "kill_node node:1 after_event=11" for e in model.events)


def test_code_links_come_from_the_journals_and_the_drivers_calls():
    fault05 = _snap("fault05").model
    charge = next(
        e for e in fault05.events if e.kind == "effect" and e.fields["attempt"] == "process_order#1/2"
    )
    assert charge.site.endswith("exercises/fault05/starter.py:3")
    assert charge.code == "charge_id = api.charge(order_id, amount)"
    crash = next(e for e in fault05.events if e.fault)
    assert crash.site.endswith("starter.py:4") and "just before process_order#1/1's call 1" in crash.why
    fault00 = _snap("fault00").model
    submits = [e for e in fault00.events if e.kind == "task.submit"]
    assert {e.code for e in submits} == {"refs = [count.remote(clean.remote(line)) for line in lines]"}
    # Events the event loop made (a start, the injected crash) name no line of the learner's.
    assert not any(e.site for e in fault00.events if e.kind in ("task.start", "worker.exit", "task.fail"))


def test_the_moment_an_invariant_broke():
    assert _snap("fault00").moment.index == 14  # the task that failed for good
    fault05 = _snap("fault05")
    assert fault05.moment.index == 15 and fault05.model.events[15].fields["op"] == "charge"
    budget = _snap("fault09").moment
    assert budget.at_end and budget.index == len(_snap("fault09").model.events) - 1


def test_the_passing_run_is_the_learners_without_the_decisive_fault():
    source = _source("fault00")
    snap = source.run(STARTER_FAILURES["fault00"][1])
    passing = session.passing_run(source, snap)
    assert passing.name == "your run without crash clean#2/1 step=0"
    assert passing.decisive == "crash clean#2/1 step=0"
    diff = first_difference(snap.model, passing.model)
    assert diff.index == 12
    assert diff.sentence(passing.name).startswith(
        "The runs first differ at event 13 (0.000 s): in your run, clean#2/1 ends its worker 10003"
    )
    assert "in your run without crash clean#2/1 step=0, clean#2/1 returns on node:2" in diff.sentence(
        passing.name
    )


def test_with_no_fault_to_remove_the_reference_run_recorded_as_events_is_the_passing_run():
    source = _source("fault09")
    snap = source.run(())
    passing = session.passing_run(source, snap)
    assert passing.name.startswith("the reference solution's run")
    diff = first_difference(snap.model, passing.model)
    # The policy's answers are on the record (pg.requeue): the runs part at the first answer
    # the two policies give differently, the reference's backoff where the starter stays in front.
    assert diff is not None and diff.index < len(snap.model.events)
    assert diff.ours.endswith("the queue policy answers front")
    assert diff.theirs.endswith("the queue policy answers backoff")
    answers = [e for e in snap.model.events if e.kind == Kind.PG_REQUEUE]
    fronts = [e for e in answers if e.fields["pg"] == "R" and e.fields["answer"] == "front"]
    # The hot loop on the lanes, R and S in turn; the check stops the run at the 50th answer, unwritten.
    assert len(fronts) == 49 and len(answers) >= 97


def test_a_passing_run_has_nothing_to_compare_with():
    source = _source("fault00", "reference.py")
    snap = source.run(STARTER_FAILURES["fault00"][1])
    assert not snap.verdict.failed
    assert (
        snap.verdict.sentence() == "pipeline-finishes holds on this run, and so does every other invariant."
    )
    assert session.passing_run(source, snap) is None


def test_what_if_moves_one_knob_and_removals_reach_every_subset():
    assert whatif.moved("crash clean#2/1 step=0", 1) == "crash clean#2/1 step=1"
    assert whatif.moved("kill_node node:1 after_event=11", 3) == "kill_node node:1 after_event=3"
    assert (
        whatif.moved("pause_node node:1 at=3.0 duration=15.0", 4.5)
        == "pause_node node:1 at=4.5 duration=15.0"
    )
    assert whatif.moved("client after_call=1", 2) == "client after_call=2"
    with pytest.raises(ValueError, match="before the run starts"):
        whatif.moved("crash clean#2/1 step=0", -1)
    subsets = whatif.removals(("a n step=1", "b n step=2"))
    assert subsets == [("a n step=1", "b n step=2"), ("b n step=2",), ("a n step=1",), ()]


def test_removing_or_moving_the_fault_reruns_the_schedule():
    source = _source("fault00")
    assert not source.run(()).verdict.failed
    # clean's body makes no call to the cluster: a crash at its step 1 comes after it returned,
    # so it never strikes, and the run passes too.
    late = source.run((whatif.moved("crash clean#2/1 step=0", 1),))
    assert late.schedule == ("crash clean#2/1 step=1",)
    assert not late.verdict.failed and not any(e.fault for e in late.model.events)


class _Controls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def test_the_view_has_a_named_slider_with_value_text_and_its_data():
    source = _source("fault00")
    snap = source.run(STARTER_FAILURES["fault00"][1])
    html = render.view(snap, session.passing_run(source, snap))
    parser = _Controls()
    parser.feed(html)
    (slider,) = [attrs for tag, attrs in parser.found if tag == "input" and attrs.get("type") == "range"]
    assert slider["aria-label"] == "Virtual time"
    assert (slider["min"], slider["max"], slider["value"]) == ("1", "27", "15")
    assert slider["aria-valuetext"] == "0.000 s, event 15 of 27"
    buttons = re.findall(r"<button[^>]*>([^<]+)</button>", html)
    assert buttons == ["Previous event", "Next event"]
    data = json.loads(re.search(r'class="fl-dbg-data">(.*?)</script>', html).group(1))
    assert data["n"] == 27 and data["start"] == 14 and len(data["events"]) == 27
    assert data["compare"]["index"] == 12
    assert html.count("<tr") > 27  # the table of every event, and the state tables
    # The lanes: one row per node and per worker, the fault and the broken invariant marked.
    for label in ("node:1", "worker 10003", "crash clean#2/1 step=0 (event 13)", "pipeline-finishes broken"):
        assert label in html


def test_a_run_with_no_events_says_so():
    snap = session.from_run(sim.run(lambda: 42))
    assert "logged no events" in render.view(snap)
    assert snap.verdict.sentence() == "The run returned 42."


def test_the_recorded_reference_runs_are_up_to_date():
    for path in sorted(recorded.HERE.glob("*.json")):
        assert json.loads(path.read_text()) == json.loads(record.dumps(record.record(path.stem))), (
            f"{path.name} is stale: run python -m faultlines.debugger.record"
        )
    # Every exercise whose public scenario tiers run a cluster has its recording.
    made = {path.stem for path in recorded.HERE.glob("*.json")}
    assert {"fault00", "fault05", "fault09"} <= made


def test_the_recordings_hold_events_and_no_code():
    for path in recorded.HERE.glob("*.json"):
        text = path.read_text()
        assert "def " not in text and "import " not in text and "reference.py" not in text


def test_the_standalone_page_is_offline_and_carries_each_removal():
    source = _source("fault00")
    snap = source.run(STARTER_FAILURES["fault00"][1])
    html = page.build(source, snap, "Debugger: a run of fault00")
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing to fetch: it opens offline
    assert "<script>" in html and "fl-dbg-slider" in html
    assert 'data-fl-variant="v1">Remove fault crash clean#2/1 step=0</button>' in html
    variant = html.split('<template data-fl-variant-key="v1">', 1)[1].split("</template>", 1)[0]
    assert "pipeline-finishes holds on this run" in variant
    assert "Back to the failing run" in variant


def test_a_failing_check_and_its_debugger_run_the_reported_schedule_twice(monkeypatch):
    """Once in the search, once journaled (the determinism check's run, with the learner's
    lines): the report's moves and the debugger read that run, nothing runs it a third time."""
    from faultlines.grader import runner

    ran: list[tuple] = []
    real = runner._run

    def spy(ex, module, scenario, schedule, *args):
        ran.append(schedule)
        return real(ex, module, scenario, schedule, *args)

    monkeypatch.setattr(runner, "_run", spy)
    ex = exercise.load("fault00")
    sub = submission.from_file(REPO / "exercises/fault00/starter.py", ex.entry, ex.line_budget)
    runs = grade.Runs(ex, sub)
    report = grade.grade(ex, sub, runs=runs)
    failure = report.first_failure
    assert failure is not None
    reported = runs.reported[(failure.scenario, tuple(failure.schedule))]
    source = session.ExerciseSource(ex, sub, failure.scenario, failure.invariant)
    snap = source.snapshot(reported)
    assert ran.count(tuple(failure.schedule)) == 2 and source.runs == 0
    assert snap.model.reading is reported.reading and snap.moment.index == 14
    assert snap.model.events[3].site.endswith("starter.py:20")  # the learner's lines, noted by that run
