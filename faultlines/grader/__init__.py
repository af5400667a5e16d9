"""The Fault Lines grader: fault-searching checks of the course's exercises.

    from faultlines.grader import exercise, submission, grade
    ex = exercise.load("fault05")
    sub = submission.from_file("my_solution.py", ex.entry, ex.line_budget)
    report = grade.grade(ex, sub)

Modules: exercise (the folder contract), checks (what an exercise declares), world (a
scenario's context), schedule (moves), runner (one run, judged), search (tiers 2 and 3),
shrink, tokens (replay), budgets (counted, never timed), report (dataclasses) and the
renderers render_text, render_html, render_json. The notebook entry points are in
faultlines.notebook; the instructor CLI is `python -m faultlines`.
"""
