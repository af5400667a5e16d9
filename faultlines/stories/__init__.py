"""The runs the lesson pages open with: plain Ray scripts, run by the build (numbers modules) and
by the lessons' widgets, so the code a page prints is the code that produced its log."""

from miniray import sim

# A story behaves the same pasted into a notebook: its functions are copied into each simulated
# worker by value, as Ray copies a script's (miniray/isolation).
sim.copy_by_value(__name__)
