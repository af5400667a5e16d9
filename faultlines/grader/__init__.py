"""The Fault Lines grader: fault-searching checks of the course's exercises.

    from faultlines.grader import exercise, submission, grade
    ex = exercise.load("fault05")
    sub = submission.from_file("my_solution.py", ex.entry, ex.line_budget)
    report = grade.grade(ex, sub)

Modules: exercise (the folder contract), checks (what an exercise declares: scenarios,
invariants, evidence), submission and notebook_state (a fresh load for every run), world (a
scenario's context), schedule (moves, and each in plain words), runner (one run, judged),
search (tiers 2 and 3), shrink, canonical (a failing schedule in the learner's-name-free words the class map groups
on), tokens (replay), share (links to the site's replay page),
budgets (counted, never timed), report (dataclasses), log_lines (a run's log as a report shows
it) and the renderers render_text, render_html, render_json. docs/design/grader.md says how a
hint rests on evidence from the run. The notebook entry points are in
faultlines.notebook; the instructor CLI is `python -m faultlines`.
"""

from miniray import sim

# A graded submission is the learner's script: Ray would pickle its functions by value, so each
# simulated worker process gets its own copy of the state they use (miniray/isolation).
sim.copy_by_value("submission")
# The grader's own code (its services, the scenarios) is not the learner's: a journal entry names
# the learner's line, not these (exercise.load adds each exercise's checks module too).
sim.library_code("faultlines.grader")
