"""A run, read once: the course's one reading of miniray's records, under every view of a run.

    from faultlines.reading import Reading, Kind
    reading = Reading.of_run(run)              # a finished sim.run(...)
    reading.attempts("fetch")                  # questions: attempts of a task, an actor's states,
    reading.doing("node:1", 3.0)               #   what a node was doing at t, a fault's strike
    reading.events, reading.spans              # the events (sentence, state changes) and their lanes
    reading.lanes                              # the lanes on the time axis

    table.py       THE table: per record kind, its sentence, state change, lane, drawing, whether it
                   carries the learner's line, is bookkeeping, is a fault's strike, is a final failure
    state.py       the state tables a learner is shown, and each kind's change to them
    fold.py        the records folded into events
    lanes.py       the lanes' two shapes (the time axis, the event axis), as data
    spans.py       the lanes, built once
    reading.py     Reading: the views, made once, and the questions
    sites.py       which line of the learner's code made each event
    violations.py  what an invariant says when it breaks, and the moment it broke

It stands on `miniray.sim` alone; the grader, the debugger, the class map, the timelines and the
lessons stand on it, and it imports none of them (docs/design/reading.md).
"""

from miniray.sim import Kind

from . import table
from .fold import Event
from .lanes import Bar, Lanes, Mark, Row, Spans
from .reading import DIED, FINISHED, RAISED, Attempt, NodeAt, Reading, entered
from .sites import SiteRecorder
from .table import TABLE, Lane, Strike
from .violations import Broken, Moment, Violation, moment

__all__ = [
    "DIED",
    "FINISHED",
    "RAISED",
    "TABLE",
    "Attempt",
    "Bar",
    "Broken",
    "Event",
    "Kind",
    "Lane",
    "Lanes",
    "Mark",
    "Moment",
    "NodeAt",
    "Reading",
    "Row",
    "SiteRecorder",
    "Spans",
    "Strike",
    "Violation",
    "entered",
    "moment",
    "table",
]
