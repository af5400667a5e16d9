"""The instructor's class map: which mistakes a class makes, grouped exactly, with a replay each.

`python -m faultlines grade-all EXERCISE|all FOLDER --report OUT/` writes OUT/report.html (one
offline page), OUT/groups.csv and OUT/replays/<n>.html. Modules:

- (the canonical form it groups on, a failing schedule in words that do not depend on the
  learner's names or step counts, is the grader's: faultlines/grader/canonical.py, computed on
  the run it reports as Failure.canonical; so the class map stands on the grader, never under)
- signature: what makes two failures the same mistake
- handin: what the map reads, one row per submission of an exercise (grade-all builds them)
- progress: a folder of learners' progress files, regraded where they carry the source
- catalogue: the exercise's catalogued mistakes, by signature
- groups: the map as data: per-exercise rates, groups by signature, largest first
- groups_csv, page (with group_html and report.css), replays: the files in OUT/
- variants: harmless variations of a submission, and a made-up class (tests, bench, docs)

docs/design/class-map.md says why the groups are what they are.
"""
