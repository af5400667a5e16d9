"""The exercise folder contract: `exercises/<id>/` read into one Exercise.

    exercise.toml   id, title, version, entry functions, line budget, tiers and points, hints
    statement.md    what the learner reads (also the notebook's first cell and the site page)
    starter.py      the code the learner starts from (fails the checks, with a helpful message)
    checks.py       scenarios, named invariants and the second client (see checks.Checks)
    reference.py    a solution that passes every tier            (never shipped to the site)
    right/          correct solutions written apart from the reference, in other styles: each
                    must pass every tier                          (never shipped to the site)
    wrong/          known wrong solutions and catalogue.toml, each with the hint it must trigger
                                                                  (never shipped to the site)
Adding a folder adds an exercise: everything else finds it with `exercise_ids()`.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miniray import sim

from .checks import Checks
from .report import Hint
from .schedule import MOVE_KINDS, check_args, validate

NO_MATCH = "no-known-mistake"  # the hint id of a failure no catalogued mistake explains
BUILTIN_EXPLANATIONS = {
    "progress": "The scenario's goal must be reached once the faults stop: no deadlock (everything "
    "waiting on something that never comes) and no starvation (still going at the time limit).",
    "step-budget": "Your code must finish each run within a counted budget of statements and call "
    "depth, about ten times what a plain solution needs. A loop that never ends, or a retry "
    "without a bound, runs past it.",
    "deterministic": "Two runs of your code under the same schedule of faults must do the same "
    "thing: only a value miniray does not replay (a random number without a seed, a uuid, the "
    "wall clock) can make them differ.",
    "runs-without-error": "The scenario must run to its end: an exception escaping from your "
    "code, where the exercise expects an answer, breaks it.",
}


def unmatched_hint(invariant: str, explanation: str) -> Hint:
    what = f" `{invariant}` asks: {explanation}" if explanation else ""
    return Hint(
        NO_MATCH,
        [
            f"This run matches none of the mistakes this exercise knows, so here is what the check "
            f"means instead.{what}",
            "Replay the run (the replay line below) and read its timeline: find the moment the "
            "fault strikes, then what your code does next.",
        ],
        known=False,
    )


class ExerciseError(Exception):
    """An exercise folder breaks the contract, or an exercise id is unknown (one line)."""


@dataclass
class TierSpec:
    name: str
    kind: str  # "scenarios", "search" or "random"
    points: float
    runs: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # kind "scenarios"
    scenario: str = ""
    k: int = 1
    moves: tuple[str, ...] = ("crash",)
    caps: dict[str, int] = field(default_factory=dict)  # most moves of a kind in one schedule
    max_runs: int = 3000
    seeds: tuple[int, ...] = ()
    length: int = 3  # kind "random": moves per schedule
    # A move's values other than its entry's (miniray/fault_kinds.py): {"pause": {"duration": 15.0}}.
    move_args: dict[str, dict[str, Any]] = field(default_factory=dict)
    hidden: bool = False


@dataclass
class HintSpec:
    """A catalogued mistake: the hint fires only when the run shows its evidence (docs/design/grader.md)."""

    id: str
    levels: list[str]
    invariant: str  # the broken invariant's name; "a|b" for either
    scenario: str = ""
    match: str = ""  # a regular expression the failure detail must contain
    evidence: tuple[str, ...] = ()  # checks' evidence names that must hold ("!name": must not)

    def matches(self, invariant: str, scenario: str, detail: str, seen: frozenset[str]) -> bool:
        return (
            invariant in self.invariant.split("|")
            and (not self.scenario or self.scenario == scenario)
            and (not self.match or re.search(self.match, detail) is not None)
            and all(
                (name[1:] not in seen) if name.startswith("!") else (name in seen) for name in self.evidence
            )
        )

    def hint(self) -> Hint:
        return Hint(self.id, list(self.levels))


@dataclass
class WrongSolution:
    path: Path
    hint: str
    why: str


@dataclass
class Exercise:
    id: str
    title: str
    version: int
    folder: Path
    entry: list[str]
    line_budget: int
    max_events: int
    tiers: list[TierSpec]
    hints: list[HintSpec]
    checks: Checks
    lesson: str = ""
    summary: str = ""

    def hint_for(self, invariant: str, scenario: str, detail: str, seen: frozenset[str]) -> Hint:
        """The first catalogued mistake whose evidence this run shows (hints are listed most
        specific first); when none does, the invariant in plain words, saying so."""
        for spec in self.hints:
            if spec.matches(invariant, scenario, detail, seen):
                return spec.hint()
        return unmatched_hint(invariant, self.explain(invariant))

    def explain(self, invariant: str) -> str:
        return self.checks.explanations.get(invariant) or BUILTIN_EXPLANATIONS.get(invariant, "")

    @property
    def statement(self) -> str:
        return (self.folder / "statement.md").read_text(encoding="utf-8")

    @property
    def starter(self) -> str:
        return (self.folder / "starter.py").read_text(encoding="utf-8")

    @property
    def reference_path(self) -> Path:
        return self.folder / "reference.py"

    def right_solutions(self) -> list[Path]:
        folder = self.folder / "right"
        return sorted(folder.glob("*.py")) if folder.is_dir() else []

    def wrong_solutions(self) -> list[WrongSolution]:
        catalogue = self.folder / "wrong" / "catalogue.toml"
        if not catalogue.is_file():
            return []
        data = tomllib.loads(catalogue.read_text(encoding="utf-8"))
        return [
            WrongSolution(self.folder / "wrong" / w["file"], w["hint"], w.get("why", ""))
            for w in data.get("wrong", [])
        ]


def roots() -> list[Path]:
    """Where exercise folders are looked for: $FAULTLINES_EXERCISES, the repo, the installed copy."""
    found = []
    env = os.environ.get("FAULTLINES_EXERCISES")
    if env:
        found.append(Path(env))
    here = Path(__file__).resolve().parent.parent
    found.append(here.parent / "exercises")  # a checkout (editable install)
    found.append(here / "_exercises")  # the wheel: public files only
    return [p for p in found if p.is_dir()]


def exercise_ids() -> list[str]:
    ids: set[str] = set()
    for root in roots():
        ids.update(p.name for p in root.iterdir() if (p / "exercise.toml").is_file())
    return sorted(ids)


def folder_of(exercise_id: str) -> Path:
    for root in roots():
        if (root / exercise_id / "exercise.toml").is_file():
            return root / exercise_id
    known = ", ".join(exercise_ids()) or "none found"
    raise ExerciseError(f"unknown exercise {exercise_id!r} (known: {known})")


def _load_checks(folder: Path, exercise_id: str) -> Checks:
    name = f"faultlines_exercise_{exercise_id}_checks"
    sim.library_code(name)  # the scenarios' code is not the learner's (journal sites)
    spec = importlib.util.spec_from_file_location(name, folder / "checks.py")
    if spec is None or spec.loader is None:
        raise ExerciseError(f"{folder}/checks.py cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    checks = getattr(module, "checks", None)
    if not isinstance(checks, Checks):
        raise ExerciseError(f"{folder}/checks.py defines no `checks = Checks()`")
    return checks


def _tier(data: dict[str, Any], hidden: bool, where: str) -> TierSpec:
    kind = data.get("kind", "")
    if kind not in ("scenarios", "search", "random"):
        raise ExerciseError(f"{where}: tier {data.get('name')!r} has unknown kind {kind!r}")
    moves = tuple(data.get("moves", ["crash"]))
    for move in moves:
        if move not in MOVE_KINDS:
            raise ExerciseError(
                f"{where}: tier {data.get('name')!r} names an unknown move {move!r}; the moves are "
                f"{', '.join(MOVE_KINDS)} (a fault kind's move is its entry's `move=` in miniray/fault_kinds.py)"
            )
    for move in data.get("caps", {}):
        if move not in moves:
            raise ExerciseError(
                f"{where}: tier {data.get('name')!r} caps {move!r}, which is not one of its moves"
            )
    move_args = _move_args(data, moves, where)
    runs = []
    for run in data.get("run", []):
        schedule = tuple(validate(t) for t in run.get("schedule", []))
        runs.append((run["scenario"], schedule))
    seeds = data.get("seeds", [])
    if isinstance(seeds, dict):
        seeds = list(range(seeds["from"], seeds["to"]))
    return TierSpec(
        name=data["name"],
        kind=kind,
        points=float(data.get("points", 1)),
        runs=runs,
        scenario=data.get("scenario", ""),
        k=int(data.get("k", 1)),
        moves=moves,
        caps=dict(data.get("caps", {})),
        max_runs=int(data.get("max_runs", 3000)),
        seeds=tuple(seeds),
        length=int(data.get("length", 3)),
        move_args=move_args,
        hidden=hidden,
    )


def _move_args(data: dict[str, Any], moves: tuple[str, ...], where: str) -> dict[str, dict[str, Any]]:
    """A tier's `move_args = { pause = { duration = 12.0 } }`, checked against the moves' entries;
    `pause_s = 12.0` is the older way to say a pause's duration."""
    args = {move: dict(values) for move, values in data.get("move_args", {}).items()}
    if "pause_s" in data:
        args.setdefault("pause", {})["duration"] = float(data["pause_s"])
    for move, values in args.items():
        if move not in moves:
            raise ExerciseError(
                f"{where}: tier {data.get('name')!r} gives values to {move!r}, not one of its moves"
            )
        try:
            check_args(move, values)
        except ValueError as e:
            raise ExerciseError(f"{where}: tier {data.get('name')!r}: {e}") from None
    return args


def _hint(data: dict[str, Any], where: str) -> HintSpec:
    if "code" in data:
        raise ExerciseError(
            f"{where}: hint {data.get('id')!r} matches the code's text (code=); a hint needs evidence "
            "from the run instead (match= or evidence=, docs/design/grader.md)"
        )
    evidence = data.get("evidence", ())
    spec = HintSpec(
        data["id"],
        list(data["levels"]),
        data["invariant"],
        data.get("scenario", ""),
        data.get("match", ""),
        (evidence,) if isinstance(evidence, str) else tuple(evidence),
    )
    if not spec.match and not spec.evidence:
        raise ExerciseError(f"{where}: hint {spec.id!r} names no evidence from the run (match= or evidence=)")
    return spec


def hidden_tiers_text(hidden_dir: str | Path, exercise_id: str) -> str | None:
    """The hidden tiers an instructor keeps in DIR/<id>/tiers.toml (read by the CLI's parent)."""
    path = Path(hidden_dir) / exercise_id / "tiers.toml"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def load(exercise_id: str, hidden: str | None = None) -> Exercise:
    """The exercise; `hidden` is the text of a hidden tiers.toml, appended as hidden tiers."""
    folder = folder_of(exercise_id)
    where = f"exercises/{exercise_id}/exercise.toml"
    try:
        data = tomllib.loads((folder / "exercise.toml").read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ExerciseError(f"{where}: {e}") from None
    if data.get("id") != exercise_id:
        raise ExerciseError(f"{where}: id is {data.get('id')!r}, but the folder is {exercise_id!r}")
    tiers = [_tier(t, False, where) for t in data.get("tier", [])]
    if hidden:
        try:
            extra = tomllib.loads(hidden)
        except tomllib.TOMLDecodeError as e:
            raise ExerciseError(f"hidden tiers of {exercise_id}: {e}") from None
        tiers += [_tier(t, True, f"hidden tiers of {exercise_id}") for t in extra.get("tier", [])]
    hints = [_hint(h, where) for h in data.get("hint", [])]
    checks = _load_checks(folder, exercise_id)
    for hint in hints:
        for name in hint.evidence:
            if name.lstrip("!") not in checks.evidence and name.lstrip("!") not in checks.given_evidence:
                raise ExerciseError(f"{where}: hint {hint.id!r} needs unknown evidence {name!r}")
    for tier in tiers:
        names = [s for s, _ in tier.runs] + ([tier.scenario] if tier.scenario else [])
        for name in names:
            if name not in checks.scenarios:
                raise ExerciseError(f"{where}: tier {tier.name!r} names unknown scenario {name!r}")
    return Exercise(
        id=exercise_id,
        title=data["title"],
        version=int(data["version"]),
        folder=folder,
        entry=list(data["entry"]),
        line_budget=int(data["line_budget"]),
        max_events=int(data.get("max_events", 20000)),
        tiers=tiers,
        hints=hints,
        checks=checks,
        lesson=data.get("lesson", ""),
        summary=data.get("summary", ""),
    )
