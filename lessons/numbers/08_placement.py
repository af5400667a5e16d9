"""Numbers on lesson 8's page: packing runs, the two-loop model, the attribution batches, and the
head node's loss, run on miniray and as real Ray 2.60 recorded it (tests/conformance)."""

from __future__ import annotations

import json
from pathlib import Path

import miniray
from faultlines.models import optimistic
from faultlines.stories import head_loss, packing
from faultlines.stories.attribution import BAD_INPUT_ROWS, GOOD_ROWS, run_batch
from miniray import sim
from miniray.cluster_utils import Cluster

RECORDED = Path(__file__).resolve().parents[2] / "tests/conformance/recorded/ray-2.60.0.json"


def _remove_head_refusal() -> str:
    sim.set_seed(0)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    miniray.init(address=cluster.address)
    try:
        cluster.remove_node(cluster.head_node)
    except ValueError as error:
        return str(error)
    finally:
        miniray.shutdown()
        cluster.shutdown()
    raise AssertionError("miniray removed the head node the driver is connected to; Ray refuses")


def _seen(outcome: dict) -> str:
    """A recorded outcome in a word: the value, or the error's class."""
    return outcome["error"]["class"] if "error" in outcome else repr(outcome["value"])


def _head_loss() -> dict[str, str]:
    run = head_loss.run_gcs_loss()
    recorded = json.loads(RECORDED.read_text())
    ray = recorded["scenarios"]["head_node_loss"]["gcs_killed"]
    return {
        "head_remove_message": _remove_head_refusal(),
        "head_notes": run.notes,
        "head_died_at": f"{run.died_at_s:g}",
        "head_exit_at": f"{run.exit_at_s:g}",
        "head_timeout": f"{run.exit_at_s - run.died_at_s:g}",
        "head_exit_message": run.exit_message,
        "ray_version": recorded["ray"],
        "ray_running_task": _seen(ray["running_task_after"]),
        "ray_actor_call": _seen(ray["actor_call_after"]),
        "ray_new_task": _seen(ray["new_task_after"]),
        "ray_new_worker_task": _seen(ray["task_needing_new_worker_after"]),
        "ray_new_actor": _seen(ray["new_actor_after"]),
        "ray_exit_status": str(ray["driver_exit_status"]),
    }


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

    case = optimistic.run(optimistic.CASE_TASKS, optimistic.CASE_SLOTS, refresh_s=1.0, until=6)
    out["loops_log"] = "\n".join(case.log)
    out["loops_rejections"] = str(case.rejections)
    out["loops_b_start"] = f"{case.started['b']:g}"

    none = run_batch(GOOD_ROWS, "none", bad_node=1)
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

    out.update(_head_loss())
    return out


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
