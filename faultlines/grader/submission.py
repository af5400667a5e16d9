"""Loading a learner's code: from a file (the CLI) or from a notebook's namespace (check()).

Every way it can be unusable (missing file, syntax error, a missing function, an exception at
import) becomes one readable line in a BadSubmission, never a traceback.

Every graded run gets its own load (`Submission.load()`), so no state carries from one run into
the next and a verdict never depends on the order the runs came in: a file's compiled code is run
again for each run; a notebook's state is copied once and a fresh copy is swapped in for each run
(notebook_state), since its cells cannot be run again. The grader reaches a submission only
through `load()`, `source`, `code_hash` and `counter()`, so a loader that runs the code elsewhere
(another process) can take the place of these two.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import types
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .budgets import HOOKS, TICK, Counter, LearnerBudgetExceeded, TraceCounter, instrument
from .notebook_state import NotebookState


class BadSubmission(Exception):
    """The submission cannot be graded at all; str(self) is one line for the learner."""


class Loader(Protocol):
    def fresh(self) -> AbstractContextManager[dict[str, Any]]:
        """The learner's namespace for one run, its state as it was loaded."""
        ...


@dataclass
class Submission:
    loader: Loader
    source: str
    files: set[str] = field(default_factory=set)  # filenames of the learner's frames (for budgets)
    label: str = "submission"
    instrumented: bool = True  # compiled with budget ticks; if not, counted by a trace function

    @property
    def code_hash(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()[:10]

    @contextmanager
    def load(self) -> Iterator[types.SimpleNamespace]:
        """The learner's functions for one graded run, on state no other run has touched."""
        with self.loader.fresh() as namespace:
            yield types.SimpleNamespace(**namespace)

    def counter(self, max_lines: int) -> Counter:
        return Counter(max_lines) if self.instrumented else TraceCounter(self.files, max_lines)


class CompiledFile:
    """A file's code, compiled once (with budget ticks) and run again for every graded run."""

    def __init__(self, code: Any, filename: str, max_lines: int):
        self.code, self.filename, self.max_lines = code, filename, max_lines

    @contextmanager
    def fresh(self) -> Iterator[dict[str, Any]]:
        yield _execute(self.code, self.filename, self.max_lines)


def _execute(code: Any, filename: str, max_lines: int) -> dict[str, Any]:
    label = Path(filename).name
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
    return namespace


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
    # Loaded once here to say what is wrong before any run; each run loads it again.
    _check_entries(_execute(code, filename, max_lines), entries, label)
    return Submission(CompiledFile(code, filename, max_lines), source, {filename}, label)


def syntax_excerpt(source: str) -> list[str]:
    """For a terminal, under a syntax error's one line: the line it is on and a caret under the
    place, as Python shows them. Empty when the source parses. Parsing is not running: the judge
    compiles the source too (for reading its functions), and never executes it."""
    try:
        ast.parse(source)
    except SyntaxError as e:
        return _caret(e)
    except Exception:  # null bytes (3.11), a parser that gives up: the one line says enough
        return []
    return []


def _caret(e: SyntaxError) -> list[str]:
    if not e.text or not e.offset:
        return []
    # One character for one: a tab, a control character, would move the caret or the terminal.
    line = "".join(c if c.isprintable() else " " if c == "\t" else "?" for c in e.text.rstrip("\r\n"))
    indent = len(line) - len(line.lstrip())
    start = min(max(e.offset - 1, indent), len(line))
    end = e.end_offset - 1 if e.end_lineno == e.lineno and e.end_offset else start + 1
    width = max(1, min(end, len(line) + 1) - start)
    return ["    " + line[indent:], "    " + " " * (start - indent) + "^" * width]


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
    state = NotebookState(namespace, entries)  # copied now, once: later runs never re-run a cell
    return Submission(state, "\n".join(sources), files, "your notebook", instrumented)
