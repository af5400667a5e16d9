"""Counted budgets for a learner's code: statements executed and call depth, never time.

The learner's source is compiled with a tick before every statement and an enter/leave around
every function body (`instrument`), so the count covers the learner's own code only and costs
nothing in miniray's or the grader's frames. A notebook gets the same by an AST transformer on
its cells (faultlines.notebook). Code that was not instrumented (a namespace from a plain
script) is counted with a trace function instead: the same unit, only slower.

Budgets are ten times what the reference needs, so a verdict never hinges on an exact count:
Pyodide runs Python 3.14 and the dev environment 3.11.
"""

from __future__ import annotations

import ast
import linecache
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

DEFAULT_MAX_DEPTH = 60  # far below CPython's and Pyodide's recursion limits, so both stop here
TICK, ENTER, LEAVE = "__fl_tick__", "__fl_enter__", "__fl_leave__"


class LearnerBudgetExceeded(BaseException):
    """The learner's code ran past a budget. A BaseException so `except Exception` can't hide it."""


class Counter:
    """Counts statements and depth; `counting()` makes it the one the instrumented code ticks."""

    active: Counter | None = None

    def __init__(self, max_lines: int, max_depth: int = DEFAULT_MAX_DEPTH):
        self.max_lines = max_lines
        self.max_depth = max_depth
        self.lines = 0
        self.depth = 0

    def tick(self) -> None:
        self.lines += 1
        if self.lines > self.max_lines:
            raise LearnerBudgetExceeded(
                f"step budget exhausted: your code ran more than {self.max_lines} statements in one run "
                f"(ten times what the reference needs){_running()}. Does a loop never end?"
            )

    def enter(self, name: str) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            self.depth = 0
            raise LearnerBudgetExceeded(
                f"call depth budget exhausted: your code nested more than {self.max_depth} calls "
                f"({name} calls itself without end?)"
            )

    def leave(self) -> None:
        self.depth -= 1

    @contextmanager
    def counting(self) -> Iterator[Counter]:
        self.lines = 0
        self.depth = 0
        saved, Counter.active = Counter.active, self
        try:
            yield self
        finally:
            Counter.active = saved


def _running() -> str:
    """The learner's line the budget ran out on, as words: the first frame up the stack that is
    not this module's (the instrumented code's tick, or the trace function's frame)."""
    here = _running.__code__.co_filename  # not __file__: a wheel's bytecode names its own
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == here:
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return ""
    code = frame.f_code
    line = " ".join(linecache.getline(code.co_filename, frame.f_lineno).split())
    text = "".join(c if c.isprintable() else "?" for c in line)  # no escape reaches a terminal
    text = text if len(text) <= 80 else text[:77] + "..."
    where = "" if code.co_name == "<module>" else f" in {code.co_name}"
    return f"; it stopped at line {frame.f_lineno}{where}" + (f": {text}" if text else "")


def _tick() -> None:
    counter = Counter.active
    if counter is not None:
        counter.tick()


def _enter(name: str) -> None:
    counter = Counter.active
    if counter is not None:
        counter.enter(name)


def _leave() -> None:
    counter = Counter.active
    if counter is not None:
        counter.leave()


HOOKS = {TICK: _tick, ENTER: _enter, LEAVE: _leave}


def _call(name: str, *args: ast.expr) -> ast.stmt:
    return ast.Expr(ast.Call(ast.Name(name, ast.Load()), list(args), []))


class _Instrument(ast.NodeTransformer):
    def _stmts(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            stmt = self.visit(stmt)
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                out.append(stmt)
                continue
            # The tick takes its statement's line: a budget that runs out there names that line.
            out += [ast.copy_location(_call(TICK), stmt), stmt]
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self._stmts(value))
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(value, list):
                continue
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        has_yield = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))
        if not has_yield:  # a generator may never finish, so its depth could not be given back
            guarded = ast.Try(body=node.body, handlers=[], orelse=[], finalbody=[_call(LEAVE)])
            node.body = [_call(ENTER, ast.Constant(node.name)), guarded]
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]


def instrument(source: str, filename: str) -> Any:
    """Compile `source` with budget ticks; raises SyntaxError as compile() does."""
    tree = ast.parse(source, filename)
    tree = _Instrument().visit(tree)
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")


def instrument_tree(tree: ast.Module) -> ast.Module:
    """For IPython's ast_transformers: the same ticks, on a cell's tree."""
    tree = _Instrument().visit(tree)
    ast.fix_missing_locations(tree)
    return tree


class TraceCounter(Counter):
    """The fallback for code compiled without ticks: a trace function on the learner's frames."""

    def __init__(self, files: set[str], max_lines: int, max_depth: int = DEFAULT_MAX_DEPTH):
        super().__init__(max_lines, max_depth)
        self.files = files

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.tick()
        elif event == "return":
            self.leave()
        return self._local

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename not in self.files:
            return None
        self.enter(frame.f_code.co_name)
        return self._local

    @contextmanager
    def counting(self) -> Iterator[Counter]:
        saved = sys.gettrace()
        with super().counting():
            sys.settrace(self._global)
            try:
                yield self
            finally:
                sys.settrace(saved)
