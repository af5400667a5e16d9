# Run in the lab's kernel by playground/kernel_boot.mjs (PREPARE_SNAPSHOT_PY; the comment there says why).
import gc
import importlib.metadata
import io

# Imported for the snapshot: what the kernel imports as it boots, and what the course's cells do.
import micropip  # noqa: F401
import piplite.piplite  # noqa: F401
import pyodide_kernel

import faultlines.notebook  # noqa: F401
import miniray  # noqa: F401

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
