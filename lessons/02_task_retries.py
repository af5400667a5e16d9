# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python (Pyodide)
#     language: python
#     name: python
# ---

# %% [markdown]
# # Lab 2: task retries
#
# A quotes API resets every connection for the first 2.5 virtual seconds. Your task calls it.
# Each step below asks you to predict how many attempts Ray makes and what `ray.get` gives back.

# %%
import time

import miniray as ray
from faultlines.timeline import from_trace, render_text
from miniray import sim

# %%
# faultlines/stories/retries.py
OUTAGE_S = 2.5  # the quotes API resets every connection for the first 2.5 virtual seconds


def fetch_quote(max_retries: int = 3, retry_exceptions: bool | list = False) -> dict:
    ray.init(num_cpus=1)

    @ray.remote(max_retries=max_retries, retry_exceptions=retry_exceptions)
    def quote(item):
        time.sleep(0.5)  # the request
        if sim.now() < OUTAGE_S:
            raise ConnectionResetError("quotes API: connection reset by peer")
        return {"item": item, "price": 42}

    return ray.get(quote.remote("A-17"))


# %%
def report(run):
    """What ray.get gave, how many attempts ran, and the run's lanes."""
    attempts = run.log_text.count("task.start")
    outcome = run.value if run.error is None else type(run.error).__name__
    print(f"{outcome}  after {attempts} attempt(s), t = {run.virtual_time:g} s")
    print(render_text(from_trace(ray.timeline())))


# %% [markdown]
# **Predict.** `max_retries=3` is set (it is also Ray's default for tasks). The first call
# raises `ConnectionResetError`. How many attempts run?

# %%
report(sim.run(fetch_quote, seed=0))

# %% [markdown]
# One. `max_retries` covers *system* failures: a dead worker or node. An exception raised by
# your code is an *application* failure, retried only if `retry_exceptions` says so.
#
# **Predict.** Now retry `ConnectionResetError` only. When does the call succeed?

# %%
report(sim.run(lambda: fetch_quote(retry_exceptions=[ConnectionResetError]), seed=0))

# %% [markdown]
# ## Terminal failures
#
# A malformed line fails the same way every time. **Predict** the attempts with
# `retry_exceptions=True`, and with `retry_exceptions=[ConnectionError]`.


# %%
# faultlines/stories/retries.py
def parse_order(retry_exceptions: bool | list = True) -> dict:
    ray.init(num_cpus=1)

    @ray.remote(retry_exceptions=retry_exceptions)  # max_retries: Ray's default, 3
    def parse(line):
        time.sleep(0.5)
        qty, sku = line.split(",")  # a malformed line fails the same way every time
        return {"sku": sku, "qty": int(qty)}

    return ray.get(parse.remote("3;A-17"))


report(sim.run(parse_order, seed=0))
report(sim.run(lambda: parse_order(retry_exceptions=[ConnectionError]), seed=0))

# %% [markdown]
# ## System failures
#
# This worker process dies (`os._exit(1)`). No `retry_exceptions` is set. **Predict.**

# %%
# faultlines/stories/retries.py
import os


def crash_worker(max_retries: int = 3) -> int:
    ray.init(num_cpus=1)

    @ray.remote(max_retries=max_retries)
    def work():
        time.sleep(0.5)
        os._exit(1)  # the worker process dies: a system failure

    return ray.get(work.remote())


report(sim.run(crash_worker, seed=0))

# %% [markdown]
# ## What retries cost
#
# If each attempt fails with chance `p`, how many attempts does a task take, and how many of
# them are wasted? Drag the sliders. Tick *measure in miniray* to run 200 flaky tasks both
# ways at the chosen `p` and see the runs land on the curves.

# %%
import ipywidgets  # noqa: F401  (the lab installs a package when a cell imports it)

from faultlines.widgets.retry_cost import retry_cost_widget

retry_cost_widget()

# %% [markdown]
# ## A retry budget
#
# Ray's `max_retries` is a count per task. A budget caps retries across all traffic instead.
# `budgeted_retries` (course code, using only Ray's API) runs every task with `max_retries=0`
# and retries from the driver while a token bucket allows: each first attempt earns
# `ratio` tokens, each retry spends one. `p = 0.3` is the page's case; try `p = 0.9`.

# %%
from faultlines.stories.retry_budget import budgeted_retries, per_task_retries

p = 0.3
per_task = sim.run(lambda: per_task_retries(200, p, 3), seed=0).value
budgeted = sim.run(lambda: budgeted_retries(200, p, 3, ratio=0.1), seed=0).value
print(
    f"per-task max_retries=3: {per_task.attempts_per_task:.3f} attempts/task, {per_task.success_rate:.1%} succeed"
)
print(
    f"budget of 10%:          {budgeted.attempts_per_task:.3f} attempts/task, {budgeted.success_rate:.1%} succeed"
)

# %% [markdown]
# ## Try this
#
# The lesson page says what to expect from each.
#
# 1. **Widen the list.** Run `fetch_quote(retry_exceptions=[ConnectionError])`.
# 2. **Fewer retries.** Run `fetch_quote(max_retries=1, retry_exceptions=[ConnectionResetError])`.
# 3. **No retries for crashes.** Run `crash_worker(max_retries=0)`.
# 4. **A sick dependency.** In the budget cell above, set `p = 0.9`.

# %%
report(sim.run(lambda: fetch_quote(retry_exceptions=[ConnectionError]), seed=0))
