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
# # Lesson 1: your first remote tasks
#
# `miniray` is a simulated Ray cluster that runs entirely in this page. A function decorated
# with `@ray.remote` becomes a *task*: calling `.remote()` schedules it and returns an
# `ObjectRef` at once; `ray.get` waits for the value.

# %%
import miniray as ray

ray.init(num_cpus=2)


@ray.remote
def double(x):
    return x * 2


# %%
refs = [double.remote(i) for i in range(4)]
print(ray.get(refs))

# %% [markdown]
# `ray.get` returns results in the order of the refs you pass, whatever order the tasks
# finished in. Try changing `range(4)` and run the cell again.

# %%
ray.shutdown()
