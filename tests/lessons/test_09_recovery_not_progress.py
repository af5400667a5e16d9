"""Lesson 9's model, widget and numbers: seed 000's case sampled per queue policy (Ray #65147)."""

from __future__ import annotations

import json
import re
import runpy
from pathlib import Path

import pytest

from faultlines.stories import pg_recovery
from faultlines.stories.pg_recovery import SEED_HOST_COST_S, attempt_trace, recovery_latency
from miniray.placement.queue import Backoff

REPO = Path(__file__).resolve().parents[2]
RECORDED = REPO / "tests/conformance/recorded/ray-2.60.0.json"
RATE = 1 / SEED_HOST_COST_S  # 222,222 attempts per virtual second


def test_ray_2_60_trace_spins_and_never_tries_pg_c():
    trace = attempt_trace("ray-2.60")
    assert trace.final("PG_C") == 0 and trace.final_state["PG_C"] == "PENDING"
    assert trace.pg_c_created_at is None
    assert trace.final_state["PG_A"] == trace.final_state["PG_B"] == "RESCHEDULING"
    # PG_A alone between the two losses runs at the full rate; afterwards the two share it.
    i0, i1 = trace.times.index(0.5), trace.times.index(1.5)
    alone = (trace.attempts["PG_A"][i1] - trace.attempts["PG_A"][i0]) / 1.0
    assert abs(alone - RATE) < 2
    assert abs(trace.rate("PG_A", 2.0) - RATE / 2) < 2 and abs(trace.rate("PG_B", 2.0) - RATE / 2) < 2
    assert trace.attempts["PG_A"][: trace.times.index(0.45) + 1] == (1,) * 10  # before N2 dies
    assert any("PG_A -> PG_B -> PG_A" in line for line in trace.diagnosis)
    assert any("PG_C is due but has had 0 scheduling attempts" in line for line in trace.diagnosis)


def test_backoff_trace_gives_pg_c_its_turn_and_keeps_the_cycle():
    trace = attempt_trace("backoff")
    assert trace.final("PG_C") == 1 and trace.final_state["PG_C"] == "CREATED"
    assert trace.pg_c_created_at == 1.05  # asked at 1.0; created 4.5 us later, seen at the next sample
    assert trace.final("PG_A") < 10 and trace.final("PG_B") < 10
    assert [line for line in trace.diagnosis if "cycle" in line]
    assert not [line for line in trace.diagnosis if "starvation" in line]


def test_bounded_policy_spins_for_its_window_then_backs_off():
    trace = attempt_trace("bounded 10 ms")
    # 10 ms of strict priority at 222,222 attempts a second, then a few backed-off retries.
    assert 2_222 <= trace.final("PG_A") < 2_222 + 10
    assert trace.final("PG_C") == 1


def test_real_ray_speed_scales_the_counters_but_not_pg_c():
    fast = attempt_trace("ray-2.60")
    slow = attempt_trace("ray-2.60", attempt_cost_s=1 / pg_recovery.REAL_RAY_ONE_GROUP_RATE)
    assert slow.final("PG_C") == 0
    ratio = (fast.final("PG_A") - 1) / (slow.final("PG_A") - 1)
    assert ratio == pytest.approx(RATE / pg_recovery.REAL_RAY_ONE_GROUP_RATE, rel=1e-3)


def test_the_real_ray_rate_constant_is_the_recorded_one():
    recorded = json.loads(RECORDED.read_text())["scenarios"]["placement_group_starvation"]
    assert pg_recovery.REAL_RAY_ONE_GROUP_RATE == recorded["after_n2_loss"]["_pg_a_attempts_per_s"]


def test_backoff_costs_recovery_latency():
    assert recovery_latency("ray-2.60") < 2 * SEED_HOST_COST_S
    assert 0.06 < recovery_latency("backoff") <= 2.0


def test_trace_is_deterministic_and_bad_input_is_one_message():
    assert attempt_trace("backoff") == attempt_trace("backoff")
    with pytest.raises(ValueError, match="unknown policy 'fifo'"):
        attempt_trace("fifo")
    with pytest.raises(ValueError, match="step_s > 0"):
        attempt_trace("backoff", step_s=0)


def test_widget_switches_policy_and_the_pg_c_row_changes():
    pytest.importorskip("ipywidgets")
    from faultlines.widgets import pg_queue

    box = pg_queue.queue_policy_widget()
    policy, speed, plot, graph, numbers = box.children
    assert (
        '<tr data-pg="PG_C"><td>PG_C</td><td style="text-align:right">0</td><td>PENDING</td>' in numbers.value
    )
    assert "PG_C: 0 scheduling attempts, PENDING" in numbers.value
    assert "policy ray-2.60" in plot.value and plot.value.startswith("<svg")
    policy.value = "backoff"
    assert (
        '<tr data-pg="PG_C"><td>PG_C</td><td style="text-align:right">1</td><td>CREATED</td>' in numbers.value
    )
    assert "PG_C: 1 scheduling attempt, CREATED" in numbers.value and "policy backoff" in plot.value
    speed.value = list(pg_queue.SPEEDS)[1]
    policy.value = "ray-2.60"
    assert "PG_C: 0 scheduling attempts, PENDING" in numbers.value
    assert set(policy.options) == set(pg_recovery.POLICY_CHOICES)
    assert "fl-wait--cycle" in graph.value  # the cycle stands whatever the policy


def _points(svg: str, label: str) -> list[tuple[float, float]]:
    found = re.search(rf'data-label="{label}" points="([^"]+)"', svg)
    assert found, label
    return [tuple(map(float, point.split(","))) for point in found.group(1).split()]


@pytest.mark.parametrize("policy", ["ray-2.60", "backoff"])
def test_the_widgets_chart_is_on_a_log_scale_with_zero_a_level_of_its_own(policy):
    """Issue 32: on a linear scale PG_C's 0 was a row of dots on the axis, and "PG_C asked" ran
    into "N3 lost" and the legend. Now 0 is a line below 1, PG_C's line starts when it is asked
    for and has no dots, the events' labels take rows that keep them apart, and the legend has a
    row of its own with each counter's last value."""
    from faultlines.widgets import log_chart, pg_queue

    trace = attempt_trace(policy)
    svg = pg_queue.chart(trace)
    assert "<circle" not in svg
    ticks = re.findall(r'text-anchor="end" fill="[^"]+">([^<]+)</text>', svg)
    assert ticks[:2] == ["0", "1"] and ticks[-1] in {"10", "1M"}, ticks
    pg_c, pg_a = _points(svg, "PG_C"), _points(svg, "PG_A")
    left = pg_a[0][0]
    asked_x = left + (pg_recovery.PG_C_AT / trace.times[-1]) * (pg_a[-1][0] - left)
    assert abs(pg_c[0][0] - asked_x) < 0.1  # PG_C exists from "PG_C asked" on
    zero = max(y for _, y in pg_a + pg_c)
    if policy == "ray-2.60":
        assert {y for _, y in pg_c} == {zero}  # its 0 all along, on the 0 line
    events = [log_chart.Event(t, label) for t, label in pg_recovery.EVENTS]
    rows = log_chart.rows_for(events, lambda x: left + x / trace.times[-1] * (pg_a[-1][0] - left))
    assert rows == [0, 1, 0]  # "PG_C asked" takes the second row: its neighbours are too close
    legend = re.findall(r'class="fl-legend">([^<]+)<', svg)
    assert legend == [f"{name} {trace.final(name):,}" for name in pg_recovery.GROUPS]


@pytest.mark.parametrize("policy", ["ray-2.60", "backoff"])
def test_the_widget_draws_the_wait_for_cycle_under_either_policy(policy):
    """The cycle PG_A -> PG_B -> PG_A stands under both policies (the page's figure draws both):
    its two arrows are drawn as the cycle's, each labelled with the node the waiter needs, and
    PG_C's box says what its counter says; a 0 that starves is marked."""
    from faultlines.widgets import pg_queue

    trace = attempt_trace(policy)
    svg = pg_queue.waits(trace)
    cyclic = re.findall(r'<g class="fl-wait fl-wait--cycle" data-waiter="(\w+)" data-holder="(\w+)">', svg)
    assert sorted(cyclic) == [("PG_A", "PG_B"), ("PG_B", "PG_A")]
    for waiter, _, node in trace.waits:
        assert f"{waiter} waits for {node}" in svg
    assert ">cycle<" in svg and "Cycle: PG_A -&gt; PG_B -&gt; PG_A" in svg
    starved = re.search(r'data-pg="PG_C"[^>]*stroke-width="3"', svg) is not None
    assert starved == (trace.final("PG_C") == 0)
    assert f"{trace.final('PG_C'):,} attempt" in svg


def test_page_numbers_come_from_the_seed_the_recording_and_miniray():
    made = runpy.run_path(str(REPO / "lessons/numbers/09_recovery_not_progress.py"), run_name="__numbers__")
    n = made["numbers"]()
    recorded = json.loads(RECORDED.read_text())["scenarios"]["placement_group_starvation"]
    # The seed's window: (2.72M - 2.38M + 348,000 - 9,700) / 3 s.
    assert n["seed_rate"] == "226,000"
    assert n["ray_rate_one"] == f"{recorded['after_n2_loss']['_pg_a_attempts_per_s']:,}"
    assert n["ray_rate_two"] == f"{sum(recorded['after_n3_loss']['_attempts_in_window']):,}"
    assert n["ray_pg_c_attempts"] == "0" and n["ray_pg_c_state"] == "PENDING"
    assert n["story_pg_c"] == "0" and n["story_pg_c_ready"] == "False"
    # PG_A spins alone for 6 s, then shares the loop with PG_B for 3 s.
    assert int(n["story_pg_a"].replace(",", "")) == pytest.approx(6 * RATE + 1.5 * RATE, abs=3)
    assert n["backoff_pg_c_attempts"] == "1" and n["backoff_cap_ms"] == "1000"
    b = Backoff()
    assert n["backoff_schedule_ms"].split(", ")[:3] == [f"{b.next() * 1000:g}" for _ in range(3)]
    assert (
        "PG_A -> PG_B -> PG_A" in n["story_log"]
        and "PG_C: state=PENDING scheduling_attempt=0" in n["story_log"]
    )
