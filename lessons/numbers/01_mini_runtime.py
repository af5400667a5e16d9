"""Numbers and blocks for lesson 1's page, from runs of its story (faultlines.stories.squares)."""

from __future__ import annotations

import functools
import inspect
import textwrap

from conformance.recorded_view import compare
from faultlines.reading import Kind, Reading
from faultlines.stories import squares as story
from faultlines.timeline import observe, render_text

FAULT = "kill_node node:1 at=1.5"


def four_on_two_cpus() -> float:
    """The lab's first cell: four one-second tasks on a one-node, two-CPU cluster."""
    import time

    import miniray as ray
    from miniray import sim

    ray.init(num_cpus=2)

    @ray.remote
    def double(x):
        time.sleep(1)
        return 2 * x

    ray.get([double.remote(i) for i in range(4)])
    return sim.now()


def _log(reading: Reading) -> str:
    # object.free lines (one per ref at the end) say nothing about the fault: left out on the page.
    # The log right-aligns time in 12 columns; the page drops the common indent to fit phones.
    return textwrap.dedent("\n".join(r.line() for r in reading.without(Kind.OBJECT_FREE)))


def _start_of(reading: Reading, attempt: str) -> str:
    start = reading.first(Kind.TASK_START, attempt=attempt)
    return f"{float(start.line().split()[0]):g}"  # the time as the log prints it


def _worker_cpus(reading: Reading) -> list[float]:
    """The CPUs of each node that has some, from the run's node.add records."""
    found = [dict(r.fields["resources"]).get("CPU", 0) for r in reading.of(Kind.NODE_ADD)]
    return [float(c) for c in found if float(c) > 0]


def _again(ran: bool) -> str:
    return "ran again" if ran else "did not run again"


# The story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson01_node_loss.py).
RAY_ROWS = [
    ("`ray.get` returned", lambda o: f"{o['values']}" if o["error"] is None else o["error"]),
    ("the task running on the lost node", lambda o: _again(o["running_there_ran_again"])),
    ("a task that had finished on it", lambda o: _again(o["finished_there_ran_again"])),
    ("with `max_retries=0`, `ray.get` raised", lambda o: f"`{o['max_retries_0']['error']}`"),
]
# The error `max_retries=0` gets, as each backend printed it (shown, never compared).
SAID = [("error", lambda o: o["max_retries_0"]["_said_error"])]


def numbers() -> dict[str, str]:
    clean = observe(story.squares, seed=0)
    broken = observe(story.squares, seed=0, faults=[FAULT])
    again = observe(story.squares, seed=0, faults=[FAULT])
    early = observe(story.squares, seed=0, faults=["kill_node node:1 at=0.25"])
    late = observe(story.squares, seed=0, faults=["kill_node node:1 at=2.5"])
    no_retry = observe(functools.partial(story.squares, max_retries=0), seed=0, faults=[FAULT])
    eight = observe(functools.partial(story.squares, n=8), seed=0, faults=[FAULT])
    local = observe(four_on_two_cpus, seed=0)
    ray = compare("lesson01_node_loss", RAY_ROWS, said=SAID)
    ray_says, miniray_says = ray.said_by("error")
    defaults = inspect.signature(story.squares).parameters
    return {
        "ray_table": ray.table(),
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "tasks": str(defaults["n"].default),
        "worker_nodes": str(len(_worker_cpus(Reading.of_run(clean.run)))),
        "cpus": f"{_worker_cpus(Reading.of_run(clean.run))[0]:g}",
        "story_code": inspect.getsource(story.squares).rstrip(),
        "fault": FAULT,
        "fault_at": "1.5",
        "clean_s": f"{clean.run.virtual_time:g}",
        "fault_s": f"{broken.run.virtual_time:g}",
        "clean_attempts": str(clean.lanes.attempts()),
        "fault_attempts": str(broken.lanes.attempts()),
        "retry_start": _start_of(Reading.of_run(broken.run), "square#5/2"),
        "story_log": _log(Reading.of_run(broken.run)),
        "story_lanes": render_text(broken.lanes),
        "clean_lanes": render_text(clean.lanes),
        "token": broken.run.token(),
        "same_log": "identical" if again.run.log_text == broken.run.log_text else "DIFFERENT",
        "log_chars": str(len(broken.run.log_text)),
        "early_s": f"{early.run.virtual_time:g}",
        "early_attempts": str(early.lanes.attempts()),
        "late_s": f"{late.run.virtual_time:g}",
        "late_attempts": str(late.lanes.attempts()),
        "no_retry_error": type(no_retry.run.error).__name__,
        "no_retry_message": str(no_retry.run.error).strip().splitlines()[0],
        "eight_s": f"{eight.run.virtual_time:g}",
        "eight_failed": str(len(eight.lanes.failed())),
        "local_s": f"{local.run.value:g}",
        "local_lanes": render_text(local.lanes),
    }
