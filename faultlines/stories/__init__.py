"""The runs the lesson pages open with: plain Ray scripts, run by the build (numbers modules) and
by the lessons' widgets, so the code a page prints is the code that produced its log."""
