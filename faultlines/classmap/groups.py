"""A class's submissions, grouped by mistake: the class map as data (rendering is elsewhere).

Per exercise: how many passed, each tier's and each invariant's failure rate, and the failing
submissions grouped by signature (signature.py), largest group first. Groups that a catalogued
mistake explains come first, then the unexplained ones; each group gets a number, its place in
the report (and OUT/replays/<number>.html). Submissions without a verdict (not graded, or two
executions of one schedule differed) and progress-file claims that could not be regraded are
listed apart, never grouped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from faultlines.grader.report import Failure

from .catalogue import Catalogued
from .handin import GRADED, UNVERIFIED, Handin
from .signature import Signature


@dataclass
class Group:
    signature: Signature
    members: list[Handin]  # sorted by key
    catalogued: tuple[Catalogued, ...] = ()  # the catalogue's mistakes with this very signature
    number: int = 0  # its place in the report, from 1

    @property
    def count(self) -> int:
        return len(self.members)

    @property
    def keys(self) -> list[str]:
        return [h.key for h in self.members]

    @property
    def named(self) -> bool:
        return self.signature.named

    @property
    def example(self) -> Handin:
        return self.members[0]

    @property
    def failure(self) -> Failure:
        report = self.example.report
        assert report is not None and report.first_failure is not None  # grouped only if so
        return report.first_failure

    @property
    def indistinct(self) -> bool:
        """Two catalogued mistakes share this signature: the grader cannot tell them apart."""
        return len({c.file for c in self.catalogued}) > 1


@dataclass
class Rate:
    name: str
    failed: int
    of: int

    @property
    def share(self) -> float:
        return self.failed / self.of if self.of else 0.0


@dataclass
class ExerciseMap:
    exercise: str
    title: str
    version: int
    handins: list[Handin]
    groups: list[Group] = field(default_factory=list)  # named first, then unexplained; each by size
    tiers: list[Rate] = field(default_factory=list)
    invariants: list[Rate] = field(default_factory=list)

    @property
    def graded(self) -> list[Handin]:
        return [h for h in self.handins if h.status == GRADED and not h.problem]

    @property
    def passed(self) -> int:
        return sum(1 for h in self.handins if h.passed)

    @property
    def no_verdict(self) -> list[Handin]:
        return [h for h in self.handins if h.status != UNVERIFIED and h.problem]

    @property
    def unverified(self) -> list[Handin]:
        return [h for h in self.handins if h.status == UNVERIFIED]

    @property
    def named_groups(self) -> list[Group]:
        return [g for g in self.groups if g.named]

    @property
    def unexplained_groups(self) -> list[Group]:
        return [g for g in self.groups if not g.named]


@dataclass
class ClassMap:
    exercises: list[ExerciseMap]

    @property
    def groups(self) -> list[Group]:
        return [g for ex in self.exercises for g in ex.groups]

    @property
    def students(self) -> list[str]:
        return sorted({h.student for ex in self.exercises for h in ex.handins})

    def group_of(self, handin: Handin) -> Group | None:
        for group in self.groups:
            if any(member is handin for member in group.members):
                return group
        return None

    @property
    def failures(self) -> int:
        return sum(g.count for g in self.groups)

    @property
    def in_named_groups(self) -> int:
        return sum(g.count for g in self.groups if g.named)


Catalogue = Callable[[str], Mapping[Signature, tuple[Catalogued, ...]]]


def _rates(ex: ExerciseMap) -> None:
    graded = [h for h in ex.graded if h.report is not None and h.report.tiers]
    tier_names: list[str] = []
    invariant_names: list[str] = []
    failed_tiers: dict[str, int] = {}
    failed_invariants: dict[str, int] = {}
    for h in graded:
        assert h.report is not None
        broken: set[str] = set()
        for tier in h.report.tiers:
            if tier.name not in tier_names:
                tier_names.append(tier.name)
            if not tier.passed:
                failed_tiers[tier.name] = failed_tiers.get(tier.name, 0) + 1
            if tier.failure is not None:
                broken.add(tier.failure.invariant)
                if tier.failure.invariant not in invariant_names:
                    invariant_names.append(tier.failure.invariant)
        for name in broken:
            failed_invariants[name] = failed_invariants.get(name, 0) + 1
    ex.tiers = [Rate(name, failed_tiers.get(name, 0), len(graded)) for name in tier_names]
    ex.invariants = sorted(
        (Rate(name, failed_invariants[name], len(graded)) for name in invariant_names),
        key=lambda r: (-r.failed, r.name),
    )


def _exercise(exercise: str, handins: list[Handin]) -> ExerciseMap:
    reports = [h.report for h in handins if h.report is not None and h.report.tiers and not h.report.error]
    title, version = (reports[0].title, reports[0].version) if reports else (exercise, 0)
    ex = ExerciseMap(exercise, title, version, sorted(handins, key=lambda h: h.key))
    by_signature: dict[Signature, list[Handin]] = {}
    for h in ex.graded:
        signature = h.signature
        if signature is not None:
            by_signature.setdefault(signature, []).append(h)
    ex.groups = [Group(sig, sorted(members, key=lambda h: h.key)) for sig, members in by_signature.items()]
    ex.groups.sort(key=lambda g: (not g.named, -g.count, g.signature))
    _rates(ex)
    return ex


def name_catalogued(cmap: ClassMap, catalogue: Catalogue) -> None:
    """Give each group the catalogue's mistakes with its very signature (catalogue.by_signature)."""
    for ex in cmap.exercises:
        known = catalogue(ex.exercise) if ex.groups else {}
        for group in ex.groups:
            group.catalogued = known.get(group.signature, ())


def build(handins: list[Handin], catalogue: Catalogue | None = None) -> ClassMap:
    """The class map of `handins` (any number of exercises). `catalogue(exercise)` gives the
    catalogued mistakes by signature (catalogue.by_signature), now or later (name_catalogued):
    it grades the catalogue, which can run while the replay pages are made."""
    by_exercise: dict[str, list[Handin]] = {}
    for h in handins:
        by_exercise.setdefault(h.exercise, []).append(h)
    cmap = ClassMap([_exercise(e, by_exercise[e]) for e in sorted(by_exercise)])
    for number, group in enumerate(cmap.groups, start=1):
        group.number = number
    if catalogue is not None:
        name_catalogued(cmap, catalogue)
    return cmap
