"""Lesson code has one home: faultlines/stories. A notebook shows a story's code so the learner can
edit it, and this test proves the shown copy is the story, character for character.

A lesson notebook marks such a cell with a first line naming the file the code comes from:

    # faultlines/stories/squares.py
    def squares(n: int = 6, max_retries: int = 3) -> list[int]:
        ...

Every function or class the cell defines that the module also defines must have the module's
exact source; the build's numbers, figures and widgets run the module, the learner runs the cell,
and the two cannot drift. A notebook function that shares a story function's name outside a
marked cell is a silent copy and fails too.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from tests.lessons.lesson_files import REPO, code_cells, lesson_sources

STORIES = REPO / "faultlines/stories"
MARKER = re.compile(r"^# faultlines/stories/(\w+)\.py\s*$")


def _definitions(source: str) -> dict[str, str]:
    """Top-level functions and classes of a module or cell, by name, as source text."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            found[node.name] = textwrap.dedent("\n".join(lines[first - 1 : node.end_lineno]))
    return found


def _story(module: str) -> dict[str, str]:
    path = STORIES / f"{module}.py"
    assert path.is_file(), f"a notebook cell names faultlines/stories/{module}.py, which does not exist"
    return _definitions(path.read_text(encoding="utf-8"))


def _marked_cells(source: Path) -> list[tuple[str, str]]:
    marked = []
    for code, _tags in code_cells(source):
        first = code.splitlines()[0] if code.strip() else ""
        match = MARKER.match(first)
        if match:
            marked.append((match.group(1), code))
    return marked


@pytest.mark.parametrize("source", lesson_sources(), ids=lambda p: p.stem)
def test_a_notebook_shows_its_stories_exactly(source: Path):
    for module, code in _marked_cells(source):
        story, cell = _story(module), _definitions(code)
        shared = sorted(set(story) & set(cell))
        assert shared, (
            f"{source.name}: a cell marked faultlines/stories/{module}.py defines none of its names"
        )
        for name in shared:
            assert cell[name] == story[name], (
                f"{source.name}: `{name}` differs from faultlines/stories/{module}.py; "
                "copy the module's source into the cell (or change both)"
            )


@pytest.mark.parametrize("source", lesson_sources(), ids=lambda p: p.stem)
def test_no_unmarked_copy_of_a_story_function(source: Path):
    public = {
        name: path.stem
        for path in sorted(STORIES.glob("*.py"))
        for name in _definitions(path.read_text(encoding="utf-8"))
        if not name.startswith("_")
    }
    for code, _tags in code_cells(source):
        if not code.strip() or MARKER.match(code.splitlines()[0]):
            continue
        try:
            names = _definitions(code)
        except SyntaxError:
            continue  # a cell with IPython syntax defines nothing worth comparing
        copies = {name: public[name] for name in names if name in public}
        assert not copies, (
            f"{source.name} defines {sorted(copies)} outside a marked cell: mark the cell with "
            f"'# faultlines/stories/<module>.py' ({copies}) so the copy is checked"
        )


def test_the_marker_is_found():
    """The rule above must bite: lessons 1 and 2 show their stories."""
    shown = {module for source in lesson_sources() for module, _code in _marked_cells(source)}
    assert {"squares", "retries"} <= shown, shown
