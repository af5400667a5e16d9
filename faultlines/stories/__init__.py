"""The runs the lessons are made of: plain Ray scripts on miniray, and the small course code that
runs them (a cluster, a fault, a summary of the log).

A module belongs here when it runs miniray; a model that only computes (a formula, a table, a
controller with its own clock) belongs in `faultlines.models`. The build runs these for the
pages' numbers and figures, the widgets run them when a learner moves a control, and a lesson
notebook that shows a story's code shows the same function, checked by
tests/lessons/test_story_copies.py.
"""

from miniray import sim

# A story behaves the same pasted into a notebook: its functions are copied into each simulated
# worker by value, as Ray copies a script's (miniray/isolation).
sim.copy_by_value(__name__)
