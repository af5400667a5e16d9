"""A run's timeline: its lanes (one row per worker, a bar per attempt, faults as marks) as a learner
reads them in a notebook or on a page. The lanes are the run's reading's (faultlines/reading).

    lanes.py   the lanes' shape, and the same read from a Chrome trace (real Ray's `ray.timeline()`)
    text.py    the lanes as fixed-width text (pages, plain notebooks, screen readers)
    observe.py one sim.run of a scenario under a fault schedule, kept with its lanes
The SVG drawing of the same lanes is a widget chart: faultlines/widgets/statechart.py (from_lanes).
"""

from .lanes import Bar, Lanes, Mark, Row, from_trace
from .observe import Observed, observe
from .text import render_text

__all__ = ["Bar", "Lanes", "Mark", "Observed", "Row", "from_trace", "observe", "render_text"]
