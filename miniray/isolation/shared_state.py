"""State that stays shared between simulated workers, and the warning for writing it from a task.

miniray gives each simulated worker process its own copy of the learner's own state
(`footprint`), but everything else lives once in the one interpreter: other modules' attributes,
`os.environ`, files. On Ray each worker process would have its own (another module is imported
fresh in each process; each process has its own environment; files are per node). So where
learner code run as a task or actor writes such state, miniray warns once, naming the line: the
run may show a sharing Ray would not.

The writes are found in the bytecode (`dis`), for the shapes learner code has: `module.attr = v`,
`del module.attr`, `os.environ[k] = v`, `os.environ.update(...)`, `os.putenv(...)`. A file opened
for writing inside a body is caught when it happens (miniray.context's `open`).
"""

from __future__ import annotations

import dis
import os
import types
import warnings
from collections.abc import Callable, Iterable
from typing import Any


class SharedStateWarning(UserWarning):
    """Learner code run by a task or actor writes state that all simulated workers share."""


_ENVIRON_WRITES = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"}
_OS_WRITES = {"putenv", "unsetenv"}
_LOADS = {"LOAD_GLOBAL", "LOAD_FAST", "LOAD_FAST_BORROW", "LOAD_DEREF", "LOAD_NAME", "LOAD_FAST_CHECK"}
_ATTRS = {"LOAD_ATTR", "LOAD_METHOD"}


class CodeFacts:
    __slots__ = ("stores", "writes")

    def __init__(self, stores: frozenset[str], writes: tuple[tuple[int, str, str], ...]):
        self.stores = stores  # names the code assigns with `global`: slots even before they exist
        self.writes = writes  # (line, root name, "what it writes") candidates


# A pure cache by code object (code is immutable): the scan is `dis`, too slow to repeat per run.
_FACTS: dict[types.CodeType, CodeFacts] = {}
_FACTS_CACHE_SIZE = 4096


def facts(code: types.CodeType) -> CodeFacts:
    found = _FACTS.get(code)
    if found is None:
        try:
            found = _scan(code)
        except Exception:  # an unfamiliar bytecode: no warnings rather than a failed run
            found = CodeFacts(frozenset(), ())
        if len(_FACTS) >= _FACTS_CACHE_SIZE:
            _FACTS.clear()
        _FACTS[code] = found
    return found


def _scan(code: types.CodeType) -> CodeFacts:
    stores: set[str] = set()
    writes: list[tuple[int, str, str]] = []
    imported: dict[str, str] = {}  # local name -> what `import` bound it to ("os", "os.environ")
    root = ""  # the name a chain of attribute loads starts from ("" when none is open)
    attrs: list[str] = []
    line = code.co_firstlineno
    pending_import = ""
    for ins in dis.get_instructions(code):
        if ins.positions is not None and ins.positions.lineno is not None:
            line = ins.positions.lineno
        op, arg = ins.opname, ins.argval
        path = ".".join([root, *attrs]) if root else ""
        if op == "STORE_GLOBAL":
            stores.add(arg)
        if op == "IMPORT_NAME":
            pending_import, root = str(arg), ""
        elif op == "IMPORT_FROM" and pending_import:
            pending_import = f"{pending_import}.{arg}"
        elif op in ("STORE_FAST", "STORE_NAME", "STORE_DEREF") and pending_import:
            imported[str(arg)], pending_import, root = pending_import, "", ""
        elif op in _LOADS and isinstance(arg, str):
            # A global, or a local bound by `import` in this function: where a chain can start.
            if arg in imported:
                root, attrs = imported[arg], []
            elif op == "LOAD_GLOBAL":
                root, attrs = arg, []
            elif not path.endswith("environ"):  # a local used as the key of os.environ[key]: keep it
                root = ""
        elif op in _ATTRS and root:
            name = str(arg)
            if path.endswith("environ") and name in _ENVIRON_WRITES:
                writes.append((line, root, f"{path}.{name}(...)"))
            elif path == "os" and name in _OS_WRITES:
                writes.append((line, root, f"os.{name}(...)"))
            attrs.append(name)
        elif op in ("STORE_ATTR", "DELETE_ATTR") and root:
            writes.append((line, root, ("del " if op == "DELETE_ATTR" else "") + f"{path}.{arg}"))
            root = ""
        elif op in ("STORE_SUBSCR", "DELETE_SUBSCR") and path.endswith("environ"):
            writes.append((line, root, f"{path}[...]"))
            root = ""
        elif op not in _PASS_THROUGH:
            root = ""  # anything else consumes the chain: it is not written through
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner = facts(const)
            stores |= inner.stores
            writes.extend(inner.writes)
    return CodeFacts(frozenset(stores), tuple(writes))


# What may sit between `os.environ` and the STORE_SUBSCR that writes it: the key and the value.
_PASS_THROUGH = {"LOAD_CONST", "LOAD_SMALL_INT", "LOAD_FAST", "LOAD_FAST_BORROW", "CACHE", "EXTENDED_ARG"}


def _is_shared_root(root: str, fn_globals: dict, by_value: Callable[[str], bool]) -> bool:
    """Does the chain start at state shared by every process (a module, os.environ, a class
    from a module not copied by value)?"""
    head = root.split(".")[0]
    if head == "os" or root == "environ":
        return True
    value: Any = fn_globals.get(head)
    if isinstance(value, types.ModuleType):
        return not by_value(value.__name__)
    if value is os.environ:
        return True
    if isinstance(value, type):
        return not by_value(value.__module__ or "")
    return False


_WARNED: dict = {}  # warnings' once-per-line registry (what warnings.warn_explicit keeps per module)


def warn_writes(functions: Iterable[types.FunctionType], by_value: Callable[[str], bool]) -> None:
    """Warn once per line where these learner functions write state every worker shares."""
    for fn in functions:
        for line, root, what in facts(fn.__code__).writes:
            if not _is_shared_root(root, fn.__globals__, by_value):
                continue
            message = (
                f"{fn.__qualname__} writes {what}, state every simulated worker shares: on Ray each "
                "worker process has its own copy, so other tasks, actors and the driver would not "
                "see this write. Return the value, or keep it in an actor."
            )
            warnings.warn_explicit(
                message,
                SharedStateWarning,
                fn.__code__.co_filename,
                line,
                module=getattr(fn, "__module__", None) or "miniray",
                registry=_WARNED,
            )


def warn_file_write(path: Any, site: str) -> None:
    filename, _, line = site.rpartition(":")
    warnings.warn_explicit(
        f"a task or actor opens {path!r} for writing: every simulated worker shares this "
        "machine's files, while on Ray a task's files are on the node that ran it.",
        SharedStateWarning,
        filename or "<unknown>",
        int(line) if line.isdigit() else 0,
        module="miniray",
        registry=_WARNED,
    )
