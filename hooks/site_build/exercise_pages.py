"""Exercise pages and notebooks, generated from the exercise folders (exercises/<id>/).

- notebooks: one per exercise, exercises/<id>.ipynb in the lab: the statement, a setup cell, the
  starter as the learner's cell, and a check() cell. Only public files feed it (statement,
  starter); reference solutions and the wrong-solution catalogue never reach the site.
- pages: exercises/<id>.md (statement + the lab panel, via `notebook: <id>` front matter),
  exercises/index.md (every exercise with the learner's status, kept in this browser, with
  export/import), exercises/replay.md (opens a shared failing run), exercises/instructors.md.
- nav: the mkdocs.yml "Exercises" entry becomes the section listing those pages.
Adding a folder adds its page, notebook and list entry; nothing here names an exercise.
"""

from __future__ import annotations

import hashlib
import html
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jupytext

from . import lab_panel, wayfinding
from .lesson_notebooks import ShippedNotebook

NAV_KEY = "Exercises"
INSTRUCTORS = "exercises/instructors.md"  # a hand-written page in docs/


@dataclass(frozen=True)
class ExerciseInfo:
    id: str
    title: str
    version: int
    summary: str
    lesson: str
    statement: str
    starter: str


def exercises(repo: Path) -> list[ExerciseInfo]:
    found = []
    for folder in sorted((repo / "exercises").iterdir()):
        meta_path = folder / "exercise.toml"
        if not meta_path.is_file():
            continue
        meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
        found.append(
            ExerciseInfo(
                id=meta["id"],
                title=meta["title"],
                version=int(meta["version"]),
                summary=meta.get("summary", ""),
                lesson=meta.get("lesson", ""),
                statement=(folder / "statement.md").read_text(encoding="utf-8"),
                starter=(folder / "starter.py").read_text(encoding="utf-8"),
            )
        )
    return found


# The learner's answer cell carries this tag: the lab (playground/lab_page.js) flags a check()
# made while it has an edit not run, which the kernel cannot see (faultlines/cell_runs.py).
ANSWER_TAG = "answer"


def _notebook(ex: ExerciseInfo) -> Any:  # a nbformat NotebookNode (jupytext has no types)
    cells = [
        ("markdown", ex.statement),
        ("code", f'from faultlines import notebook as fl\n\nfl.start("{ex.id}")'),
        ("markdown", "Your answer: edit this cell, run it, then run the check below."),
        (ANSWER_TAG, ex.starter.rstrip("\n")),
        ("code", "fl.check()"),
    ]
    text = "".join(
        "# %% [markdown]\n" + "".join(f"# {line}".rstrip() + "\n" for line in body.splitlines()) + "\n"
        if kind == "markdown"
        else f'# %% tags=["{ANSWER_TAG}"]\n{body}\n\n'
        if kind == ANSWER_TAG
        else f"# %%\n{body}\n\n"
        for kind, body in cells
    )
    return jupytext.reads(text, fmt="py:percent")


def write_notebooks(repo: Path, contents_dir: Path) -> dict[str, ShippedNotebook]:
    """exercises/<id>.ipynb under contents_dir for each exercise; keyed by id, as lessons are by stem."""
    shipped: dict[str, ShippedNotebook] = {}
    for ex in exercises(repo):
        notebook = _notebook(ex)
        digest = hashlib.sha256(json.dumps([ex.version, ex.statement, ex.starter]).encode()).hexdigest()[:16]
        notebook.metadata["fault_lines"] = {"source_sha256": digest, "exercise": ex.id, "version": ex.version}
        notebook.metadata["kernelspec"] = {
            "name": "python",
            "display_name": "Python (Pyodide)",
            "language": "python",
        }
        rel = f"exercises/{ex.id}.ipynb"
        target = contents_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        jupytext.write(notebook, target, fmt="ipynb")
        shipped[ex.id] = ShippedNotebook(repo / "exercises" / ex.id / "starter.py", rel, digest)
    return shipped


def add_nav(config, repo: Path) -> None:
    """Replace the nav's "Exercises" entry (a page) by the section of every exercise page."""
    pages = [
        {"All exercises": "exercises/index.md"},
        *({f"{ex.id}: {ex.title}": f"exercises/{ex.id}.md"} for ex in exercises(repo)),
        {"Shared failing run": "exercises/replay.md"},
        {"For instructors": INSTRUCTORS},
    ]
    nav = config["nav"] or []
    for index, item in enumerate(nav):
        if isinstance(item, dict) and NAV_KEY in item:
            nav[index] = {NAV_KEY: pages}
            return


def _script(depth: int, name: str = "exercises") -> str:
    return f'<script src="{"../" * depth}javascripts/{name}.js"></script>'


def _exercise_page(ex: ExerciseInfo, order: list[wayfinding.Stop]) -> str:
    lesson = wayfinding.lesson_of(order, ex.lesson)
    named = f"\n\n**Lesson:** [{lesson.title}](../lessons/{ex.lesson}.md)\n" if lesson else ""
    statement = ex.statement.split("\n", 1)[1] if ex.statement.startswith("# ") else ex.statement
    status = (
        f'<p class="fl-ex-status" data-exercise="{ex.id}" data-version="{ex.version}">'
        'Status in this browser: <b><span class="fl-badge fl-badge--untried">not tried yet</span></b></p>'
    )
    return (
        f"---\nnotebook: {ex.id}\n---\n\n# {ex.id}: {ex.title}\n\n{status}{named}\n{statement}\n"
        "Run the notebook's `check()` cell after each try: it searches small fault schedules for one "
        "that breaks your code and shows the shortest it finds, with the broken invariant, a hint "
        "and a replay token. Passing here is recorded in this browser (see "
        "[all exercises](index.md))."
        + wayfinding.for_exercise(order, ex.lesson, f"exercises/{ex.id}.md")
        + "\n\n"
        + _script(2)
        + "\n"
    )


def _index_page(all_ex: list[ExerciseInfo]) -> str:
    # Each cell names its column for a phone, where the rows stack (stylesheets/exercises.css).
    rows = "\n".join(
        f'<tr data-exercise="{ex.id}" data-version="{ex.version}">'
        f'<td class="fl-ex-id"><a href="{ex.id}/">{ex.id}</a></td>'
        f'<td class="fl-ex-title">{html.escape(ex.title)}</td>'
        f'<td class="fl-ex-summary">{html.escape(ex.summary)}</td>'
        '<td class="fl-ex-cell"><span class="fl-badge fl-badge--untried">not tried yet</span></td></tr>'
        for ex in all_ex
    )
    return (
        "# Exercises\n\n"
        "Each exercise is a notebook with a `check()` cell. The grader runs your code under every small "
        "schedule of faults (crashes before and after each effect, a lost node, a second client) and "
        "shows the shortest one that breaks it. Your progress is kept in this browser only: no account, "
        "nothing sent anywhere. Export it to a file to keep a backup or to move it to another "
        "browser: the file holds each exercise's status and each notebook you worked in, as you "
        "left it.\n\n"
        '<table class="fl-exercises"><thead><tr><th>Exercise</th><th>Title</th><th>What it is about</th>'
        f"<th>Your status</th></tr></thead><tbody>\n{rows}\n</tbody></table>\n\n"
        '<p class="fl-progress-buttons"><button type="button" class="md-button fl-progress-export">'
        "Export progress</button> "
        '<button type="button" class="md-button fl-progress-import-button">Import progress</button>'
        '<input type="file" class="fl-progress-import" accept="application/json,.json" hidden></p>\n'
        '<p class="fl-progress-result" role="status" hidden></p>\n\n'
        "Instructors: see [grading with the command line](instructors.md).\n\n"
        + _script(1)
        + "\n"
        + _script(1, "progress")
        + "\n"
    )


def _replay_page(all_ex: list[ExerciseInfo]) -> str:
    # The exercises this build has, with their versions: a link made for another version says so
    # instead of opening, and the notebook names the exercise by its title.
    exercises = html.escape(
        json.dumps(
            {ex.id: {"version": ex.version, "title": ex.title} for ex in all_ex}, separators=(",", ":")
        ),
        quote=True,
    )
    # Without a run in the link (the nav's entry, a link cut short) the page says where links come
    # from and offers nothing: its lab has no notebook to open. exercises.js shows the run's part.
    return (
        "---\nreplay: true\n---\n\n"
        "# A shared failing run\n\n"
        f'<div class="fl-replay" data-exercises="{exercises}">\n'
        '<p class="fl-replay__what">No shared run in this link.</p>\n'
        '<div class="fl-replay__bare"><p>A share link holds a run that breaks someone\'s solution of '
        "an exercise: a failing <code>check()</code> report makes one (its <em>Share this failing "
        "run</em> link), and opening it here replays that run. This address has no run in it: "
        'ask for the whole link again, or try an exercise from <a href="../">the list</a>.</p></div>\n'
        '<div class="fl-replay__run" hidden>\n'
        "<p>The lab below replays it by itself: it runs the code the run was found on under the "
        "same faults, in the same order, shows where an invariant broke and opens the debugger on "
        "the run. Nothing is sent anywhere: the run is in the link, and it replays in your "
        "browser.</p>\n"
        "<p>To try a fix, edit the code in the lab (or in the playground) and run its cells again: "
        "the replay then puts your code through the same schedule. Your edits are kept in this "
        "browser.</p>\n"
        f"{lab_panel.REPLAY_SLOT}\n"
        "</div>\n</div>\n\n" + _script(2) + "\n"
    )


def files(config, repo: Path) -> list[Any]:
    from mkdocs.structure.files import File  # imported here: the tests read the pages without MkDocs

    all_ex = exercises(repo)
    order = wayfinding.lesson_order(config["nav"])
    generated = [
        File.generated(config, f"exercises/{ex.id}.md", content=_exercise_page(ex, order)) for ex in all_ex
    ]
    generated.append(File.generated(config, "exercises/index.md", content=_index_page(all_ex)))
    generated.append(File.generated(config, "exercises/replay.md", content=_replay_page(all_ex)))
    return generated
