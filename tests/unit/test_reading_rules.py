"""The course reads runs through its reading (faultlines/reading, docs/design/reading.md), never by
kind strings, and keeps its modules small. Counted over *.py in faultlines/, hooks/, lessons/ and
exercises/*/checks.py, docstrings left out, as issue 28's structural check counts them:

- a record kind written as a string literal ("task.start": a dotted value of `sim.Kind`; `Kind.X`
  is not one): none outside the lesson notebooks, whose labs read the log's text as a learner
  does (`run.log_text.count("task.start")`), and at most five in all;
- a module that compares a record's `.kind` with a kind (a literal, `Kind.X`, a named set of them),
  matches on it or calls `.kind.startswith`: none outside the reading (a lesson notebook may, as a
  learner would);
- the reading stands on `miniray.sim` alone: it imports none of the course's views;
- no file over 400 lines in faultlines/, at most 4 functions over 60 lines in faultlines/ and
  miniray/ together.
"""

from __future__ import annotations

import ast
from pathlib import Path

from miniray.sim import Kind

REPO = Path(__file__).resolve().parents[2]
DOTTED = {k.value for k in Kind if "." in k.value}
KINDS = {k.value for k in Kind}
READING = REPO / "faultlines" / "reading"


def _files(*roots: str) -> list[Path]:
    out = []
    for root in roots:
        out += [p for p in (REPO / root).rglob("*.py") if "__pycache__" not in p.parts]
    return sorted(out)


def _scope() -> list[Path]:
    return _files("faultlines", "hooks", "lessons") + sorted((REPO / "exercises").glob("*/checks.py"))


def _notebook(path: Path) -> bool:
    return path.parent == REPO / "lessons"  # lessons/NN_slug.py: a lab, as the learner reads it


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def kind_literals(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and n.value in DOTTED and id(n) not in skip
    ]


def _kindish(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in KINDS
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id == "Kind"
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_kindish(e) for e in node.elts)
    return isinstance(node, ast.Name) and node.id.isupper()  # a named set of kinds


def _is_kind(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "kind"


def kind_comparisons(path: Path) -> list[int]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            if any(_is_kind(p) for p in parts) and any(_kindish(p) for p in parts):
                found.append(node.lineno)
        elif isinstance(node, ast.Match) and _is_kind(node.subject):
            found.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "startswith"
            and _is_kind(node.func.value)
        ):
            found.append(node.lineno)
    return found


def test_no_record_kind_is_written_as_a_string_outside_the_lesson_labs():
    found = {p.relative_to(REPO): kind_literals(p) for p in _scope()}
    outside = {str(p): lines for p, lines in found.items() if lines and not _notebook(REPO / p)}
    assert not outside, f"ask the reading (faultlines/reading), or write sim.Kind.X: {outside}"
    assert sum(len(lines) for lines in found.values()) <= 5


def test_only_the_reading_compares_record_kinds():
    found = {
        str(p.relative_to(REPO)): lines
        for p in _scope()
        if READING not in p.parents and not _notebook(p) and (lines := kind_comparisons(p))
    }
    assert not found, f"a view compares record kinds; ask the reading a question instead: {found}"


def test_the_rules_see_what_they_look_for(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        '"""node.died in a docstring is not one."""\n'
        'if r.kind == "node.died" or r.kind in KINDS or r.kind.startswith("task."):\n'
        "    x = Kind.NODE_DIED\n"
    )
    assert kind_literals(probe) == [2]
    assert set(kind_comparisons(probe)) == {2} and len(kind_comparisons(probe)) == 3


def _faultlines_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_reading_stands_on_miniray_sim_alone():
    wrong = {}
    for path in _files("faultlines/reading"):
        bad = {
            m
            for m in _faultlines_imports(path)
            if (m.startswith("faultlines") and not m.startswith("faultlines.reading"))
            or (m.startswith("miniray") and m != "miniray" and m != "miniray.sim")
        }
        if bad:
            wrong[path.name] = sorted(bad)
    assert not wrong, f"the reading sits under its views and reads only miniray.sim: {wrong}"


def test_files_and_functions_stay_small():
    long_files = {
        str(p.relative_to(REPO)): n for p in _files("faultlines") if (n := p.read_text().count("\n")) > 400
    }
    assert not long_files, f"files over 400 lines: {long_files}"
    long_functions = []
    for path in _files("faultlines", "miniray"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 60:
                    long_functions.append(f"{path.relative_to(REPO)}:{node.name} ({length})")
    assert len(long_functions) <= 4, f"functions over 60 lines: {long_functions}"
