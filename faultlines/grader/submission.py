"""Loading a learner's code: from a file (the CLI) or from a notebook's namespace (check()).

Every way it can be unusable (missing file, syntax error, a missing function, an exception at
import) becomes one readable line in a BadSubmission, never a traceback.
"""

from __future__ import annotations

import hashlib
import inspect
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .budgets import HOOKS, TICK, Counter, LearnerBudgetExceeded, TraceCounter, instrument


class BadSubmission(Exception):
    """The submission cannot be graded at all; str(self) is one line for the learner."""


@dataclass
class Submission:
    namespace: dict[str, Any]
    source: str
    files: set[str] = field(default_factory=set)  # filenames of the learner's frames (for budgets)
    label: str = "submission"
    instrumented: bool = True  # compiled with budget ticks; if not, counted by a trace function

    @property
    def code_hash(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()[:10]

    def entry(self, name: str) -> Any:
        return self.namespace[name]

    def module(self) -> types.SimpleNamespace:
        return types.SimpleNamespace(**self.namespace)

    def counter(self, max_lines: int) -> Counter:
        return Counter(max_lines) if self.instrumented else TraceCounter(self.files, max_lines)


def _check_entries(namespace: dict[str, Any], entries: list[str], label: str) -> None:
    for name in entries:
        if name not in namespace:
            raise BadSubmission(
                f"{label}: no function named {name!r}; the exercise needs {', '.join(entries)}"
            )
        if not callable(namespace[name]):
            raise BadSubmission(f"{label}: {name!r} is not a function")


def from_source(source: str, filename: str, entries: list[str], max_lines: int) -> Submission:
    label = Path(filename).name
    try:
        code = instrument(source, filename)
    except SyntaxError as e:
        raise BadSubmission(f"{label}: syntax error on line {e.lineno}: {e.msg}") from None
    except ValueError as e:  # e.g. null bytes in the source
        raise BadSubmission(f"{label}: not Python source ({e})") from None
    namespace: dict[str, Any] = {"__name__": "submission", "__file__": filename, **HOOKS}
    counter = Counter(max_lines)
    try:
        with counter.counting():
            exec(code, namespace)
    except LearnerBudgetExceeded as e:
        raise BadSubmission(f"{label}: while importing: {e}") from None
    except SystemExit as e:
        raise BadSubmission(f"{label}: calls exit({e.code}) while importing") from None
    except MemoryError:
        raise MemoryError(f"{label}: ran out of memory while importing") from None
    except Exception as e:
        raise BadSubmission(f"{label}: importing it raised {type(e).__name__}: {e}") from None
    _check_entries(namespace, entries, label)
    return Submission(namespace, source, {filename}, label)


def from_file(path: str | Path, entries: list[str], max_lines: int) -> Submission:
    path = Path(path)
    if not path.is_file():
        raise BadSubmission(f"{path}: no such file")
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadSubmission(f"{path}: cannot be read ({e})") from None
    return from_source(source, str(path.resolve()), entries, max_lines)


def from_namespace(namespace: dict[str, Any], entries: list[str]) -> Submission:
    """A notebook's globals: the learner's functions are whatever the cells defined."""
    _check_entries(namespace, entries, "your notebook")
    instrumented = TICK in namespace  # the notebook's cells were compiled with budget ticks
    files: set[str] = set()
    sources = []
    for name in entries:
        code = getattr(inspect.unwrap(namespace[name]), "__code__", None)
        if code is not None:
            files.add(code.co_filename)
    for value in namespace.values():
        value = inspect.unwrap(value) if callable(value) else value
        code = getattr(value, "__code__", None)
        if isinstance(value, types.FunctionType) and code is not None and code.co_filename in files:
            try:
                sources.append(inspect.getsource(value))
            except (OSError, TypeError):
                sources.append(code.co_name)
    return Submission(dict(namespace), "\n".join(sources), files, "your notebook", instrumented)
