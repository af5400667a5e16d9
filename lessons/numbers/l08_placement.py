"""Numbers on lesson 8's page: packing runs, the two-loop model, the attribution batches, and what
miniray says when asked to lose its head node."""

from __future__ import annotations

import miniray
from faultlines.models import optimistic, packing
from faultlines.models.attribution import BAD_INPUT_ROWS, GOOD_ROWS, run_batch
from miniray import sim
from miniray.cluster_utils import Cluster


def _head_loss_message() -> str:
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
    raise AssertionError("miniray now simulates head-node loss: lesson 8 should show it")


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

    out["head_loss_message"] = _head_loss_message()
    return out


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
