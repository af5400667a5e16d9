"""Run one of Ray's own examples (doc_code/*.py) on real Ray or on miniray, as `__main__`.

    python run_example.py <ray|miniray> <example.py>

The copies say `import miniray as ray`. On real Ray an import hook answers every `miniray` and
`miniray.<sub>` import with `ray` and `ray.<sub>`, so the very same bytes run on both backends.
The last line printed is RESULT_MARKER and a JSON verdict: whether the script ran to its end,
and if not, the exception class and message it stopped on.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import json
import os
import runpy
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RESULT_MARKER = "RAY-EXAMPLE-RESULT "


class _MinirayIsRay(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import miniray.x` gives the already-imported real `ray.x` module (real-Ray runs only)."""

    def find_spec(self, fullname, path, target=None):
        if fullname == "miniray" or fullname.startswith("miniray."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("ray" + spec.name[len("miniray") :])

    def exec_module(self, module) -> None:
        return None


def _prepare(backend: str) -> None:
    if backend == "ray":
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        os.environ.pop("RAY_ADDRESS", None)
        sys.meta_path.insert(0, _MinirayIsRay())
    elif backend == "miniray":
        sys.path.insert(0, REPO)
    else:
        raise SystemExit(f"unknown backend {backend!r}: use ray or miniray")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        raise SystemExit(__doc__)
    backend, path = argv[1], os.path.abspath(argv[2])
    _prepare(backend)
    verdict: dict = {"passed": True}
    try:
        runpy.run_path(path, run_name="__main__")
    except BaseException as e:  # noqa: BLE001 - SystemExit too: a script's exit is its verdict
        traceback.print_exc()
        verdict = {"passed": False, "error": type(e).__name__, "message": str(e)[:500]}
    sys.stdout.flush()
    print(RESULT_MARKER + json.dumps(verdict, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Real Ray may hang in atexit shutdown while a cancelled or detached worker lingers: the
    # verdict is printed, so leave now.
    os._exit(code)
