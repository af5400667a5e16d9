"""miniray's floors (docs/design/simulator.md): imports point down, no circles, no hidden imports.

Read from the source with `ast`, so it checks what a newcomer's change does to the structure, not
what happens to import first at run time.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import miniray

ROOT = Path(miniray.__file__).resolve().parent

# Floor of each module (a package's modules share its floor unless listed). Lower imports only lower or equal.
FLOORS = {
    "kernel": 1, "log": 1, "events": 1, "states": 1, "waitable": 1, "ids": 1, "cluster": 1,
    "exceptions": 1, "options": 1, "strategies": 1, "system_config": 1,
    "copying": 1, "isolation": 1, "journal": 1, "tracebacks": 1,
    "objects": 2, "execution": 2, "tasks": 2, "actors": 2, "retry": 2, "scheduler": 2, "faults": 2,
    "runtime": 2, "waiting": 2, "placement": 2, "aio": 2, "process": 2, "generators": 2,
    "memory": 2, "head": 2,
    "session": 3, "context": 3, "sim": 3, "observe": 3, "liveness": 3,
    "api": 4, "remote_function": 4, "cluster_utils": 4, "util": 4, "__init__": 4,
    "actor": 4, "cancel": 4, "runtime_context": 4, "_raylet": 4,
}  # fmt: skip


@cache
def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts)] = path
    return out


def floor(name: str) -> int:
    return FLOORS[name.split(".")[0]]


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


@cache
def imports(name: str, path: Path) -> tuple[list[tuple[str, int]], list[tuple[int, str]]]:
    """(targets imported when the module loads, with line), (function-level imports: line, text)."""
    tree = ast.parse(path.read_text())
    package = name.rsplit(".", 1)[0] if "." in name and not name.endswith("__init__") else ""
    if name.endswith("__init__"):
        package = name[: -len(".__init__")] if "." in name else ""
    loaded: list[tuple[str, int]] = []
    hidden: list[tuple[int, str]] = []
    lines = path.read_text().splitlines()

    def target(node: ast.ImportFrom) -> list[str]:
        if node.level == 0:
            base = (node.module or "").removeprefix("miniray").lstrip(".")
            if not (node.module or "").startswith("miniray"):
                return []
        else:
            up = package.split(".") if package else []
            up = up[: len(up) - (node.level - 1)] if node.level > 1 else up
            base = ".".join(up + ([node.module] if node.module else []))
        out = []
        for alias in node.names:
            full = f"{base}.{alias.name}" if base else alias.name
            out.append(full if full in modules() or full.split(".")[0] in FLOORS else base)
        return [t for t in out if t]

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, True)
            elif isinstance(child, ast.ImportFrom):
                if in_function:
                    hidden.append((child.lineno, lines[child.lineno - 2].strip()))
                else:
                    loaded.extend((t, child.lineno) for t in target(child))
            else:
                walk(child, in_function)

    walk(tree, False)
    return loaded, hidden


def test_imports_point_down_or_sideways():
    wrong = []
    for name, path in modules().items():
        for target, line in imports(name, path)[0]:
            top = target.split(".")[0]
            if top in FLOORS and floor(target) > floor(name):
                wrong.append(f"{name}:{line} imports {target} (floor {floor(target)} > {floor(name)})")
    assert not wrong, "an import climbs a floor (docs/design/simulator.md):\n" + "\n".join(wrong)


def test_no_import_circles_counting_package_inits():
    graph: dict[str, set[str]] = {}
    mods = modules()
    for name, path in mods.items():
        edges = set()
        for target, _ in imports(name, path)[0]:
            parts = target.split(".")
            # Importing a.b.c runs a/__init__ and a/b/__init__ first.
            for i in range(1, len(parts)):
                init = ".".join(parts[:i]) + ".__init__"
                if init in mods and init != name:
                    edges.add(init)
            key = target if target in mods else target + ".__init__"
            if key in mods and key != name:
                edges.add(key)
        graph[name] = edges
    seen: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in seen:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        seen[node] = 2
        return None

    for start in sorted(graph):
        if start not in seen:
            circle = visit(start)
            assert circle is None, "import circle: " + " -> ".join(circle)


def test_a_function_level_import_says_why():
    silent = []
    for name, path in modules().items():
        for line, above in imports(name, path)[1]:
            if not above.startswith("#"):
                silent.append(f"{name}:{line}")
    assert not silent, "imports inside functions need a comment above saying why: " + ", ".join(silent)
