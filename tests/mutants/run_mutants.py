"""Mutation testing of the exercises' reference solutions (`make mutants`; too slow for make test).

Each mutant changes one thing in a reference (a constant, a comparison, an operator, a keyword
argument, a statement, an exception in an `except`, a return value); the grader must fail it.
A mutant the grader passes is a survivor: either an equivalent mutant (the change cannot matter;
the exercise folder's MUTANTS.md says why) or a hole in the checks (a new fault kind or client
closes it). Prints the kill rate per exercise beside the catalogue's (the exercise's known wrong
solutions: how many fail, and how many of those with the hint their catalogue entry names); exit
1 if a survivor is not explained or a catalogued wrong solution passes.

    python tests/mutants/run_mutants.py [EXERCISE ...]
"""

from __future__ import annotations

import ast
import copy
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from faultlines.grader import exercise, grade, submission  # noqa: E402
from faultlines.grader.submission import BadSubmission  # noqa: E402

FLIP = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.Div: ast.Mult, ast.Pow: ast.Mult}


def _mutations(node: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """(description, replacement) for one node."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, str):
        if isinstance(node.value, bool):
            yield f"{node.value} -> {not node.value}", ast.Constant(not node.value)
        elif isinstance(node.value, int | float):
            for new in {node.value + 1, node.value - 1, 0} - {node.value}:
                yield f"{node.value!r} -> {new!r}", ast.Constant(new)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        yield f"{node.value!r} -> ''", ast.Constant("")
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in FLIP:
        new = copy.copy(node)
        new.ops = [FLIP[type(node.ops[0])]()]
        yield f"{type(node.ops[0]).__name__} -> {type(new.ops[0]).__name__}", new
    elif isinstance(node, ast.BinOp) and type(node.op) in ARITH:
        new = copy.copy(node)
        new.op = ARITH[type(node.op)]()
        yield f"{type(node.op).__name__} -> {type(new.op).__name__}", new
    elif isinstance(node, ast.Call):
        for i, kw in enumerate(node.keywords):
            new = copy.copy(node)
            new.keywords = node.keywords[:i] + node.keywords[i + 1 :]
            yield f"drop {kw.arg}=", new
    elif isinstance(node, ast.Tuple) and len(node.elts) > 1:
        for i, elt in enumerate(node.elts):
            new = copy.copy(node)
            new.elts = node.elts[:i] + node.elts[i + 1 :]
            yield f"drop {ast.unparse(elt)} from a tuple", new
    elif isinstance(node, ast.Return) and node.value is not None:
        yield "return None", ast.Return(ast.Constant(None))
    elif isinstance(node, ast.Raise) and node.exc is None:
        yield "bare raise -> return None", ast.Return(ast.Constant(None))


def _statements(tree: ast.Module) -> list[tuple[list, int]]:
    spots = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and not isinstance(node, ast.Module):
                spots += [(body, i) for i, stmt in enumerate(body) if not isinstance(stmt, ast.Pass)]
    return spots


def mutants(source: str) -> Iterator[tuple[str, str, str]]:
    """("line:column", description, mutated source) for every single change."""
    tree = ast.parse(source)
    nodes = [n for n in ast.walk(tree) if not isinstance(n, ast.Module)]
    for index in range(len(nodes)):
        original = nodes[index]
        for description, replacement in _mutations(original):
            mutated = copy.deepcopy(tree)
            target = [n for n in ast.walk(mutated) if not isinstance(n, ast.Module)][index]
            ast.copy_location(replacement, target)
            for parent in ast.walk(mutated):
                for field, value in ast.iter_fields(parent):
                    if value is target:
                        setattr(parent, field, replacement)
                    elif isinstance(value, list) and target in value:
                        value[value.index(target)] = replacement
            where = f"{getattr(original, 'lineno', 0)}:{getattr(original, 'col_offset', 0)}"
            yield where, description, ast.unparse(ast.fix_missing_locations(mutated))
    for spot in range(len(_statements(tree))):
        mutated = copy.deepcopy(tree)
        body, i = _statements(mutated)[spot]
        line = f"{getattr(body[i], 'lineno', 0)}:{getattr(body[i], 'col_offset', 0)}"
        if isinstance(body[i], ast.Import | ast.ImportFrom | ast.FunctionDef):
            continue
        body[i] = ast.copy_location(ast.Pass(), body[i])
        yield line, "delete the statement", ast.unparse(ast.fix_missing_locations(mutated))


def run(ex_id: str) -> tuple[int, int, int, list[str]]:
    ex = exercise.load(ex_id)
    source = ex.reference_path.read_text()
    explained = (ex.folder / "MUTANTS.md").read_text() if (ex.folder / "MUTANTS.md").exists() else ""
    seen: set[str] = set()
    killed = total = equivalent = 0
    unexplained = []
    for line, description, mutated in mutants(source):
        if mutated in seen or mutated == ast.unparse(ast.parse(source)):
            continue
        seen.add(mutated)
        total += 1
        try:
            sub = submission.from_source(mutated, f"mutant_{total}.py", ex.entry, ex.line_budget)
            passed = grade.grade(ex, sub).passed
        except BadSubmission:
            passed = False
        if not passed:
            killed += 1
            continue
        label = f"line {line}: {description}"
        if f"`{label}`" in explained:
            equivalent += 1
            print(f"  survivor (explained in MUTANTS.md) {ex_id} {label}")
        else:
            print(f"  survivor (NOT EXPLAINED) {ex_id} {label}")
            unexplained.append(label)
    return killed, total, equivalent, unexplained


def catalogue(ex_id: str) -> tuple[int, int, int]:
    """(wrong solutions that fail, with the hint their entry names, in the catalogue)."""
    ex = exercise.load(ex_id)
    failed = named = 0
    wrong = ex.wrong_solutions()
    for entry in wrong:
        report = grade.grade(ex, submission.from_file(entry.path, ex.entry, ex.line_budget))
        failure = report.first_failure
        if not report.passed:
            failed += 1
            named += failure is not None and failure.hint is not None and failure.hint.id == entry.hint
    return failed, named, len(wrong)


def main(ids: list[str]) -> int:
    ids = ids or exercise.exercise_ids()
    all_killed = all_total = all_equivalent = 0
    wrong_failed = wrong_named = wrong_total = 0
    problems = []
    for ex_id in ids:
        failed, named, total_wrong = catalogue(ex_id)
        wrong_failed, wrong_named, wrong_total = (
            wrong_failed + failed,
            wrong_named + named,
            wrong_total + total_wrong,
        )
        if failed < total_wrong:
            problems.append(f"{ex_id}: {total_wrong - failed} catalogued wrong solution(s) pass")
        killed, total, equivalent, unexplained = run(ex_id)
        all_killed, all_total, all_equivalent = (
            all_killed + killed,
            all_total + total,
            all_equivalent + equivalent,
        )
        problems += unexplained
        rate = 100 * killed / max(total - equivalent, 1)
        print(
            f"{ex_id}: {killed}/{total} mutants killed, {equivalent} equivalent (explained): "
            f"{rate:.0f}% of the non-equivalent ones | catalogue: {failed}/{total_wrong} wrong solutions "
            f"killed ({100 * failed / max(total_wrong, 1):.0f}%), {named} with their hint",
            flush=True,
        )
    rate = 100 * all_killed / max(all_total - all_equivalent, 1)
    print(
        f"all: {all_killed}/{all_total} killed, {all_equivalent} equivalent; {rate:.0f}% of the non-equivalent; "
        f"{len(problems)} problems (survivors not explained, catalogued solutions passing) | catalogue: "
        f"{wrong_failed}/{wrong_total} killed ({100 * wrong_failed / max(wrong_total, 1):.0f}%), "
        f"{wrong_named} with their hint"
    )
    return 0 if not problems and rate >= 90 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
