"""Numbers and blocks for lesson 2's page: the retry stories run on miniray, the retry arithmetic,
the retry budget measured on miniray, and the OOM cascade on miniray's memory monitor."""

from __future__ import annotations

import functools
import inspect
import textwrap

from faultlines.models.retries import budget_cost, retry_cost
from faultlines.stories import oom
from faultlines.stories import retries as story
from faultlines.timeline import observe, render_text
from faultlines.widgets.retry_cost import measure
from miniray.memory import oom_retry_delay_s


def _log(text: str) -> str:
    return textwrap.dedent("\n".join(line for line in text.splitlines() if "object.free" not in line))


def _error(observed) -> str:
    return type(observed.run.error).__name__


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
    defaults = inspect.signature(oom.cascade).parameters
    under_run, under = oom.run_cascade()
    _, honest = oom.run_cascade(hungry_request_gb=defaults["hungry_peak_gb"].default)
    _, greedy = oom.run_cascade(hungry_peak_gb=15.5)
    _, strict = oom.run_cascade(max_retries=0)
    return {
        "quote_code": inspect.getsource(story.fetch_quote).rstrip(),
        "outage_s": f"{story.OUTAGE_S:g}",
        "quote_log": _log(plain.run.log_text),
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
        "oom_code": inspect.getsource(oom.cascade).rstrip(),
        "nodes": str(oom.NODES),
        "node_gb": f"{oom.NODE_GB:g}",
        "cpus": str(oom.CPUS),
        "normals": str(oom.NORMALS),
        "normal_gb": f"{oom.NORMAL_GB:g}",
        "hungry_request": f"{defaults['hungry_request_gb'].default:g}",
        "hungry_peak": f"{defaults['hungry_peak_gb'].default:g}",
        "oom_log": _log(under.story),
        "oom_value": repr(under_run.value),
        "oom_kills": str(under.kills),
        "oom_hungry_kills": str(under.hungry_kills),
        "oom_wasted": f"{under.wasted_s:g}",
        "oom_end": f"{under.end_s:g}",
        "oom_first_delay": f"{oom_retry_delay_s(0, 1000):g}",
        "oom_second_delay": f"{oom_retry_delay_s(1, 1000):g}",
        "honest_kills": str(honest.kills),
        "honest_end": f"{honest.end_s:g}",
        "greedy_kills": str(greedy.kills),
        "greedy_hungry_kills": str(greedy.hungry_kills),
        "strict_kills": str(strict.kills),
        "strict_hungry_kills": str(strict.hungry_kills),
    }
