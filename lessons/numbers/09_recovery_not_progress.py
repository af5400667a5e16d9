"""Numbers on lesson 9's page: the placement-group recovery case study's run on miniray, real Ray
2.60's recording beside it, and the case study's own window (quoted from it, then reduced to a
rate here, so the page types nothing)."""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import miniray
from conformance.recorded_view import compare
from faultlines.reading import Kind, Lane, Reading, table
from faultlines.stories import pg_recovery
from faultlines.stories.pg_recovery import SeedCase
from miniray import sim
from miniray.placement import ATTEMPT_COST_S, Backoff

RECORDED = Path(__file__).resolve().parents[2] / "tests/conformance/recorded/ray-2.60.0.json"
# The case study's own observation: over one three-second window PG_A's counter went from about 2.38
# million to 2.72 million and PG_B's from about 9,700 to 348,000.
SEED_WINDOW_S = 3.0
SEED_PG_A = (2_380_000, 2_720_000)
SEED_PG_B = (9_700, 348_000)
# The story's records on the page: nodes removed and added, and every placement group's.
STORY_KINDS = (Kind.CLUSTER_REMOVE_NODE, *table.kinds(Lane.GROUPS), Kind.NODE_ADD)


def _story() -> tuple[str, dict[str, str]]:
    """The failing run: lose N2, ask for PG_C, wait, lose N3, wait. Log lines and counters."""
    with SeedCase("ray-2.60") as case:
        log_from = len(sim.event_log())
        case.lose(2)
        sim.sleep(1.0)
        case.add_pg_c()
        pg_c_ready = case.groups["PG_C"].wait(timeout_seconds=5)
        case.lose(3)
        sim.sleep(3.0)
        end = sim.now()
        counts = {name: case.attempts(name) for name in ("PG_A", "PG_B", "PG_C")}
        states = {name: case.state(name) for name in ("PG_A", "PG_B", "PG_C")}
        lines = [
            f"{r.time:9.6f}  {r.kind:<19} " + " ".join(f"{k}={v}" for k, v in r.fields.items() if k != "id")
            for r in Reading(sim.event_log()[log_from:]).of(*STORY_KINDS)
        ]
        lines.append(f"-- placement_group_table() at t={end:.1f} s:")
        lines += [f"   {n}: state={states[n]} scheduling_attempt={counts[n]}" for n in counts]
        lines.append("-- miniray.placement.diagnose():")
        for line in case.diagnosis().lines():  # wrapped: the page is read on phones too
            lines += textwrap.wrap(line.strip(), 72, initial_indent="   ", subsequent_indent="     ")
        return "\n".join(lines), {
            "story_end_s": f"{end:.0f}",
            "story_pg_a": f"{counts['PG_A']:,}",
            "story_pg_b": f"{counts['PG_B']:,}",
            "story_pg_c": f"{counts['PG_C']}",
            "story_pg_c_ready": str(pg_c_ready),
        }


def _unblock_us() -> str:
    """Ray 2.60 policy: once PG_B is removed, how fast PG_A and PG_C are both created."""
    with SeedCase("ray-2.60") as case:
        case.lose(2)
        case.lose(3)
        case.add_pg_c()
        sim.sleep(2.0)
        start = sim.now()
        case.remove("PG_B")
        miniray.get([case.groups["PG_A"].ready(), case.groups["PG_C"].ready()])
        return f"{(sim.now() - start) * 1e6:.0f}"


def _backoff() -> dict[str, str]:
    with SeedCase("backoff") as case:
        case.lose(2)
        case.lose(3)
        sim.sleep(3.0)
        a3 = case.attempts("PG_A")
        start = sim.now()
        case.add_pg_c()
        miniray.get(case.groups["PG_C"].ready())
        c_us = (sim.now() - start) * 1e6
        sim.sleep(30.0)
        return {
            "backoff_pg_a_3s": f"{a3}",
            "backoff_pg_c_us": f"{c_us:.1f}",
            "backoff_pg_c_attempts": f"{case.attempts('PG_C')}",
            "backoff_cap_ms": f"{case.row('PG_A')['stats']['highest_retry_delay_ms']:.0f}",
            "backoff_cap_s": f"{case.row('PG_A')['stats']['highest_retry_delay_ms'] / 1000:g}",
            "backoff_cycle": case.diagnosis().cycle_strings()[0],
        }


CONTRACT_TEST = "test_backoff_keeps_fresh_recovery_first_then_delays_grow"

# The story as real Ray 2.60 ran it (tests/conformance/scenarios/placement_group_starvation.py).
RAY_ROWS = [
    (
        "PG_A after N2 dies",
        lambda o: (
            f"{o['after_n2_loss']['pg_a_state']}, retry delay {o['after_n2_loss']['pg_a_retry_delay_ms']:g} ms"
        ),
    ),
    ("its counter", lambda o: "grows" if o["after_n2_loss"]["pg_a_attempts_grow"] else "still"),
    (
        "PG_C, its resource free",
        lambda o: f"{o['pg_c_starved']['state']}, {o['pg_c_starved']['attempts']} attempts",
    ),
    (
        "after N3 dies too",
        lambda o: (
            f"both counters grow, PG_C at {o['after_n3_loss']['pg_c_attempts']}"
            if o["after_n3_loss"]["both_attempts_grow"]
            else "other"
        ),
    ),
    ("PG_B removed", lambda o: " and ".join(o["after_removing_pg_b"]["created"]) + " created"),
]


def _contract_test() -> str:
    """The regression test that states backoff's contract, as it stands in the test suite."""
    path = Path(__file__).resolve().parents[2] / "tests/unit/test_placement_queue.py"
    source = path.read_text()
    node = next(n for n in ast.parse(source).body if getattr(n, "name", "") == CONTRACT_TEST)
    return "\n".join(source.splitlines()[node.lineno - 1 : node.end_lineno])


# PG_A's and PG_C's rows of placement_group_table() a second after N2 died, as each backend gave
# them (tests/conformance/scenarios/lesson09_pg_table.py; shown, never compared).
TABLE_SAID = [("rows", lambda o: o["_said_pg_a"] + "\n" + o["_said_pg_c"])]


def numbers() -> dict[str, str]:
    out: dict[str, str] = {"ray_table": compare("placement_group_starvation", RAY_ROWS).table()}
    out["ray_says"], out["miniray_says"] = compare("lesson09_pg_table", [], said=TABLE_SAID).said_by("rows")
    out["contract_test"] = _contract_test()
    story, counts = _story()
    out["story_log"] = story
    out.update(counts)

    seed_rate = (SEED_PG_A[1] - SEED_PG_A[0] + SEED_PG_B[1] - SEED_PG_B[0]) / SEED_WINDOW_S
    out["seed_pg_a_from"] = f"{SEED_PG_A[0] / 1e6:.2f} million"
    out["seed_pg_a_to"] = f"{SEED_PG_A[1] / 1e6:.2f} million"
    out["seed_pg_b_from"] = f"{SEED_PG_B[0]:,}"
    out["seed_pg_b_to"] = f"{SEED_PG_B[1]:,}"
    out["seed_window_s"] = f"{SEED_WINDOW_S:.0f}"
    out["seed_rate"] = f"{round(seed_rate, -3):,.0f}"
    out["miniray_rate"] = f"{1 / ATTEMPT_COST_S:,.0f}"
    out["miniray_cost_us"] = f"{ATTEMPT_COST_S * 1e6:g}"

    recorded = json.loads(RECORDED.read_text())
    ray = recorded["scenarios"]["placement_group_starvation"]
    window = ray["after_n3_loss"]["_attempts_in_window"]
    two = sum(window)  # the scenario's window is one second
    out["ray_version"] = recorded["ray"]
    out["ray_rate_one"] = f"{ray['after_n2_loss']['_pg_a_attempts_per_s']:,}"
    out["ray_rate_two"] = f"{two:,}"
    out["ray_rate_two_a"] = f"{window[0]:,}"
    out["ray_rate_two_b"] = f"{window[1]:,}"
    out["ray_pg_c_attempts"] = f"{ray['pg_c_starved']['attempts']}"
    out["ray_pg_c_state"] = ray["pg_c_starved"]["state"]
    out["ray_pg_c_attempts_cycle"] = f"{ray['after_n3_loss']['pg_c_attempts']}"
    out["ray_retry_delay_ms"] = f"{ray['after_n2_loss']['pg_a_retry_delay_ms']:.0f}"
    out["seed_over_ray"] = f"{seed_rate / two:.1f}"
    out["ray_unblock_ms"] = f"{max(ray['after_removing_pg_b']['_seconds'].values()) * 1000:.0f}"
    if pg_recovery.REAL_RAY_ONE_GROUP_RATE != ray["after_n2_loss"]["_pg_a_attempts_per_s"]:
        raise ValueError("faultlines.stories.pg_recovery.REAL_RAY_ONE_GROUP_RATE differs from the recording")

    out["miniray_unblock_us"] = _unblock_us()
    out.update(_backoff())
    b = Backoff()
    out["backoff_schedule_ms"] = ", ".join(f"{b.next() * 1000:g}" for _ in range(7))
    out["latency_ray_us"] = f"{pg_recovery.recovery_latency('ray-2.60') * 1e6:.1f}"
    out["latency_backoff_s"] = f"{pg_recovery.recovery_latency('backoff'):.1f}"

    bounded = pg_recovery.attempt_trace("bounded 10 ms")
    out["bounded_pg_a"] = f"{bounded.final('PG_A'):,}"
    out["bounded_pg_c"] = f"{bounded.final('PG_C')}"
    hot = pg_recovery.attempt_trace("ray-2.60")
    out["trace_pg_a"] = f"{hot.final('PG_A'):,}"
    out["trace_pg_c"] = f"{hot.final('PG_C')}"
    return out


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
