"""The files of an exercise folder that ship to learners (the site's lab, the faultlines wheel).

A module with no imports, so the wheel's build hook (packaging/faultlines/hatch_build.py, which
runs without miniray) can read it by path: the list is written once.
"""

PUBLIC_FILES = ("exercise.toml", "statement.md", "starter.py", "checks.py")
