"""Numbers and blocks for lesson 2's page: the quote story run on miniray and as real Ray recorded
it, the retry arithmetic, and the retry budget measured on miniray."""

from __future__ import annotations

import functools
import inspect
import textwrap

from conformance.recorded_view import compare
from faultlines.models.retries import budget_cost, retry_cost
from faultlines.reading import Kind, Reading
from faultlines.stories import retries as story
from faultlines.timeline import observe, render_text
from faultlines.widgets.retry_cost import measure


def _log(reading: Reading) -> str:
    return textwrap.dedent("\n".join(r.line() for r in reading.without(Kind.OBJECT_FREE)))


def _time(record) -> float:
    """A record's time as the log prints it."""
    return float(record.line().split()[0])


def _first_error_s(reading: Reading) -> float:
    return _time(reading.of(Kind.TASK_ERROR)[0])


def _error(observed) -> str:
    return type(observed.run.error).__name__


def _starts(reading: Reading) -> list[str]:
    return [f"{_time(r):g}" for r in reading.of(Kind.TASK_START)]


def _gaps(o: dict) -> str:
    return "about a second apart" if o["retry_listed"]["attempts_about_1s_apart"] else "not a second apart"


# The story as real Ray 2.60 ran it (tests/conformance/scenarios/lesson02_quote_outage.py).
RAY_ROWS = [
    ("attempts, `max_retries=3` alone", lambda o: str(o["default"]["attempts"])),
    ("`ray.get` raised", lambda o: f"`{o['default']['result']['error']['class']}`"),
    (
        "caught by `except ConnectionResetError`",
        lambda o: "yes" if o["default"]["error_is_a_connection_reset_error"] else "no",
    ),
    ("attempts, `retry_exceptions=[ConnectionResetError]`", lambda o: str(o["retry_listed"]["attempts"])),
    ("time between those attempts", _gaps),
]
# What each backend printed for the same program (shown, never compared): the error, and what the
# driver is told of a retry; and, Ray only, how its metrics agent types `ray_tasks`.
SAID = [
    ("error", lambda o: o["default"]["_said_error"]),
    ("retry", lambda o: o["retry_listed"]["_said_retries"]),
]
METRICS = [("ray_tasks", lambda o: _metric_lines(o["_said_metrics"], "ray_tasks"))]


def _metric_lines(text: str, name: str) -> str:
    """The HELP and TYPE lines Ray exported for one metric (miniray has no such export)."""
    return "\n".join(
        line for line in text.splitlines() if line.startswith("#") and line.split()[2:3] == [name]
    )


def numbers() -> dict[str, str]:
    plain = observe(story.fetch_quote)
    listed = observe(functools.partial(story.fetch_quote, retry_exceptions=[ConnectionResetError]))
    parse_all = observe(story.parse_order)
    parse_listed = observe(functools.partial(story.parse_order, retry_exceptions=[ConnectionError]))
    crash = observe(story.crash_worker)
    crash_none = observe(functools.partial(story.crash_worker, max_retries=0))
    p3, p9, p1 = retry_cost(0.3, 3), retry_cost(0.9, 3), retry_cost(1.0, 3)
    b3, b9 = budget_cost(0.3, 3, 0.1), budget_cost(0.9, 3, 0.1)
    free, capped = measure(0.3, 3, 0.1)
    free9, capped9 = measure(0.9, 3, 0.1)
    ray = compare("lesson02_quote_outage", RAY_ROWS, said=SAID)
    ray_says, miniray_says = ray.said_by("error")
    ray_retry, miniray_retry = ray.said_by("retry")
    metrics = compare("lesson11_metrics", [], said=METRICS)
    listed_starts = _starts(Reading.of_run(listed.run))
    return {
        "ray_table": ray.table(),
        "ray_says": ray_says,
        "miniray_says": miniray_says,
        "ray_says_retry": ray_retry,
        "miniray_says_retry": miniray_retry,
        "ray_tasks_type": metrics.said_by("ray_tasks")[0],
        "ray_attempts": ray.ray("attempts, `max_retries=3` alone"),
        "max_retries": str(inspect.signature(story.fetch_quote).parameters["max_retries"].default),
        "request_s": f"{_first_error_s(Reading.of_run(plain.run)):g}",
        "listed_starts": ", ".join(listed_starts[:-1]) + " and " + listed_starts[-1],
        "quote_code": inspect.getsource(story.fetch_quote).rstrip(),
        "outage_s": f"{story.OUTAGE_S:g}",
        "quote_log": _log(Reading.of_run(plain.run)),
        "quote_error": _error(plain),
        "quote_attempts": str(plain.lanes.attempts()),
        "listed_attempts": str(listed.lanes.attempts()),
        "listed_s": f"{listed.run.virtual_time:g}",
        "listed_value": repr(listed.run.value),
        "listed_lanes": render_text(listed.lanes),
        "parse_attempts": str(parse_all.lanes.attempts()),
        "parse_s": f"{parse_all.run.virtual_time:g}",
        "parse_error": _error(parse_all),
        "parse_listed_attempts": str(parse_listed.lanes.attempts()),
        "crash_attempts": str(crash.lanes.attempts()),
        "crash_error": _error(crash),
        "crash_lanes": render_text(crash.lanes),
        "crash_none_attempts": str(crash_none.lanes.attempts()),
        "p01_attempts": f"{retry_cost(0.01, 3).attempts:.2f}",
        "p3_attempts": f"{p3.attempts:.3f}",
        "p3_success": f"{p3.success:.1%}",
        "p3_wasted": f"{p3.wasted:.3f}",
        "p9_attempts": f"{p9.attempts:.2f}",
        "p9_success": f"{p9.success:.1%}",
        "p1_attempts": f"{p1.attempts:g}",
        "b3_attempts": f"{b3.attempts:.3f}",
        "b3_success": f"{b3.success:.1%}",
        "b9_attempts": f"{b9.attempts:.3f}",
        "b9_success": f"{b9.success:.1%}",
        "m3_free": f"{free.attempts_per_task:.3f}",
        "m3_free_ok": f"{free.success_rate:.1%}",
        "m3_capped": f"{capped.attempts_per_task:.3f}",
        "m3_capped_ok": f"{capped.success_rate:.1%}",
        "m9_free": f"{free9.attempts_per_task:.3f}",
        "m9_capped": f"{capped9.attempts_per_task:.3f}",
        "measure_tasks": str(free.tasks),
    }
