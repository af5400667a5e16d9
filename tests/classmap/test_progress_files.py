"""Progress files read for the class map (faultlines/classmap/progress.py): version 2's sources
are graded again, a signature alone is a claim, version 1 still reads, and a file that is not
one is named, not fatal."""

from __future__ import annotations

import json
from pathlib import Path

from faultlines.classmap import progress
from faultlines.classmap.handin import UNVERIFIED

SOURCE = (
    "def process_order(api, order_id, amount):\n    api.mark_paid(order_id, api.charge(order_id, amount))\n"
)
LAST_FAILURE = {
    "exercise": "fault05",
    "version": 1,
    "invariant": "charged-at-most-once",
    "schedule": ["crash process_order#1/1 step=1"],
    "hint": "retry-repeats-the-charge",
    "token": "FL1.fault05.v1.x.two-orders.W10",
    "source": "",
    "at": "2026-11-30T10:00:00Z",
}


def _v2(exercises: dict) -> dict:
    return {
        "format": "fault-lines-progress",
        "version": 2,
        "exported_at": "2026-11-30T10:00:00Z",
        "exercises": exercises,
        "lessons": {},
    }


def _write(folder: Path, name: str, data) -> None:
    (folder / name).write_text(data if isinstance(data, str) else json.dumps(data))


def test_a_folder_of_progress_files_is_graded_from_its_sources_and_claims_the_rest(tmp_path):
    folder, sources = tmp_path / "class", tmp_path / "out/sources"
    folder.mkdir()
    _write(folder, "alice.json", _v2({
        "fault05": {"status": "tried", "version": 1, "code": "abc", "source": SOURCE, "last_failure": LAST_FAILURE},
        "fault02": {"status": "started", "version": 1, "source": "", "last_failure": None},
    }))  # fmt: skip
    _write(
        folder,
        "bob.json",
        _v2({"fault05": {"status": "tried", "version": 1, "source": "", "last_failure": LAST_FAILURE}}),
    )
    _write(
        folder,
        "cy.json",
        {"exercises": {"fault05": {"status": "passed", "version": 1, "code": "9f", "at": "x"}}},
    )
    _write(folder, "dan.json", "{not json")
    _write(folder, "eve.json", {**_v2({}), "version": 3})
    _write(folder, "fay.json", {"hello": 1})
    assert progress.looks_like(folder)

    found = progress.collect(folder, {"fault05", "fault02"}, sources)

    assert [(g.key, g.student, g.exercise) for g in found.to_grade] == [("alice.json", "alice", "fault05")]
    assert found.to_grade[0].path == sources / "alice/fault05.py"
    assert found.to_grade[0].path.read_text() == SOURCE  # what is graded is what the learner checked
    bob, cy = found.claims
    assert bob.key == "bob.json" and bob.status == UNVERIFIED and bob.claimed is not None
    assert (bob.claimed.invariant, bob.claimed.schedule, bob.claimed.hint) == (
        "charged-at-most-once",
        ("crash process_order#1/1 step=1",),
        "retry-repeats-the-charge",
    )
    assert not bob.claimed.canonical  # the browser's raw schedule: never grouped with regraded ones
    assert cy.key == "cy.json" and cy.claimed is None  # version 1: a status, no signature
    assert "progress file version 1: passed on v1" in cy.message
    assert dict(found.problems) == {
        "dan.json": found.problems[0][1],
        "eve.json": "it is version 3 of the format, made by a newer course site",
        "fay.json": "it is not a Fault Lines progress file",
    }
    assert found.problems[0][1].startswith("not JSON")


def test_a_folder_with_python_in_it_is_not_a_progress_folder(tmp_path):
    _write(tmp_path, "alice.json", _v2({}))
    (tmp_path / "bob.py").write_text("x = 1\n")
    assert not progress.looks_like(tmp_path)
