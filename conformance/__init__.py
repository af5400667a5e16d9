"""Running the same script on real Ray 2.60 and on miniray, and comparing what each observed.

Shared by the conformance tests (tests/conformance), the Ray-examples tests, the Pyodide
parity test and bench/conformance_wall.py, so that none of them imports from another's folder:

* ``scenario_runs``: run one scenario on one backend in a fresh process (``runner.py`` is the
  process's entry point);
* ``observations``: compare two observation trees, and real Ray's recording;
* ``ray_processes``: the clean-up of what a real-Ray run leaves behind.

The scenarios themselves, and real Ray's recording of them, stay with the tests that check
them (tests/conformance/scenarios, tests/conformance/recorded).
"""
