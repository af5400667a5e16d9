"""Lesson 5's settle_order under crashes: the double charge and its three fixes, counted."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from faultlines.stories.payments import FIXES, STEPS, grid, settle
from faultlines.widgets import idempotency as widget
from faultlines.widgets import svgplot


def test_a_crash_after_the_charge_charges_twice_and_ray_get_succeeds():
    run = settle("append")  # the first attempt dies after its one effect, before returning
    assert (run.result, run.attempts, run.charges) == ("ch_2", 2, 2)
    assert [line.split()[1] for line in run.effects.splitlines()] == ["settle_order#1/1", "settle_order#1/2"]
    assert run.token == "seed=0 faults=[crash settle_order#1/1 step=1]"
    assert "reason=injected crash before step 1 of settle_order#1/1, as it returns" in run.timeline()


def test_a_crash_before_the_charge_or_no_crash_charges_once():
    assert settle("append", step=0).charges == 1
    assert settle("append", step=None).charges == 1


def test_every_fix_charges_once_at_every_crash_point():
    assert grid() == {
        "append": [1, 2],
        "idempotency key": [1, 1],
        "upsert": [1, 1],
        "temp + commit": [1, 1, 1, 1, 1],
    }
    assert grid(crashes=2)["append"] == [1, 3]  # two dying attempts after the charge: three charges


def test_idempotency_key_returns_the_first_charge():
    run = settle("idempotency key")
    assert (run.result, run.charges) == ("ch_1", 1)
    assert run.effects.count("key=order-7") == 2  # both attempts called the API


def test_temp_and_commit_short_circuits_a_retry_after_the_commit_and_leaves_a_temp_after_a_crash_before_it():
    after_commit = settle("temp + commit")  # step 4: after the rename
    assert (after_commit.attempts, after_commit.charges, after_commit.leftovers) == (2, 1, 0)
    assert "settle_order#1/2" not in after_commit.effects  # the retry only looked
    before_rename = settle("temp + commit", step=3)
    assert (before_rename.charges, before_rename.leftovers) == (1, 1)


def test_retries_exhausted_the_error_hides_the_payments():
    run = settle("append", crashes=4)
    assert (run.result, run.attempts, run.charges) == ("WorkerCrashedError", 4, 4)
    keyed = settle("idempotency key", crashes=4)
    assert (keyed.result, keyed.charges) == ("WorkerCrashedError", 1)
    assert settle("append", max_retries=0).result == "WorkerCrashedError"


def test_bad_choices_are_refused_in_words():
    with pytest.raises(ValueError, match="unknown fix 'retry harder'"):
        settle("retry harder")
    with pytest.raises(ValueError, match="between 0 and 1"):
        settle("upsert", step=2)


def test_widget_text_chart_and_table():
    choice = widget.Choice("append", 1, 1)
    run = choice.run()
    assert widget.summary(choice, run) == (
        "append: 1 attempt(s) die after 'charge the card', before returning. "
        "ray.get gave ch_2 after 2 attempt(s); the customer paid 2 time(s)."
    )
    assert widget.where("temp + commit", 0) == "before it does anything (look for a committed file)"
    charges = grid()
    root = ET.fromstring(svgplot.render(widget.chart(choice, charges)))
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == sum(len(STEPS[f]) + 1 for f in FIXES)
    assert "<td>append</td><td>1</td><td>2</td>" in widget.table_html(charges)


def test_live_widget_follows_its_controls():
    pytest.importorskip("ipywidgets")
    lab = widget.IdempotencyLab()
    assert "the customer paid 2 time(s)" in lab.text.value
    lab.fix.value = "upsert"
    assert lab.step.max == 1 and "the customer paid 1 time(s)" in lab.text.value
    lab.fix.value = "temp + commit"
    assert lab.step.max == 4 and lab.step.value == 4  # "after everything" stays after everything
    lab.step.value = 3
    assert "1 temp file(s) left behind" in lab.text.value
    lab.crashes.value = 0
    assert "no attempt dies" in lab.text.value and "after 1 attempt(s)" in lab.text.value
