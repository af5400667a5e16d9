"""Numbers on lesson 8's page: the bad-machine batches, packing runs and the admission window on
miniray; the bad machine and the head node's loss as real Ray 2.60 recorded them (tests/conformance)."""

from __future__ import annotations

import inspect
import textwrap

from conformance.recorded_view import compare
from faultlines.stories import packing
from faultlines.stories.admission import flood, peak_in_flight
from faultlines.stories.attribution import BAD_INPUT_ROWS, GOOD_ROWS, run_batch
from miniray import sim


def _seen(outcome: dict) -> str:
    """A recorded outcome in a word: the value, or the error's class."""
    return f"`{outcome['error']['class']}`" if "error" in outcome else repr(outcome["value"])


# The story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson08_bad_node.py).
BAD_NODE_ROWS = [
    ("rows that failed, healthy nodes up", lambda o: "some" if o["some_rows_failed"] else "none"),
    ("how many (timing decides)", lambda o: f"{o['_failed_rows']} of 12", False),
    (
        "each failed row",
        lambda o: (
            "ran four times, always on the bad node"
            if o["failed_rows_ran_four_times_all_failing"]
            else "other"
        ),
    ),
    (
        "the node that ran the most attempts",
        lambda o: "the bad one" if o["bad_node_ran_the_most_attempts"] else "a healthy one",
    ),
    ("`ray.get` raised", lambda o: ", ".join(f"`{e}`" for e in o["errors"])),
]

# What the driver saw for the same program (shown, never compared): the first retries, the error.
SAID = [
    ("retries", lambda o: "\n".join(o["_said_retries"].splitlines()[:3])),
    ("error", lambda o: o["_said_error"]),
]

# tests/conformance/scenarios/head_node_loss.py: the head's GCS killed under a running job.
HEAD_ROWS = [
    ("a running task", lambda o: _seen(o["gcs_killed"]["running_task_after"])),
    ("a call to a live actor", lambda o: _seen(o["gcs_killed"]["actor_call_after"])),
    ("a new task, idle worker", lambda o: _seen(o["gcs_killed"]["new_task_after"])),
    ("a new task needing a new worker", lambda o: _seen(o["gcs_killed"]["task_needing_new_worker_after"])),
    ("a new actor", lambda o: _seen(o["gcs_killed"]["new_actor_after"])),
    (
        "the driver, after the reconnect timeout",
        lambda o: "exits" if o["gcs_killed"]["exit_says_gcs_unreachable"] else "carries on",
    ),
]


def numbers() -> dict[str, str]:
    out: dict[str, str] = {
        "nodes": str(packing.NODES),
        "cpus_per_node": str(packing.CPUS_PER_NODE),
        "total_cpus": str(packing.NODES * packing.CPUS_PER_NODE),
    }
    spread, packed = packing.layout(14, "default"), packing.layout(14, "pack")
    out["frag_tasks"] = str(spread.small_tasks)
    out["frag_util"] = f"{100 * spread.utilisation:.0f}"
    out["frag_free"] = f"{sum(spread.free):g}"
    out["frag_free_per_node"] = ", ".join(f"{f:g}" for f in spread.free)
    out["frag_largest"] = f"{spread.largest_free:g}"
    out["frag_big"] = str(spread.big_cpus)
    out["frag_big_started"] = "starts" if spread.big_started else "is queued"
    out["pack_used_per_node"] = ", ".join(f"{u:g}" for u in packed.used)
    out["pack_big_started"] = "starts" if packed.big_started else "is queued"
    for name, layouts in (("spread", packing.sweep("default")), ("pack", packing.sweep("pack"))):
        first = packing.first_refusal(layouts)
        out[f"{name}_refuses_at"] = f"{100 * first.utilisation:.0f}" if first else "never"

    none = run_batch(GOOD_ROWS, "none", bad_node=1)
    lines = textwrap.dedent(none.log_text).splitlines()
    out["bad_log"] = "\n".join([*lines[:10], f"... {len(lines) - 14} more lines ...", *lines[-4:]])
    out["bad_failed"] = str(sum(not r.startswith("ok") for r in none.results))
    out["bad_error"] = next(r for r in none.results if not r.startswith("ok"))
    counted = run_batch(GOOD_ROWS, "all failures", bad_node=1)
    out["bad_rows"] = str(len(GOOD_ROWS))
    out["bad_none_ok"] = str(sum(r.startswith("ok") for r in none.results))
    out["bad_none_attempts"] = str(none.attempts)
    out["bad_none_n1_failures"] = str(none.report[0]["failures"])
    out["bad_attr_ok"] = str(sum(r.startswith("ok") for r in counted.results))
    out["bad_attr_attempts"] = str(counted.attempts)
    out["bad_attr_done"] = f"{counted.finished_at:g}"
    out["bad_attr_blacklisted"] = ", ".join(counted.blacklisted)

    blame = {c: run_batch(BAD_INPUT_ROWS, c) for c in ("none", "all failures", "retryable only")}
    out["input_rows"] = str(len(BAD_INPUT_ROWS))
    out["input_bad"] = str(sum(r.startswith("bad") for r in BAD_INPUT_ROWS))
    worst = max(blame["all failures"].report, key=lambda row: row["failures"])
    out["input_blamed_node"] = worst["node"]
    out["input_blamed_failures"] = str(worst["failures"])
    out["input_all_blacklisted"] = ", ".join(blame["all failures"].blacklisted) or "nobody"
    out["input_all_done"] = f"{blame['all failures'].finished_at:g}"
    out["input_aware_blacklisted"] = ", ".join(blame["retryable only"].blacklisted) or "nobody"
    out["input_aware_done"] = f"{blame['retryable only'].finished_at:g}"

    unbounded, windowed = sim.run(flood, seed=0), sim.run(lambda: flood(window=8), seed=0)
    defaults = inspect.signature(flood).parameters
    out["flood_tasks"] = str(defaults["tasks"].default)
    out["flood_cpus"] = str(defaults["cpus"].default)
    out["flood_peak"] = str(peak_in_flight(unbounded.records))
    out["window"] = "8"
    out["window_peak"] = str(peak_in_flight(windowed.records))
    out["flood_s"] = f"{unbounded.value:g}"
    out["window_s"] = f"{windowed.value:g}"
    out["wide_peak"] = str(peak_in_flight(sim.run(lambda: flood(window=50), seed=0).records))

    bad = compare("lesson08_bad_node", BAD_NODE_ROWS, said=SAID)
    (ray_retries, mini_retries), (ray_error, mini_error) = bad.said_by("retries"), bad.said_by("error")
    out["ray_table"] = bad.table()
    out["ray_says"] = f"{ray_retries}\n\n{ray_error}"
    out["miniray_says"] = f"{mini_retries}\n\n{mini_error}"
    out["head_table"] = compare("head_node_loss", HEAD_ROWS).table()
    return out


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
