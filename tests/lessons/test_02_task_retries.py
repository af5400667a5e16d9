"""Lesson 2's course code: the retry stories on miniray, the retry arithmetic, the retry budget
measured against its model, an OOM kill on miniray's memory monitor, and the widget."""

from __future__ import annotations

import functools
import math

import pytest

from faultlines.models.retries import budget_cost, mixed_cost, retry_cost
from faultlines.stories import retries as story
from faultlines.stories.retry_budget import TokenBucket, budgeted_retries, per_task_retries
from faultlines.timeline import observe
from faultlines.widgets.retry_cost import retry_cost_widget
from miniray import exceptions as E
from miniray import sim


def test_max_retries_alone_does_not_retry_an_application_exception():
    observed = observe(story.fetch_quote)
    assert isinstance(observed.run.error, E.RayTaskError)
    assert isinstance(observed.run.error, ConnectionResetError)
    assert observed.lanes.attempts() == 1
    assert "retry=False" in observed.run.log_text


def test_listed_exception_is_retried_until_the_outage_ends():
    observed = observe(functools.partial(story.fetch_quote, retry_exceptions=[ConnectionError]))
    assert observed.run.value == {"item": "A-17", "price": 42}
    assert (observed.lanes.attempts(), observed.run.virtual_time) == (3, 3.5)


def test_retry_exceptions_true_retries_a_terminal_failure_to_the_end():
    everything = observe(story.parse_order)
    listed = observe(functools.partial(story.parse_order, retry_exceptions=[ConnectionError]))
    assert isinstance(everything.run.error, ValueError) and everything.lanes.attempts() == 4
    assert isinstance(listed.run.error, ValueError) and listed.lanes.attempts() == 1


def test_worker_crash_is_retried_by_default():
    assert observe(story.crash_worker).lanes.attempts() == 4
    none = observe(functools.partial(story.crash_worker, max_retries=0))
    assert isinstance(none.run.error, E.WorkerCrashedError) and none.lanes.attempts() == 1


def test_retry_arithmetic():
    c = retry_cost(0.3, 3)
    assert c.attempts == pytest.approx((1 - 0.3**4) / 0.7) == pytest.approx(1.417)
    assert c.success == pytest.approx(0.9919) and c.wasted == pytest.approx(1.417 - 0.9919)
    assert (retry_cost(1.0, 3).attempts, retry_cost(1.0, 3).success) == (4.0, 0.0)
    assert (retry_cost(0.0, 3).attempts, retry_cost(0.5, 0).attempts) == (1.0, 1.0)
    with pytest.raises(ValueError, match="probability"):
        retry_cost(1.5, 3)
    with pytest.raises(ValueError, match="max_retries"):
        retry_cost(0.5, -1)


def test_listing_transient_types_saves_the_terminal_attempts():
    everything = mixed_cost(0.2, 0.1, 3, retry_terminal=True)
    listed = mixed_cost(0.2, 0.1, 3, retry_terminal=False)
    assert everything.success == listed.success
    assert everything.attempts - listed.attempts == pytest.approx(0.1 * 3)


def test_budget_caps_amplification_at_one_plus_the_budget():
    assert budget_cost(0.05, 3, 0.1) == retry_cost(0.05, 3)  # under budget: unchanged
    for p in (0.3, 0.6, 0.9, 1.0):
        assert budget_cost(p, 3, 0.1).attempts == pytest.approx(1.1, abs=1e-9)
        assert budget_cost(p, 3, 0.1).success <= retry_cost(p, 3).success
    assert budget_cost(0.9, 3, 0.0).attempts == 1.0


@pytest.mark.parametrize("p", [0.3, 0.9])
def test_miniray_runs_land_on_the_models(p):
    free = sim.run(functools.partial(per_task_retries, 200, p, 3), seed=0).value
    capped = sim.run(functools.partial(budgeted_retries, 200, p, 3, 0.1), seed=0).value
    assert math.isclose(free.attempts_per_task, retry_cost(p, 3).attempts, abs_tol=0.15), free
    assert math.isclose(capped.attempts_per_task, 1.1, abs_tol=0.02), capped
    assert math.isclose(capped.success_rate, budget_cost(p, 3, 0.1).success, abs_tol=0.05), capped


def test_token_bucket():
    bucket = TokenBucket(0.5, tokens=0.0, cap=1.0)
    assert not bucket.spend()
    bucket.earn()
    bucket.earn()
    bucket.earn()
    assert bucket.tokens == 1.0 and bucket.spend() and not bucket.spend()


def test_a_task_alone_with_max_retries_zero_fails_with_out_of_memory_error():
    def alone():
        ray_ = __import__("miniray")
        ray_.init(num_cpus=2, memory=16e9)
        sim.use_memory("hog", 20e9)

        @ray_.remote(max_retries=0)
        def hog():
            import time

            time.sleep(5)

        return ray_.get(hog.remote())

    run = sim.run(alone, seed=0)
    assert isinstance(run.error, E.OutOfMemoryError)
    assert str(run.error).startswith("1 worker(s) were killed due to the node running low on memory.")


def test_widget_numbers_follow_the_sliders_and_the_measurement():
    widget = retry_cost_widget()
    p, retries, budget, measure, plot, table = widget.children
    assert "<td>1.417</td>" in table.value and "<td>99.2%</td>" in table.value
    p.value = 1.0
    assert "<td>4.000</td>" in table.value and "<td>0.0%</td>" in table.value
    retries.value = 0
    assert "<td>1.000</td>" in table.value
    p.value, retries.value = 0.3, 3
    measure.value = True
    assert "measured in miniray (200 tasks)" in table.value and plot.value.count("<circle") == 2
