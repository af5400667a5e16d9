"""The intended structure (docs/design/layers.toml, shown in docs/design/simulator.md): miniray's
floors, imports pointing down, no circles, no hidden imports, dependencies pointing one way, and
one doorway from the course into the engine; the course's own floors (faultlines' subpackages,
strictly downward, so no circle between them), and the names the sandbox writes as strings,
each resolved to a real object.

Read from the source with `ast`, so it checks what a newcomer's change does to the structure, not
what happens to import first at run time. Floors and circles count every import that runs: at
the top of a module and inside its functions (only `TYPE_CHECKING` imports, which never run, are
left out), so a circle cannot hide in a function-level import.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib
import re
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


# -- the course's floors (layers.toml [course_floors]) ------------------------------------------------
COURSE = REPO / "faultlines"
COURSE_FLOORS: dict[str, int] = LAYERS["course_floors"]


def _room(path: Path) -> str:
    """The subpackage (or top-level module) a faultlines file belongs to: `grader`, `notebook`."""
    parts = path.relative_to(COURSE).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def _course_imports(path: Path) -> list[tuple[str, int]]:
    """(the faultlines room imported, line) of every import that runs in a faultlines file: at
    the top and inside functions; TYPE_CHECKING ones, which never run, left out. Relative
    imports resolved from the file's package."""
    package = list(path.relative_to(REPO).with_suffix("").parts[:-1])  # ["faultlines", "grader"]
    found: list[tuple[str, int]] = []

    def rooms(dotted: str) -> list[str]:
        parts = dotted.split(".")
        return [parts[1]] if parts[0] == "faultlines" and len(parts) > 1 else []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                continue
            if isinstance(child, ast.Import):
                found.extend((r, child.lineno) for a in child.names for r in rooms(a.name))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - (child.level - 1)] + (
                        [child.module] if child.module else []
                    )
                else:
                    base = (child.module or "").split(".")
                if len(base) > 1 or child.module is not None:
                    found.extend((r, child.lineno) for r in rooms(".".join(base)))
                if len(base) == 1:  # `from faultlines import notebook`, `from . import debugger`
                    found.extend((r, child.lineno) for a in child.names for r in rooms(f"{base[0]}.{a.name}"))
            else:
                walk(child)

    walk(ast.parse(path.read_text()))
    return [(r, line) for r, line in found if (COURSE / r).is_dir() or (COURSE / f"{r}.py").is_file()]


def _course_files() -> list[Path]:
    return sorted(p for p in COURSE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_room_of_the_course_has_a_floor():
    rooms = {_room(p) for p in _course_files()}
    assert rooms - set(COURSE_FLOORS) == set(), "give it a floor in docs/design/layers.toml [course_floors]"
    assert set(COURSE_FLOORS) - rooms == set(), "a floor for a room that is gone"


def test_the_course_imports_only_downward():
    wrong = []
    for path in _course_files():
        me = _room(path)
        for room, line in _course_imports(path):
            if room != me and COURSE_FLOORS[room] >= COURSE_FLOORS[me]:
                wrong.append(
                    f"{path.relative_to(REPO)}:{line} imports faultlines.{room} "
                    f"(floor {COURSE_FLOORS[room]}, not below {me}'s {COURSE_FLOORS[me]})"
                )
    assert not wrong, "an import in the course does not point down (docs/design/layers.toml):\n" + "\n".join(
        wrong
    )


def test_no_circle_between_the_courses_rooms():
    graph: dict[str, set[str]] = {room: set() for room in COURSE_FLOORS}
    for path in _course_files():
        graph[_room(path)].update(r for r, _ in _course_imports(path) if r != _room(path))
    assert circles(graph) == []


def test_the_course_floor_check_sees_function_level_and_relative_imports():
    fake = COURSE / "notebook.py"  # read as it is: a relative import, and one inside a function
    seen = {room for room, _ in _course_imports(fake)}
    assert {"grader", "cell_runs", "debugger"} <= seen


# -- names written as strings (layers.toml [named]) ---------------------------------------------------
_MODULE = re.compile(r"^(miniray|faultlines)(\.[A-Za-z_]\w*)*$")
_QUALNAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def resolve(module: str, qualname: str | None = None) -> object:
    """Where "module:qualname" is defined: its module's file, and the definition of each part
    of the qualname in it (read from the source, not imported: the jail's modules need Linux's
    `resource`, which Pyodide has not); raises if there is none."""
    parts = module.split(".")
    path = REPO.joinpath(*parts).with_suffix(".py")
    if not path.is_file():
        path = REPO.joinpath(*parts, "__init__.py")
    if not path.is_file():
        raise ImportError(f"no module {module}")
    scope: list[ast.stmt] = ast.parse(path.read_text()).body
    found: object = path
    for part in (qualname or "").split(".") if qualname else ():
        for node in scope:
            if _defines(node, part):
                found = node
                scope = node.body if isinstance(node, ast.ClassDef) else []
                break
        else:
            raise AttributeError(f"{module} defines no {qualname}")
    return found


def _defines(node: ast.stmt, name: str) -> bool:
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.name == name
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name.split(".")[0]) == name for a in node.names)
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, ast.AnnAssign)
        else []
    )
    return any(n.id == name for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def named_in(path: Path) -> list[tuple[int, str, str | None]]:
    """(line, module, qualname or None) of each name a file writes as a string: "module:qualname",
    ("module", "qualname"), a `__module__` compared with "module" (with the `__name__` it is
    compared with beside it), and a module's dotted name ("faultlines.cli.child" for `-m`).
    Docstrings are prose, left out."""
    tree = ast.parse(path.read_text())
    prose = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and _string(n.body[0].value) is not None
    }
    out: list[tuple[int, str, str | None]] = []
    paired: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:
            module, qualname = (_string(e) for e in node.elts)
            if module and qualname and "." in module and _MODULE.match(module) and _QUALNAME.match(qualname):
                out.append((node.lineno, module, qualname))
                paired.update(id(e) for e in node.elts)
        elif isinstance(node, ast.BoolOp):  # type(x).__name__ == "Named" and type(x).__module__ == "m"
            said = {}
            for value in node.values:
                if isinstance(value, ast.Compare) and isinstance(value.left, ast.Attribute):
                    text = _string(value.comparators[0])
                    if text is not None and value.left.attr in ("__name__", "__module__"):
                        said[value.left.attr] = (text, value.comparators[0])
            if "__module__" in said and "__name__" in said and _MODULE.match(said["__module__"][0]):
                out.append((node.lineno, said["__module__"][0], said["__name__"][0]))
                paired.update(id(n) for _, n in said.values())
    for node in ast.walk(tree):
        text = _string(node)
        if text is None or id(node) in prose or id(node) in paired:
            continue
        module, colon, qualname = text.partition(":")
        if colon and _MODULE.match(module) and _QUALNAME.match(qualname):
            out.append((node.lineno, module, qualname))
        elif not colon and _MODULE.match(text) and "." in text:
            out.append((node.lineno, text, None))
    return out


def _named_files() -> list[Path]:
    return sorted({p for pattern in LAYERS["named"]["files"] for p in REPO.glob(pattern)})


def test_every_name_the_sandbox_writes_as_a_string_is_a_real_object():
    wrong, seen = [], 0
    for path in _named_files():
        for line, module, qualname in named_in(path):
            seen += 1
            try:
                resolve(module, qualname)
            except (ImportError, AttributeError) as e:
                wrong.append(f"{path.relative_to(REPO)}:{line} names {module}:{qualname or ''} ({e})")
    assert seen >= 10  # the strategies, the judge's classes, the jail's Reload and Named, -m modules
    assert not wrong, "a name written as a string names nothing (renamed?):\n" + "\n".join(wrong)


def test_miniray_s_shipped_names_are_where_they_say():
    from miniray.api_surface import SHIPPED

    def real(name: str) -> object:
        module, _, attr = name.partition(":")
        return getattr(importlib.import_module(module), attr)

    moved = [name for name, value in SHIPPED.items() if real(name) is not value]
    assert not moved, moved


def test_the_name_check_finds_a_renamed_name(tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text(
        '"""faultlines.nowhere:Doc is prose."""\n'
        'A = "miniray.strategies:NoSuchStrategy"\n'
        'B = ("faultlines.sandbox.inside", "Reload")\n'
        "C = type(x).__name__ == 'Gone' and type(x).__module__ == 'faultlines.sandbox.inside'\n"
        'D = ["-m", "faultlines.cli.no_such_verb"]\n'
    )
    found = named_in(fake)
    assert [(m, q) for _, m, q in found] == [
        ("faultlines.sandbox.inside", "Reload"),
        ("faultlines.sandbox.inside", "Gone"),
        ("miniray.strategies", "NoSuchStrategy"),
        ("faultlines.cli.no_such_verb", None),
    ]
    broken = []
    for _, module, qualname in found:
        try:
            resolve(module, qualname)
        except (ImportError, AttributeError):
            broken.append(qualname or module)
    assert broken == ["Gone", "NoSuchStrategy", "faultlines.cli.no_such_verb"]
