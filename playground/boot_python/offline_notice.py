# Run in the lab's kernel by playground/kernel_boot.mjs (OFFLINE_NOTICE_PY; the comment there says why).
import sys
from importlib.abc import MetaPathFinder


class NeedsTheNetwork(MetaPathFinder):
    """Last on sys.meta_path: reached only when no installed package provides the module."""

    def __init__(self, names):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        __tracebackhide__ = True  # IPython: show the learner's line, not this finder
        top = fullname.partition(".")[0]
        if top not in self.names:
            return None
        error = ModuleNotFoundError(
            f"{top} needs the network: plots and the packages they use come from Pyodide's CDN "
            "in the browser, and everything else in this lab works offline.",
            name=fullname,
        )
        error._PYODIDE_ADDED_NOTE = True  # keep Pyodide from appending its install advice
        raise error


def install(names):
    sys.meta_path.append(NeedsTheNetwork(names.to_py()))


install  # noqa: B018 (the value runPython returns: the loader calls it)
