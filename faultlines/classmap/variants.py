"""Harmless variations of a submission, and a made-up class built from an exercise's catalogue.

A class map is only useful if the same mistake lands in one group however it is written. This
writes the same code in other words, never other behaviour:

- **rename**: every name the code binds inside a function (locals, nested functions and
  classes: the learner's tasks and actors) gets another name, everywhere it is used. Parameters,
  class attributes, methods, imports and the names the exercise spells keep theirs: a caller (the
  scenario, a keyword argument, an attribute lookup) may spell them. The exercise spells its
  entry functions, and the tasks and actors its fixed schedules name (`crash Tally.add#2/1
  step=0` names the class `Tally`: a learner who renames it is not crashed there).
- **reorder**: adjacent statements that cannot see each other swap: two imports, two
  definitions at the top level, two assignments in a body that call nothing and share no name.
- **comments**: comment lines and blank lines between statements.

`make_class` writes DIR/<exercise>/<student>.py for each exercise, from the catalogue's wrong
solutions and the right ones, each through a few variations, with DIR/manifest.json saying
what each file was made from. Every choice comes from a seed through hashlib: the same
arguments write the same class.

    python -m faultlines.classmap.variants DIR [--students N] [--exercises fault00,fault02,fault05]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from faultlines.grader import exercise

WORDS = ["acc", "item", "part", "piece", "thing", "val", "node", "entry", "step", "unit", "box", "job"]
COMMENTS = ["# see the statement", "# TODO tidy", "# keep this simple", "# checked by hand", "# note to self"]
KINDS = ("rename", "reorder", "comments")
# The variations a made-up class's students take in turn (the first to hand in a solution hands
# it in as written).
MIXES = [
    ("rename",),
    ("rename", "reorder", "comments"),
    ("reorder", "comments"),
    ("rename", "comments"),
    ("comments",),
    ("rename", "reorder"),
]


def _pick(seed: str, options: list[str]) -> str:
    return options[int(hashlib.sha256(seed.encode()).hexdigest(), 16) % len(options)]


def _bound_in_functions(tree: ast.Module) -> set[str]:
    """Names bound inside function bodies that only this code spells (see the docstring)."""
    bound: set[str] = set()
    protected: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a is not None:
                    protected.add(a.arg)
        if isinstance(node, ast.ClassDef):
            for item in node.body:  # class attributes and methods are reached by attribute
                for target in ast.walk(item) if isinstance(item, (ast.Assign, ast.AnnAssign)) else []:
                    if isinstance(target, ast.Name):
                        protected.add(target.id)
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    protected.add(item.name)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            protected.update((a.asname or a.name).split(".")[0] for a in node.names)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            protected.update(node.names)
    for top in tree.body:
        protected.update(
            _binds(top) if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) else {top.name}
        )
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(top):
                if node is top:
                    continue
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    bound.add(node.name)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    bound.add(node.id)
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    bound.add(node.name)
    return {n for n in bound - protected if not n.startswith("__")}


def _binds(node: ast.stmt) -> set[str]:
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            out.add(sub.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(sub.name)
    return out


class _Rename(ast.NodeTransformer):
    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.mapping.get(node.id, node.id)
        return node

    def _named(self, node):  # a def or class: its own name, then its body
        node.name = self.mapping.get(node.name, node.name)
        self.generic_visit(node)
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _named

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.ExceptHandler:
        if node.name:
            node.name = self.mapping.get(node.name, node.name)
        self.generic_visit(node)
        return node


def rename(tree: ast.Module, seed: str, entries: set[str]) -> dict[str, str]:
    names = sorted(_bound_in_functions(tree) - entries)
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | set(entries)
    mapping: dict[str, str] = {}
    for name in names:
        new = f"{_pick(seed + name, WORDS)}_{name[:3]}{len(mapping) + 1}"
        while new in taken:
            new += "_"
        taken.add(new)
        mapping[name] = new
    _Rename(mapping).visit(tree)
    return mapping


def _reads_writes(node: ast.stmt) -> tuple[set[str], set[str]]:
    reads: set[str] = set()
    writes: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            (writes if isinstance(sub.ctx, ast.Store) else reads).add(sub.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            writes.add(sub.name)
    return reads, writes


def _independent(a: ast.stmt, b: ast.stmt, top: bool) -> bool:
    imports = (ast.Import, ast.ImportFrom)
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    if isinstance(a, imports) and isinstance(b, imports):
        return True
    if top and isinstance(a, defs) and isinstance(b, defs):
        return True  # bodies run later, when called: two definitions never see each other here
    if not all(isinstance(s, ast.Assign) for s in (a, b)):
        return False
    if any(
        isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.Attribute, ast.Subscript))
        for s in (a, b)
        for n in ast.walk(s)
    ):
        return False
    ra, wa = _reads_writes(a)
    rb, wb = _reads_writes(b)
    return not (wa & (rb | wb) or wb & ra)


def reorder(tree: ast.Module, seed: str) -> int:
    """Swap adjacent independent statements (each pair at most once); how many swaps."""
    swaps = 0
    bodies: list[tuple[list[ast.stmt], bool]] = [(tree.body, True)]
    bodies += [
        (n.body, False) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    for body, top in bodies:
        i = 0
        while i + 1 < len(body):
            if _independent(body[i], body[i + 1], top) and _pick(f"{seed}/{i}", ["swap", "keep"]) == "swap":
                body[i], body[i + 1] = body[i + 1], body[i]
                swaps += 1
                i += 2
            else:
                i += 1
    return swaps


def comment(source: str, seed: str) -> str:
    """Comment lines (at the next line's indentation) and blank lines between statements."""
    out = []
    for i, line in enumerate(source.splitlines()):
        stripped = line.lstrip()
        choice = _pick(f"{seed}/{i}", ["comment", "blank", "none", "none"])
        if stripped and not stripped.startswith(("@", ")", "]", "}", "else", "elif", "except", "finally")):
            indent = line[: len(line) - len(stripped)]
            if choice == "comment":
                out.append(indent + _pick(f"{seed}/{i}/c", COMMENTS))
            elif choice == "blank":
                out.append("")
        out.append(line)
    return "\n".join(out) + "\n"


def vary(source: str, seed: str, entries: set[str], kinds: tuple[str, ...] = KINDS) -> str:
    """`source` with the variations `kinds` applied (see the module docstring)."""
    tree = ast.parse(source)
    if "rename" in kinds:
        rename(tree, seed, entries)
    if "reorder" in kinds:
        reorder(tree, seed)
    text = ast.unparse(tree) + "\n"
    return comment(text, seed) if "comments" in kinds else text


def spelled(ex: exercise.Exercise) -> set[str]:
    """The names an exercise spells: its entry functions, and the functions and classes its
    fixed schedules target (`crash Tally.add#2/1 step=0`: Tally)."""
    names = set(ex.entry)
    for tier in ex.tiers:
        for _scenario, schedule in tier.runs:
            for token in schedule:
                parts = token.split()
                if len(parts) > 1 and "#" in parts[1]:
                    names.update(parts[1].split("#")[0].split("."))
    return names


@dataclass
class Made:
    key: str  # DIR-relative path: fault05/s007.py
    exercise: str
    origin: str  # wrong/<file>, right/<file> or reference.py
    hint: str  # the catalogue's expected hint ("" for a correct solution)
    kinds: list[str]


def make_class(folder: Path, exercises: list[str], students: int, seed: str = "class") -> list[Made]:
    """A class of `students`, each handing in every exercise of `exercises` (see the docstring):
    about one in six hands in a correct solution, the others a catalogued mistake."""
    made: list[Made] = []
    for ex_id in exercises:
        ex = exercise.load(ex_id)
        wrong = ex.wrong_solutions()
        right = [ex.reference_path, *ex.right_solutions()]
        seen: set[Path] = set()
        for i in range(students):
            student = f"s{i + 1:03d}"
            if i % 6 == 5 or not wrong:
                origin, hint = right[(i // 6) % len(right)], ""
            else:
                w = wrong[(i - i // 6) % len(wrong)]
                origin, hint = w.path, w.hint
            kinds = list(MIXES[i % len(MIXES)]) if origin in seen else []  # each once as written
            seen.add(origin)
            text = vary(
                origin.read_text(encoding="utf-8"), f"{seed}/{ex_id}/{student}", spelled(ex), tuple(kinds)
            )
            key = f"{ex_id}/{student}.py"
            (folder / key).parent.mkdir(parents=True, exist_ok=True)
            (folder / key).write_text(text, encoding="utf-8")
            made.append(Made(key, ex_id, origin.relative_to(ex.folder).as_posix(), hint, kinds))
    (folder / "manifest.json").write_text(json.dumps([asdict(m) for m in made], indent=1) + "\n")
    return made


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m faultlines.classmap.variants", description=__doc__.split("\n")[0]
    )
    p.add_argument("folder")
    p.add_argument("--students", type=int, default=70)
    p.add_argument("--exercises", default="fault00,fault02,fault05")
    args = p.parse_args(argv)
    made = make_class(Path(args.folder), args.exercises.split(","), args.students)
    print(f"wrote {len(made)} submissions to {args.folder}")


if __name__ == "__main__":
    main()
