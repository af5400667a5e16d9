"""The intended structure (docs/design/layers.toml, shown in docs/design/simulator.md): miniray's
floors, imports pointing down, no circles, no hidden imports, dependencies pointing one way, and
one doorway from the course into the engine.

Read from the source with `ast`, so it checks what a newcomer's change does to the structure, not
what happens to import first at run time. Floors and circles count every import that runs: at
the top of a module and inside its functions (only `TYPE_CHECKING` imports, which never run, are
left out), so a circle cannot hide in a function-level import.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib
import tomllib
from functools import cache
from pathlib import Path

import miniray

ROOT = Path(miniray.__file__).resolve().parent
REPO = ROOT.parent
LAYERS = tomllib.loads((REPO / "docs/design/layers.toml").read_text())
FLOORS: dict[str, int] = LAYERS["floors"]


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
    """(targets imported when the module loads, with line), (function-level imports: line, the
    line above). `run_time_imports` has the function-level ones' targets."""
    loaded, hidden, _ = _imports(name, path)
    return loaded, hidden


@cache
def run_time_imports(name: str, path: Path) -> list[tuple[str, int]]:
    """Every target the module imports when it runs: as it loads, and inside its functions (an
    import there runs at the first call, and closes a circle as surely as one at the top)."""
    loaded, _, in_functions = _imports(name, path)
    return loaded + in_functions


def _imports(
    name: str, path: Path
) -> tuple[list[tuple[str, int]], list[tuple[int, str]], list[tuple[str, int]]]:
    tree = ast.parse(path.read_text())
    package = name.rsplit(".", 1)[0] if "." in name and not name.endswith("__init__") else ""
    if name.endswith("__init__"):
        package = name[: -len(".__init__")] if "." in name else ""
    loaded: list[tuple[str, int]] = []
    hidden: list[tuple[int, str]] = []
    in_functions: list[tuple[str, int]] = []
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
                    in_functions.extend((t, child.lineno) for t in target(child))
                else:
                    loaded.extend((t, child.lineno) for t in target(child))
            else:
                walk(child, in_function)

    walk(tree, False)
    return loaded, hidden, in_functions


def test_imports_point_down_or_sideways():
    wrong = []
    for name, path in modules().items():
        for target, line in run_time_imports(name, path):
            top = target.split(".")[0]
            if top in FLOORS and floor(target) > floor(name):
                wrong.append(f"{name}:{line} imports {target} (floor {floor(target)} > {floor(name)})")
    assert not wrong, "an import climbs a floor (docs/design/simulator.md):\n" + "\n".join(wrong)


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it runs when it runs: what it imports as it loads and inside its
    functions, counting the package `__init__` that importing a submodule runs first."""
    graph: dict[str, set[str]] = {}
    mods = modules()
    for name, path in mods.items():
        edges = set()
        own = name.split(".")[:-1]  # the packages this module is inside: already importing
        for target, _ in run_time_imports(name, path):
            parts = _module_of(target).split(".")
            # Importing a.b.c runs a/__init__ and a/b/__init__ first, unless the importer is
            # itself inside a (then a is importing already, and Python uses it as it stands).
            for i in range(1, len(parts)):
                if parts[:i] == own[:i]:
                    continue
                init = ".".join(parts[:i]) + ".__init__"
                if init in mods and init != name:
                    edges.add(init)
            module = ".".join(parts)
            key = module if module in mods else module + ".__init__"
            if key in mods and key != name:
                edges.add(key)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's circles: each set of modules that reach one another (Tarjan's strongly
    connected components of more than one module), largest first, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for start in sorted(graph):
        if start not in index:
            visit(start)
    return sorted(found, key=len, reverse=True)


def test_no_import_circles_at_run_time_counting_package_inits_and_function_level_imports():
    found = circles(import_graph())
    assert not found, (
        "import circles (break them by inversion: a hook, a registration, the object passed):\n"
        + ("\n".join(f"{len(c)} modules: {' <-> '.join(c)}" for c in found))
    )


def test_the_circle_finder_finds_a_circle_through_a_function_level_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_a_function_level_import_says_why():
    silent = []
    for name, path in modules().items():
        for line, above in imports(name, path)[1]:
            if not above.startswith("#"):
                silent.append(f"{name}:{line}")
    assert not silent, "imports inside functions need a comment above saying why: " + ", ".join(silent)


def _module_of(target: str) -> str:
    """The module an import names: `placement.manager.PlacementManager` -> `placement.manager`."""
    parts = target.split(".")
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        if candidate in modules() or f"{candidate}.__init__" in modules():
            return candidate
    return target


def _top_level_imports(path: Path) -> set[tuple[str, int]]:
    """(top-level package, line) of every import in a file, function-level ones included."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update((alias.name.split(".")[0], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module.split(".")[0], node.lineno))
    return found


def test_dependencies_point_one_way():
    wrong = []
    for rule in LAYERS["never"]:
        for path in sorted((REPO / rule["folder"]).rglob("*.py")):
            for top, line in _top_level_imports(path):
                if top in rule["imports"]:
                    wrong.append(f"{path.relative_to(REPO)}:{line} imports {top} ({rule['why']})")
    assert not wrong, "an import points the wrong way (docs/design/layers.toml):\n" + "\n".join(wrong)


def _miniray_imports(path: Path) -> list[tuple[str, int]]:
    """Every miniray module a file imports: `import miniray.x`, `from miniray.x import y` (and
    `from miniray import x` when x is a submodule)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "miniray"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "miniray":
                continue
            out.append((node.module, node.lineno))
            face = set(getattr(importlib.import_module(node.module), "__all__", ()))
            for alias in node.names:
                sub = f"{node.module}.{alias.name}".removeprefix("miniray.")
                if alias.name in face:  # a name the package exports (a function named like a module)
                    continue
                if sub in modules() or f"{sub}.__init__" in modules():
                    out.append((f"{node.module}.{alias.name}", node.lineno))
    return out


def test_the_course_enters_the_engine_through_its_doorway():
    doorway = LAYERS["doorway"]
    wrong = []
    for folder in doorway["folders"]:
        for path in sorted((REPO / folder).rglob("*.py")):
            for module, line in _miniray_imports(path):
                if not any(fnmatch.fnmatchcase(module, pattern) for pattern in doorway["public"]):
                    wrong.append(f"{path.relative_to(REPO)}:{line} imports {module}")
    assert not wrong, (
        "past miniray's public face (docs/design/layers.toml lists it): use miniray.sim, or give "
        "the name a public home there:\n" + "\n".join(wrong)
    )
