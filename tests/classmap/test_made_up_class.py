"""A made-up class (faultlines/classmap/variants.py): the catalogues' wrong solutions and the right
ones of three exercises, each handed in by several students with harmless variations (renamed
names, reordered independent statements, comments). The same mistake must land in one group
however it is written, and nearly every failure in a group a catalogued mistake names.

`make test` grades a class of SMALL students per exercise here, in this process (the code is the
course's own, varied); `bench/class_map.py` grades the full class of about 200 through grade-all
and prints the same figures.
"""

from __future__ import annotations

import ast

import pytest

from faultlines.classmap import catalogue, groups, variants
from faultlines.classmap.handin import Handin, student_of
from faultlines.grader import exercise, grade, submission

EXERCISES = ["fault00", "fault02", "fault05"]
SMALL = 30  # students: each catalogued mistake of each exercise at least three times


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    made = variants.make_class(folder, EXERCISES, SMALL)
    handins = []
    for m in made:
        ex = exercise.load(m.exercise)
        path = folder / m.key
        report = grade.grade(ex, submission.from_file(path, ex.entry, ex.line_budget))
        handins.append(Handin(m.key, student_of(m.key.split("/", 1)[1]), m.exercise, report, path=path))
    return made, handins, groups.build(handins, catalogue.by_signature)


def test_wrong_solutions_fail_and_right_ones_pass_however_they_are_written(graded):
    made, handins, _ = graded
    assert len(made) == SMALL * len(EXERCISES)
    wrong = [(m, h) for m, h in zip(made, handins) if m.hint]
    assert wrong and all(not h.passed for _, h in wrong)
    assert all(h.passed for m, h in zip(made, handins) if not m.hint)
    assert {k for m in made for k in m.kinds} == set(variants.KINDS)


def test_nine_in_ten_failures_land_in_named_groups(graded):
    _, _, cmap = graded
    assert cmap.failures > 0
    share = cmap.in_named_groups / cmap.failures
    print(f"\n{cmap.in_named_groups} of {cmap.failures} failures in named groups ({share:.0%})")
    assert share >= 0.9


def test_each_catalogued_mistake_lands_in_one_group_whatever_its_variations(graded):
    made, handins, cmap = graded
    origin = {h.key: (m.exercise, m.origin) for m, h in zip(made, handins)}
    group_of: dict[tuple[str, str], set[int]] = {}
    for g in cmap.groups:
        for key in g.keys:
            group_of.setdefault(origin[key], set()).add(g.number)
    split = {o: n for o, n in group_of.items() if len(n) > 1}
    assert split == {}, f"the same mistake in several groups: {split}"
    # Two catalogued mistakes share a group only when their invariant, minimal schedule and hint
    # agree; the group then lists both (and the report says the catalogue cannot tell them apart).
    for g in cmap.groups:
        origins = {origin[k][1] for k in g.keys}
        if len(origins) > 1:
            assert g.indistinct and origins <= {f"wrong/{c.file}" for c in g.catalogued}, g.signature


def test_renamed_variables_land_with_the_code_as_written(graded):
    made, handins, cmap = graded
    by_key = {h.key: cmap.group_of(h) for h in handins}
    as_written = {(m.exercise, m.origin): by_key[m.key] for m in made if not m.kinds and m.hint}
    renamed = [m for m in made if "rename" in m.kinds and m.hint]
    assert len(renamed) >= 10
    for m in renamed:
        assert by_key[m.key] is as_written[(m.exercise, m.origin)], m.key


def test_a_rename_changes_every_name_the_learner_chose_and_none_the_exercise_spells():
    source = (
        "import miniray as ray\n\n"
        "def make_tally(store):\n"
        "    total = 0\n"
        "    @ray.remote\n"
        "    class Tally:\n"
        "        seen = 0\n"
        "        def add(self, seq, amount=1):\n"
        "            got = store.load()\n"
        "            return got\n"
        "    helper = Tally\n"
        "    return helper\n"
    )
    tree = ast.parse(source)
    mapping = variants.rename(tree, "seed", {"make_tally", "Tally"})
    assert set(mapping) == {"total", "got", "helper"}  # not params, class attributes, methods, spelled names
    text = ast.unparse(tree)
    assert (
        "def make_tally(store)" in text and "class Tally" in text and "def add(self, seq, amount=1)" in text
    )
    assert all(old not in text.split() for old in mapping) and all(new in text for new in mapping.values())


def test_the_names_an_exercise_spells_include_its_fixed_schedules_targets():
    assert {"make_tally", "Tally"} <= variants.spelled(exercise.load("fault02"))
    assert {"make_pipeline", "run_pipeline", "clean"} <= variants.spelled(exercise.load("fault00"))


@pytest.mark.parametrize("exercise_id", ["fault14", "fault15", "fault16"])
def test_the_exercises_after_the_capstone_group_their_mistakes_too(tmp_path, exercise_id):
    """A smaller class for each exercise of lessons 13 and 14: every catalogued mistake once as
    written and some varied, a right solution among them; each mistake lands in one named group."""
    ex = exercise.load(exercise_id)
    students = len(ex.wrong_solutions()) + 3
    made = variants.make_class(tmp_path, [exercise_id], students)
    handins = []
    for m in made:
        report = grade.grade(ex, submission.from_file(tmp_path / m.key, ex.entry, ex.line_budget))
        handins.append(
            Handin(m.key, student_of(m.key.split("/", 1)[1]), m.exercise, report, path=tmp_path / m.key)
        )
    cmap = groups.build(handins, catalogue.by_signature)
    assert all(h.passed == (not m.hint) for m, h in zip(made, handins)), [
        (m.origin, h.passed) for m, h in zip(made, handins) if h.passed != (not m.hint)
    ]
    assert {m.origin for m in made if m.hint} == {f"wrong/{w.path.name}" for w in ex.wrong_solutions()}
    origin = {h.key: m.origin for m, h in zip(made, handins)}
    group_of: dict[str, set[int]] = {}
    for g in cmap.groups:
        for key in g.keys:
            group_of.setdefault(origin[key], set()).add(g.number)
    assert {o: n for o, n in group_of.items() if len(n) > 1} == {}
    assert cmap.failures == sum(1 for m in made if m.hint) and cmap.in_named_groups == cmap.failures
