"""Reading a run: miniray's Chrome trace turned into lanes a learner can read in a notebook or on a page.

    lanes.py   the trace as rows (one per worker) of attempt bars and fault marks: a plain dataclass
    text.py    the lanes as fixed-width text (pages, plain notebooks, screen readers)
    observe.py one sim.run of a scenario under a fault schedule, kept with its lanes
The SVG drawing of the same lanes is a widget chart: faultlines/widgets/statechart.py (from_lanes).
"""

from .lanes import Bar, Lanes, Mark, Row, from_trace
from .observe import Observed, observe
from .text import render_text

__all__ = ["Bar", "Lanes", "Mark", "Observed", "Row", "from_trace", "observe", "render_text"]
