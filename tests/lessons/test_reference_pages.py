"""The reference pages: the troubleshooting reproductions run and show what the page says, and the
miniray column of the options page matches miniray."""

from __future__ import annotations

import runpy
import time
from pathlib import Path

import pytest

import miniray as ray
from miniray import sim
from miniray.runtime import DEFAULT_CONFIG

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def troubleshooting() -> dict[str, str]:
    return runpy.run_path(str(REPO / "lessons/numbers/troubleshooting.py"))["numbers"]()


def test_crash_loop_restarts_then_dies_and_an_init_exception_does_not_restart(troubleshooting):
    assert troubleshooting["crash_loop_out"].splitlines() == [
        "ActorDiedError at 10 s",
        "state DEAD, num_restarts 3",
        "ActorDiedError: actor_init_failed=True",
        "num_restarts 0",
    ]


def test_lost_objects_name_their_reason(troubleshooting):
    out = troubleshooting["lost_object_out"]
    assert "[OBJECT_UNRECONSTRUCTABLE_RETRIES_DISABLED]" in out and "[OBJECT_UNRECONSTRUCTABLE_PUT]" in out


def test_oom_cascade_exhausts_retries_and_memory_requests_halve_concurrency(troubleshooting):
    assert troubleshooting["oom_cascade_out"].splitlines() == [
        "OutOfMemoryError after 4 attempts, at 8 s",  # killed at 0.25 s; OOM retries after 1, 2, 4 s
        "1 worker(s) were killed due to the node running low on memory.",
        # Four 3 GiB parts on 8 GiB: each pass kills two at once (Ray 2.60's kill buffer).
        "no memory= request: 4 tasks done at 26 s after 8 OOM kills",
        "memory=3 GiB: 4 tasks done at 20 s after 0 OOM kills",
    ]


def test_options_page_miniray_column():
    assert DEFAULT_CONFIG["task_retry_delay_s"] == 1.0 and DEFAULT_CONFIG["actor_restart_delay_s"] == 1.0
    assert DEFAULT_CONFIG["object_spilling_threshold"] == 1.0
    assert DEFAULT_CONFIG["object_spilling_read_bytes_per_s"] == 500e6
    page = (REPO / "docs/reference/options.md").read_text()
    for claim in ("| `max_retries` | `3` |", "| `max_restarts` | `0` |", "| `max_task_retries` | `0` |"):
        assert claim in page


@pytest.mark.parametrize("crashes, outcome", [(3, "ok"), (4, "WorkerCrashedError")])
def test_default_max_retries_is_three(crashes, outcome):
    sim.set_seed(0)
    sim.schedule([f"crash f#1/{attempt} step=0" for attempt in range(1, crashes + 1)])
    ray.init(num_cpus=1)
    try:

        @ray.remote
        def f():
            time.sleep(1)
            return "ok"

        try:
            got = ray.get(f.remote())
        except ray.exceptions.WorkerCrashedError as e:
            got = type(e).__name__
        assert got == outcome
    finally:
        ray.shutdown()
