# Run in the lab's kernel by playground/kernel_boot.mjs (WARM_UP_PY; the comment there says why).
import pyodide_kernel
from pyodide.code import find_imports

from faultlines.grader import exercise, grade, submission
from miniray.session import SESSION

for _ in range(3):
    find_imports("import miniray as ray\nfrom faultlines import notebook")
    pyodide_kernel.ipython_shell.run_cell("sum(i * i for i in range(3000))", store_history=False, silent=True)

saved = dict(vars(SESSION), clusters=dict(SESSION.clusters))
try:
    ex = exercise.load("fault05")
    for _ in range(2):
        grade.grade(ex, submission.from_source(ex.starter, "<warm-up>", ex.entry, ex.line_budget))
finally:
    vars(SESSION).update(saved)
