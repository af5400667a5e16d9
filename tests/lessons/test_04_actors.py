"""Lesson 4's counter actor and its widget: restarts, task retries and checkpoints, counted."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from faultlines.stories.actor_lives import DIED, UNAVAILABLE, run_counter, timeline
from faultlines.widgets import actor_lives as widget
from faultlines.widgets import svgplot


def test_the_documentation_setup_answers_fifty_calls_in_five_lives():
    run = run_counter()  # max_restarts=4, max_task_retries=-1, exit after 10 answers
    assert run.values == list(range(1, 11)) * 5
    assert [o.error for o in run.outcomes[50:]] == [DIED] * 10
    assert (run.lives, run.executions) == (5, 55)  # each crashing call started once more
    assert (run.final, run.forgotten) == (10, 40)


def test_without_task_retries_the_deaths_reach_the_caller():
    run = run_counter(max_task_retries=0)
    texts = [o.text() for o in run.outcomes]
    assert texts[10] == UNAVAILABLE and texts[11] == "1"  # the dying call fails; the next is served
    assert (len(run.values), run.count(UNAVAILABLE), run.count(DIED)) == (50, 4, 6)


def test_a_restart_recovers_to_the_last_checkpoint_not_the_last_call():
    run = run_counter(calls=20, crash_every=7, max_restarts=2, checkpoint_every=5)
    assert run.values[:10] == [1, 2, 3, 4, 5, 6, 7, 6, 7, 8]  # died at 7, came back at 5
    assert (run.checkpoints, run.final, run.forgotten) == (3, 16, 4)
    forgetful = run_counter(calls=20, crash_every=7, max_restarts=2)
    assert forgetful.values == [1, 2, 3, 4, 5, 6, 7] * 2 + [1, 2, 3, 4, 5, 6]
    assert forgetful.forgotten == 14


def test_a_checkpoint_further_apart_than_the_crashes_saves_nothing():
    run = run_counter(checkpoint_every=10, crash_every=9)
    assert max(run.values) == 9 and run.checkpoints == 0


def test_no_restarts_means_the_first_death_is_final():
    run = run_counter(max_restarts=0)
    assert run.values == list(range(1, 11)) and run.count(DIED) == 50 and run.lives == 1


def test_outcome_lines_and_timeline_read_like_the_page():
    run = run_counter(calls=12, crash_every=5, max_restarts=1, max_task_retries=0)
    assert run.lines().splitlines() == [
        "calls  1-10  1 2 3 4 5 Unavail 1 2 3 4",
        "calls 11-12  5 Died",
    ]
    story = timeline(run.log_text).splitlines()
    assert story[-1].endswith("state=DEAD cause=worker_died")
    assert sum("actor.start" in line for line in story) == 2
    assert any(line.startswith("  1.0 s  actor.start") for line in story)  # restarted 1 s later


def test_bad_options_are_refused_in_words():
    with pytest.raises(ValueError, match="crash_every must be at least 1"):
        run_counter(crash_every=0)


def test_chart_and_summary_carry_every_count():
    options = widget.Options(max_task_retries=0, checkpoint_every=3)
    run = options.run()
    text = widget.summary(options, run)
    assert text.startswith(
        "50 of 60 calls returned a count; 4 raised ActorUnavailableError and 6 ActorDiedError."
    )
    assert f"Final count {run.final}: {run.forgotten} answered increments forgotten." in text
    root = ET.fromstring(svgplot.render(widget.chart(options, run)))
    circles = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == 60  # one dot per call: 50 counts and 10 errors at 0


def test_live_widget_reruns_on_every_control():
    pytest.importorskip("ipywidgets")
    lab = widget.ActorLivesLab()
    assert "50 of 60 calls returned a count" in lab.text.value
    lab.restarts.value = 0
    assert "10 of 60 calls returned a count" in lab.text.value
    lab.restarts.value, lab.retries.value = 4, 0
    assert "4 raised ActorUnavailableError" in lab.text.value
    lab.checkpoint.value = 5
    assert "Final count 50: 0 answered increments forgotten" in lab.text.value
    lab.crash.value = 7  # the widget's run is the model's run with the same options
    expected = run_counter(calls=60, crash_every=7, max_task_retries=0, checkpoint_every=5)
    assert f"Final count {expected.final}: {expected.forgotten} answered" in lab.text.value


def test_a_workers_memory_is_its_own_as_on_real_ray():
    from conformance.observations import load_recorded
    from faultlines.stories import worker_memory
    from miniray import sim

    recorded = load_recorded()["worker_memory"]
    tasks = sim.run(worker_memory.global_list).value
    assert tasks == {"tasks_saw": [1, 2, 3, 4], "driver_sees": []}
    assert [seen for seen, _ in recorded["global_in_task"]["_views_by_process"][0]] == tasks["tasks_saw"]
    assert recorded["global_in_task"]["driver_list_after"] == tasks["driver_sees"]
    closure = sim.run(worker_memory.closure_counter).value
    on_ray = recorded["closure_across_restart"]
    assert (closure["before"], closure["after_restart"], closure["driver_sees"]) == (
        on_ray["before"],
        on_ray["after_restart"]["value"],
        on_ray["driver_closure"],
    )
    kept = sim.run(lambda: worker_memory.closure_counter(keep_in_instance=True)).value
    assert kept["after_restart"] == 1  # in the instance or outside it: a restart starts over
