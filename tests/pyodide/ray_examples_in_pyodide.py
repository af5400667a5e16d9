"""Run Ray's copied examples (tests/ray_examples/doc_code) on miniray in this interpreter.

    python tests/pyodide/ray_examples_in_pyodide.py [example ...]

Meant for Pyodide (via run_script.mjs, see test_ray_examples_parity.py): one interpreter runs
them one after another, each as `__main__`, with its output captured. Prints one line:
RESULT_MARKER followed by {name: {"passed": bool, "error": class name or None, "lines": [...]}}.
"""

import contextlib
import io
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(REPO, "tests", "ray_examples")
RESULT_MARKER = "RAY-EXAMPLES-RESULT "


def main(names):
    sys.path[:0] = [REPO, EXAMPLES]
    from printed import printed_lines

    import miniray

    doc_code = os.path.join(EXAMPLES, "doc_code")
    names = names or sorted(f[:-3] for f in os.listdir(doc_code) if f.endswith(".py"))
    results = {}
    for name in names:
        buf = io.StringIO()
        error = None
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                runpy.run_path(os.path.join(doc_code, f"{name}.py"), run_name="__main__")
            except BaseException as e:  # noqa: BLE001 - the verdict is the observation
                error = type(e).__name__
                print(f"{error}: {e}")
            finally:
                if miniray.is_initialized():  # the next example starts from a clean slate
                    miniray.shutdown()
        results[name] = {"passed": error is None, "error": error, "lines": printed_lines(buf.getvalue())}
    print(RESULT_MARKER + json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
