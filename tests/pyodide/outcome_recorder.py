"""A pytest plugin that writes each test's outcome to JSON, for CPython/Pyodide parity.

    pytest -p outcome_recorder --outcomes-json=out.json tests/unit

The file maps node id -> one of passed, failed, skipped, xfailed, xpassed, error
(setup or teardown failed) or collection-error, plus the interpreter it ran on.
"""

import json
import platform
import sys


def pytest_addoption(parser):
    parser.addoption("--outcomes-json", default=None, help="write per-test outcomes to this file")


def pytest_configure(config):
    path = config.getoption("--outcomes-json")
    if path:
        config.pluginmanager.register(OutcomeRecorder(path), "outcome-recorder-instance")


class OutcomeRecorder:
    def __init__(self, path=None):
        self.path = path
        self.outcomes = {}

    def pytest_collectreport(self, report):
        if report.failed:
            self.outcomes[report.nodeid or "<collection>"] = "collection-error"

    def pytest_runtest_logreport(self, report):
        nodeid = report.nodeid
        xfail = hasattr(report, "wasxfail")
        if report.when == "setup":
            if report.failed:
                self.outcomes[nodeid] = "error"
            elif report.skipped:
                self.outcomes[nodeid] = "xfailed" if xfail else "skipped"
        elif report.when == "call":
            if xfail:
                self.outcomes[nodeid] = "xfailed" if report.skipped else "xpassed"
            else:
                self.outcomes[nodeid] = report.outcome  # passed / failed / skipped
        elif report.when == "teardown" and report.failed:
            self.outcomes[nodeid] = "error"

    def pytest_sessionfinish(self, session, exitstatus):
        import pytest

        if self.path is None:  # kept in memory: the parity test reads `outcomes` itself
            return
        with open(self.path, "w") as f:
            json.dump(
                {
                    "python": sys.version.split()[0],
                    "platform": sys.platform,
                    "implementation": platform.python_implementation(),
                    "pytest": pytest.__version__,
                    "exitstatus": int(exitstatus),
                    "outcomes": self.outcomes,
                },
                f,
                indent=1,
                sort_keys=True,
            )
