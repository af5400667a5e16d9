# Run in the lab's kernel by playground/kernel_boot.mjs (PREPARE_SNAPSHOT_PY; the comment there says why).
import gc
import importlib.metadata
import io

# Imported for the snapshot: what the kernel imports as it boots, and what the course's cells do.
import comm
import micropip  # noqa: F401
import piplite.piplite  # noqa: F401
import pyodide_kernel

# The debugger a failing check() shows, with ipywidgets: imported on a learner's first check,
# it was most of that check's time (1-2 s of a 1.5-3.5 s first check after a warm start).
import faultlines.debugger.widget  # noqa: F401
import faultlines.notebook  # noqa: F401
import miniray  # noqa: F401

# Imported under IPython, ipywidgets registers its comm targets with the kernel. The page's widget
# manager, finding them when it connects, takes the kernel's (empty) widgets as restored, and then
# reports each widget output a saved notebook holds from an earlier kernel as "model not found"
# on the console. A cell's import came after that connection, which then found no targets; so
# does this one's. (Every widget is made by the kernel, so neither target is ever needed.)
widget_comms = comm.get_comm_manager()
for target in ("jupyter.widget", "jupyter.widget.control"):
    if target in widget_comms.targets:
        widget_comms.unregister_target(target, widget_comms.targets[target])

# The shell's first run imports what IPython leaves to it (its logger, its compiler's parts): a
# silent one here puts them in the snapshot, and a restored kernel's first cell imports nothing.
pyodide_kernel.ipython_shell.run_cell("pass", store_history=False, silent=True)

importlib.metadata.FastPath.__new__.cache_clear()
gc.collect()
still_open = [
    f.name for f in gc.get_objects() if isinstance(f, io.FileIO) and not f.closed and f.fileno() > 2
]
if still_open:
    raise RuntimeError(f"files open at snapshot time: {still_open}")
