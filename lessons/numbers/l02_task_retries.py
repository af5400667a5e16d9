"""Numbers and blocks for lesson 2's page: the retry stories run on miniray, the retry arithmetic,
the retry budget measured on miniray, and the course's OOM model."""

from __future__ import annotations

import functools
import inspect
import textwrap

from faultlines.models import oom
from faultlines.models.retries import budget_cost, retry_cost
from faultlines.stories import retries as story
from faultlines.timeline import observe, render_text
from faultlines.widgets.retry_cost import measure


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
    workload = oom.cascade_workload(hungry_request_gb=2.0)
    hungry, normals = workload[0], workload[1:]
    under = oom.simulate(workload)
    honest = oom.simulate(oom.cascade_workload(hungry_request_gb=hungry.peak_gb))
    defaults = inspect.signature(oom.simulate).parameters
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
        "node_gb": f"{defaults['node_gb'].default:g}",
        "cpus": str(defaults["cpus"].default),
        "refresh_s": f"{defaults['refresh_s'].default:g}",
        "normals": str(len(normals)),
        "normal_gb": f"{normals[0].peak_gb:g}",
        "hungry_request": f"{hungry.request_gb:g}",
        "hungry_peak": f"{hungry.peak_gb:g}",
        "oom_log": textwrap.dedent(
            "\n".join(line for line in under.log if "kills" in line or "hungry" in line)
        ),
        "oom_kills": str(under.kills),
        "oom_collateral": str(under.collateral),
        "oom_wasted": f"{under.wasted_s:g}",
        "oom_end": f"{under.end_s:g}",
        "honest_kills": str(honest.kills),
        "honest_end": f"{honest.end_s:g}",
    }
