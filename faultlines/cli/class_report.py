"""`grade-all ... --report OUT/`: the class map of what grade-all graded (faultlines/classmap).

grade-all's per-student rows become the map's hand-ins, keyed by their path in the class folder;
the map is built, and OUT/report.html, OUT/groups.csv and OUT/replays/<n>.html are written.
The replay pages are made by `python -m faultlines replay ... --html`, so a student's code runs
where `replay` runs it, with the isolation grade-all was given.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from faultlines.classmap import catalogue, groups, groups_csv, page, replays
from faultlines.classmap.handin import GRADED, NOT_GRADED, Handin

from .class_folder import Batch, Plan
from .classroom import StudentResult


def handins(batch: Batch, results: list[StudentResult]) -> list[Handin]:
    paths = {s.key: s.path for s in batch.students}
    return [
        Handin(
            key=batch.prefix + r.key,
            student=batch.student(r.key),
            exercise=batch.exercise,
            report=r.report if r.status == "graded" else None,
            status=GRADED if r.status == "graded" else NOT_GRADED,
            message=r.message,
            path=paths.get(r.key),
        )
        for r in results
    ]


def write(
    out: Path,
    plan: Plan,
    graded: list[Handin],
    jobs: int,
    hidden: dict[str, str | None],
    replay_args: list[str],
) -> None:
    cmap = groups.build(graded + plan.claims)
    out.mkdir(parents=True, exist_ok=True)
    # The replay pages run in their own processes; grading the catalogue (in this one) meanwhile.
    with ThreadPoolExecutor(max_workers=1) as background:
        pages = background.submit(replays.write, cmap, out, jobs, replay_args)
        groups.name_catalogued(cmap, lambda ex: catalogue.by_signature(ex, hidden.get(ex)))
        made = pages.result()
    groups_csv.write(cmap, out / "groups.csv")
    html = page.render(cmap, notes=plan.problems)  # a file name may hold what UTF-8 cannot write
    (out / "report.html").write_text(html, encoding="utf-8", errors="backslashreplace")
    fallback = sum(1 for how in made.values() if how != replays.DEBUGGER)
    note = f" ({fallback} from the report alone: see each page)" if fallback else ""
    named, failures = cmap.in_named_groups, cmap.failures
    print(
        f"class map: {len(cmap.groups)} groups, {named} of {failures} failures in named groups, "
        f"{len(made)} replay pages{note}: {out / 'report.html'}"
    )
