"""Adding a fault kind, as docs/design/contributing.md shows it: one entry in miniray/fault_kinds.py
and the line of the record it emits in miniray/events.py, added to a copy of miniray, and one row
in the course's reading (faultlines/reading/table.py), added by the script that uses them. A fresh
Python then uses the kind: as a `sim` helper, and as a move the grader's search tries, strikes
with and describes in the entry's words, and the debugger draws from the row. Nothing of the
course is copied or changed. CPython only: it starts a process (tests/unit also runs in Pyodide,
which has none)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import miniray

REPO = Path(__file__).resolve().parents[2]

# The entry docs/design/contributing.md shows, word for word.
TOY = """

@kind(
    "slow_worker",  # the token's first word: "slow_worker <node> ..."
    "The busy worker on a node dies `duration` seconds later.",  # the sim helper's docstring
    params=(
        Param("duration", float, 1.0, "virtual seconds until it dies"),
        Param("cause", str, "slow", "what its death is put down to (one word)"),
    ),
    helper=("target", "duration"),  # sim.slow_worker(node, duration, *, cause="slow", at=None)
    events=(Kind.WORKER_SLOWED, Kind.WORKER_DIED),  # the records it can cause, besides `fault`
    move=Move("slowdown", Boundary.NODE_EVENT, {"duration": 2.0}),  # tried after every event, on a busy node
    words="the worker busy on {target} dies {duration:g} s later ({cause})",
)
def _slow_worker(inj: FaultInjector, fault: Fault) -> None:
    worker = inj.worker(fault.target)  # the injector finds nodes, workers and actors
    if worker is not None:
        dies = inj.rt.now() + fault.duration  # the state it shows, as a record of its own:
        inj.rt.emit(Kind.WORKER_SLOWED, worker=worker.pid, node=worker.node.name, dies=dies)
        inj.rt.call_later(fault.duration, inj.rt.kill_worker, worker, fault.cause)
"""

# Its record, in miniray/events.py's catalogue: the kind, then what it carries.
KIND = """    WORKER_SLOWED = "worker.slowed"
"""
CATALOGUE = """    Kind.WORKER_SLOWED: EventSpec(("worker", "node", "dies"), doc="a slow_worker fault doomed the worker"),
"""

# Its row in the course's reading (faultlines/reading/table.py), word for word as the recipe has it.
ROW = """
row(
    Kind.WORKER_SLOWED,
    "worker {worker} on {node} slows down: it dies at {dies:g} s",  # what a learner reads
    change=lambda s, f: s.set_worker(f["worker"], f["node"], f"slowing, dies at {f['dies']:g} s"),
    lane=Lane.WORKERS,  # drawn on its worker's row ...
    draws=MARK,  # ... as a mark at its event
    strike=Strike.OF_FAULT,  # the fault's own doing: one event with it, and the fault's line says it
)
"""
ADD_THE_ROW = "from faultlines.reading.table import MARK, Kind, Lane, Strike, row\n" + ROW

USE_IT = """
import time
import miniray as ray
from miniray import sim
from miniray.fault_kinds import moves

ray.init(num_cpus=1)
assert moves()["slowdown"] == "slow_worker"
assert "slow_worker" in sim.__all__

@ray.remote(max_retries=0)
def work():
    time.sleep(5)
    return "done"

ref = work.remote()
sim.sleep(1)
sim.slow_worker(ray.nodes()[0]["NodeID"], 2.0, cause="tired")
try:
    ray.get(ref)
except ray.exceptions.WorkerCrashedError:
    print("killed at", sim.now())
print([(r.kind, r.get("cause")) for r in sim.event_log() if r.kind in ("fault", "worker.died")])
print(sim.parse_token("slow_worker node:1 at=2.0 cause=tired").token())
"""

# A toy exercise whose learner retries nothing: any worker death fails it.
EXERCISE = """
id = "toy00"
title = "A job that must finish"
version = 1
entry = ["run_job"]
line_budget = 100

[[tier]]
name = "every slowdown"
kind = "search"
points = 1
scenario = "one-job"
k = 1
moves = ["slowdown"]
"""

CHECKS = """
from faultlines.grader.checks import Checks
from miniray import sim

checks = Checks()


@checks.scenario("one-job")
def one_job(sub, ctx):
    ctx.cluster(workers=1)
    try:
        return {"value": sub.run_job()}
    except sim.SimulationError:
        raise
    except Exception as e:
        return {"error": type(e).__name__}


@checks.invariant("job-finishes")
def finishes(outcome, ctx):
    return f"run_job raised {outcome['error']}" if "error" in outcome else None
"""

LEARNER = """
import time
import miniray as ray


@ray.remote(max_retries=0)
def job():
    time.sleep(5)
    return "done"


def run_job():
    return ray.get(job.remote())
"""

GRADE_IT = """
from pathlib import Path
from faultlines.grader import exercise, grade, submission

ex = exercise.load("toy00")
sub = submission.from_source(Path("learner.py").read_text(), "learner.py", ex.entry, ex.line_budget)
failure = grade.grade(ex, sub).first_failure
print("schedule:", failure.schedule)
print("words:", failure.moves)
print("timeline:", [line for line in failure.timeline if "worker." in line])
"""

# The debugger on that failing run (the grader's own run of it: nothing runs again) draws the row.
DEBUG_IT = """
from pathlib import Path
from faultlines.debugger import render, session
from faultlines.grader import exercise, grade, submission

ex = exercise.load("toy00")
sub = submission.from_source(Path("learner.py").read_text(), "learner.py", ex.entry, ex.line_budget)
runs = grade.Runs(ex, sub)
failure = grade.grade(ex, sub, runs=runs).first_failure
snap = session.ExerciseSource(ex, sub, failure.scenario, failure.invariant).snapshot(
    runs.reported[(failure.scenario, tuple(failure.schedule))]
)
struck = next(e for e in snap.model.events if e.fault)
print("event:", struck.text)
print("worker:", snap.model.state_at(struck.index)["workers"])
print("mark:", [m for m in render.view(snap).split("<path") if "fl-dbg-mark" in m][0].split("<title>")[1])
"""


def _copy_with_the_entry(tmp_path: Path) -> None:
    copy = tmp_path / "miniray"
    shutil.copytree(Path(miniray.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    table = copy / "fault_kinds.py"
    table.write_text(table.read_text() + TOY)
    events = copy / "events.py"  # and the record's line in the catalogue
    text = events.read_text()
    text = text.replace('    EFFECT = "effect"\n', '    EFFECT = "effect"\n' + KIND)
    events.write_text(
        text.replace(
            "CATALOGUE: dict[str, EventSpec] = {\n", "CATALOGUE: dict[str, EventSpec] = {\n" + CATALOGUE
        )
    )


def _python(tmp_path: Path, script: str, **env: str) -> str:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(script))
    out = subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        # The copy first: faultlines (from this checkout) then imports the copied miniray.
        env={"PYTHONPATH": f"{tmp_path}:{REPO}", "PATH": "/usr/bin:/bin", **env},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_recipe_shows_this_entry_its_record_and_its_row():
    recipe = (REPO / "docs/design/contributing.md").read_text()
    assert TOY.strip() in recipe
    assert KIND.strip() in recipe and CATALOGUE.strip() in recipe
    assert ROW.strip() in recipe


def test_adding_a_kind_is_one_entry(tmp_path):
    _copy_with_the_entry(tmp_path)
    out = _python(tmp_path, USE_IT)
    assert "killed at 3.0" in out
    assert "[('fault', None), ('worker.died', 'tired')]" in out  # its own record is neither
    assert "slow_worker node:1 at=2.0 cause=tired\n" in out  # duration=1.0 is its default: left out


def test_the_graders_search_strikes_with_it_and_the_report_says_it_in_its_words(tmp_path):
    _copy_with_the_entry(tmp_path)
    _toy_exercise(tmp_path)
    out = _python(tmp_path, ADD_THE_ROW + GRADE_IT, FAULTLINES_EXERCISES=str(tmp_path / "exercises"))
    assert "schedule: ['slow_worker node:1 after_event=1 duration=2.0']" in out  # the first busy moment
    assert "words: ['at 0 s the worker busy on node:1 dies 2 s later (slow)']" in out
    # The report's timeline leaves its record out (the fault's own line says it), as the row says.
    assert "timeline: ['   2.000  worker.died worker=10002 node=node:1 cause=slow']" in out


def _toy_exercise(tmp_path: Path) -> None:
    folder = tmp_path / "exercises" / "toy00"
    folder.mkdir(parents=True)
    (folder / "exercise.toml").write_text(EXERCISE)
    (folder / "checks.py").write_text(CHECKS)
    (tmp_path / "learner.py").write_text(LEARNER)


def test_the_debugger_draws_it_from_its_row_in_the_reading(tmp_path):
    _copy_with_the_entry(tmp_path)
    _toy_exercise(tmp_path)
    out = _python(tmp_path, ADD_THE_ROW + DEBUG_IT, FAULTLINES_EXERCISES=str(tmp_path / "exercises"))
    assert "event: fault strikes: slow_worker node:1 after_event=1 duration=2.0" in out
    assert "'10002': ('10002', 'node:1', 'slowing, dies at 2 s')" in out  # the tables, at the strike
    assert "mark: worker 10002 on node:1 slows down: it dies at 2 s (event" in out  # the lanes


def test_without_its_row_the_debugger_still_reads_it_as_raw_fields(tmp_path):
    _copy_with_the_entry(tmp_path)
    _toy_exercise(tmp_path)
    out = _python(
        tmp_path, DEBUG_IT.replace('print("mark:"', "# "), FAULTLINES_EXERCISES=str(tmp_path / "exercises")
    )
    assert "'10002': ('10002', 'node:1', 'running job#1/1')" in out  # no row: it changes nothing
