"""Canonical schedules (faultlines/grader/canonical.py): the same mistake in the same words
whatever the learner named things or however many calls came before the fault."""

from __future__ import annotations

from grader_support import REPO, grade_file

from faultlines.grader import canonical
from faultlines.reading import Reading
from miniray.sim import Record


def _canon(tokens, journals, records, keep=()):
    """The canonical form, on the reading of a run with these records and journals."""
    return canonical.schedule(tokens, Reading(records, journals=journals), keep)


def _records(*rows: tuple[str, dict]) -> list[Record]:
    return [Record(i, 0.0, kind, fields, step=i) for i, (kind, fields) in enumerate(rows)]


SUBMITTED = _records(
    ("task.submit", {"task": "scrub", "id": "a", "ordinal": 1, "owner": 1}),
    ("task.submit", {"task": "tally", "id": "b", "ordinal": 1, "owner": 1}),
    ("actor.create", {"actor": "Counter(54d6d5da)", "name": ""}),
)


def test_a_crash_is_placed_after_the_journal_operation_before_it_and_names_are_renamed():
    journals = {
        "scrub#1/1": [],
        "tally#1/1": [("get", "a.py:3"), ("ledger.put", "a.py:4"), ("get", "a.py:5")],
        "Counter.__init__#1/0": [("checkpoints.load", "a.py:9")],
    }
    got = _canon(
        [
            "crash scrub#1/1 step=0",
            "crash tally#1/1 step=2",
            "crash tally#1/1 step=3",
            "crash Counter.__init__#1/0 step=1",
        ],
        journals,
        SUBMITTED,
    )
    assert got == [
        "crash task1#1/1 at start",
        "crash task2#1/1 after ledger.put",
        "crash task2#1/1 after get#2",  # the second `get` of the attempt
        "crash actor1.__init__#1/0 after checkpoints.load",
    ]


def test_names_the_exercise_spells_stay_and_ops_that_name_a_function_are_renamed_too():
    journals = {"process_order#1/1": [("submit scrub", "a.py:2"), ("call Counter.add", "a.py:3")]}
    got = _canon(["crash process_order#1/1 step=2"], journals, SUBMITTED, keep={"process_order"})
    assert got == ["crash process_order#1/1 after call actor1.add"]


def test_renaming_every_name_the_learner_chose_gives_the_same_words():
    def run(task: str, cls: str) -> list[str]:
        records = _records(
            ("task.submit", {"task": task, "id": "a", "ordinal": 1, "owner": 1}),
            ("actor.create", {"actor": f"{cls}(0000abcd)", "name": ""}),
        )
        journals = {f"{task}#1/1": [(f"call {cls}.add", "x.py:1")], f"{cls}.add#1/1": []}
        return _canon([f"crash {task}#1/1 step=1", f"crash {cls}.add#1/1 step=0"], journals, records)

    assert (
        run("count", "Tally")
        == run("words_in", "Counter")
        == [
            "crash task1#1/1 after call actor1.add",
            "crash actor1.add#1/1 at start",
        ]
    )


def test_a_node_fault_is_placed_after_the_last_record_the_log_shows_before_it():
    token = "kill_node node:1 after_event=3"
    records = _records(
        ("task.submit", {"task": "load", "id": "a", "ordinal": 1, "owner": 1}),
        ("task.start", {"task": "load", "attempt": "load#1/1", "node": "node:1", "worker": 7}),
        ("effect", {"attempt": "load#1/1", "service": "ledger", "op": "put", "key": "k", "outcome": "ok"}),
        ("object.free", {"object": "ff", "reason": "out_of_scope"}),  # bookkeeping: not a place
        ("fault", {"fault": token}),
        ("node.died", {"node": "node:1", "id": "x", "cause": "fault"}),
    )
    assert _canon([token], {}, records) == ["kill_node node:1 after effect ledger.put by task1#1/1"]
    pause = "pause_node node:1 after_event=2 duration=15.0"
    records[4].fields["fault"] = pause
    assert _canon([pause], {}, records) == [
        "pause_node node:1 after effect ledger.put by task1#1/1 duration=15.0"
    ]


def test_what_cannot_be_placed_keeps_its_token():
    unreached = "crash load#1/1 step=5"  # the attempt made 1 call: this crash never struck
    never = "kill_node node:2 after_event=40"
    timed = "pause_node node:1 at=3.0 duration=15.0"
    client = "client after_call=1"
    got = _canon([unreached, never, timed, client], {"load#1/1": [("get", "")]}, SUBMITTED)
    assert got == [unreached, never, timed, client]


def test_two_mistakes_that_crash_after_the_charge_at_different_steps_read_the_same():
    """fault05: pid_key.py charges at its step 0, key_per_attempt.py reads the clock first and
    charges at step 1. Their raw schedules differ by the step; the canonical ones agree."""
    folder = REPO / "exercises/fault05/wrong"
    pid = grade_file("fault05", folder / "pid_key.py").first_failure
    attempt = grade_file("fault05", folder / "key_per_attempt.py").first_failure
    assert pid is not None and attempt is not None
    assert pid.schedule != attempt.schedule
    assert pid.canonical == attempt.canonical == ["crash process_order#1/1 after api.charge"]


def test_the_scenarios_own_tasks_keep_their_names():
    """fault03's scenario submits its own `downstream` tasks (checks.py): they are the exercise's."""
    assert "downstream" in canonical.defined_in(REPO / "exercises/fault03/checks.py")
    failure = grade_file("fault03", REPO / "exercises/fault03/starter.py").first_failure
    assert failure is not None and failure.canonical is not None
    assert any("downstream#" in move for move in failure.canonical), failure.canonical
