"""Numbers on lesson 5's page: settle_order run in miniray under crashes, and Ray 2.60's record."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.recorded_view import compare
from faultlines.stories.payments import FIXES, STEPS, grid, settle

RECORDED = Path(__file__).resolve().parents[2] / "tests/conformance/recorded/ray-2.60.0.json"


# The story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson05_double_charge.py).
RAY_ROWS = [
    (
        "`ray.get` returned",
        lambda o: f"`{o['result']['value']!r}`" if "value" in o["result"] else str(o["result"]),
    ),
    ("attempts", lambda o: str(o["attempts"])),
    ("charges the processor holds", lambda o: ", ".join(o["charges"])),
]


# What the driver is told of the dead worker and the retry: real Ray's raylet lines, miniray's
# event log for the same program (shown, never compared).
SAID = [("log", lambda o: o["_said_log"])]


def _story() -> dict[str, str]:
    ray = compare("lesson05_double_charge", RAY_ROWS, said=SAID)
    ray_says, miniray_says = ray.said_by("log")
    run = settle("append")  # the first attempt dies after charging, before returning
    clean = settle("append", step=None)
    early = settle("append", step=0)
    return {
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "ray_table": ray.table(),
        "story_effects": run.effects.rstrip("\n"),
        "story_timeline": run.timeline(),
        "story_result": run.result,
        "story_attempts": str(run.attempts),
        "story_charges": str(run.charges),
        "story_token": run.token,
        "clean_charges": str(clean.charges),
        "early_charges": str(early.charges),
    }


def _fixes() -> dict[str, str]:
    out: dict[str, str] = {}
    for fix in FIXES:
        name = fix.replace(" + ", "_").replace(" ", "_")
        run = settle(fix)
        out |= {
            f"{name}_effects": run.effects.rstrip("\n"),
            f"{name}_result": run.result,
            f"{name}_charges": str(run.charges),
            f"{name}_steps": str(len(STEPS[fix])),
        }
    table = grid()
    width = max(len(c) for c in table.values())
    rows = [f"{'task':<16}" + "".join(f"{k:>4}" for k in range(width))]
    rows += [f"{fix:<16}" + "".join(f"{n:>4}" for n in counts) for fix, counts in table.items()]
    out["grid"] = "\n".join(rows)
    out["grid_points"] = str(sum(len(c) for c in table.values()))
    out["grid_doubles"] = str(sum(n > 1 for c in table.values() for n in c))
    return out


def _try_this() -> dict[str, str]:
    exhausted_append = settle("append", crashes=4)
    exhausted_key = settle("idempotency key", crashes=4)
    orphan = settle("temp + commit", step=3)
    no_retry = settle("append", max_retries=0)
    return {
        "try_exhausted_result": exhausted_append.result,
        "try_exhausted_attempts": str(exhausted_append.attempts),
        "try_exhausted_charges": str(exhausted_append.charges),
        "try_exhausted_key_charges": str(exhausted_key.charges),
        "try_orphan_leftovers": str(orphan.leftovers),
        "try_orphan_charges": str(orphan.charges),
        "try_no_retry_result": no_retry.result,
        "try_no_retry_charges": str(no_retry.charges),
    }


def _recorded() -> dict[str, str]:
    data = json.loads(RECORDED.read_text())
    died = data["scenarios"]["task_worker_death"]
    return {
        "ray_version": data["ray"],
        "ray_default_runs": str(died["default"]["runs"]),
        "ray_default_error": died["default"]["result"]["error"]["class"],
        "ray_retries0_runs": str(died["max_retries_0"]["runs"]),
    }


def numbers() -> dict[str, str]:
    return _story() | _fixes() | _try_this() | _recorded()


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
