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
# # Lesson 2: steering a run with a slider
#
# Widgets let you change a parameter and watch Python react. Move the slider: the observer
# below re-runs the tasks with the new number of inputs and prints the result as text, so the
# output is readable without the widget too.

# %%
import ipywidgets as widgets

import miniray as ray

ray.init(num_cpus=2)


@ray.remote
def double(x):
    return x * 2


size = widgets.IntSlider(value=4, min=1, max=8, description="tasks")
# A Label, not a plot: the observer's answer is plain text a screen reader can read.
result = widgets.Label()


def rerun(change):
    values = ray.get([double.remote(i) for i in range(change["new"])])
    result.value = f"tasks={change['new']} results={values}"


size.observe(rerun, names="value")
rerun({"new": size.value})
widgets.VBox([size, result])
