"""Each CLI verb loads only what it uses (faultlines/cli/__init__.py: a verb's module is imported
when that verb runs). Measured in a fresh interpreter, from its `sys.modules`, as an instructor
runs the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

from test_cli import REPO

VIEWS = ("faultlines.debugger", "faultlines.classmap", "faultlines.widgets", "faultlines.timeline")

_LOADED = """
import json, runpy, sys
sys.argv = ["faultlines", *ARGV]
try:
    runpy.run_module("faultlines", run_name="__main__")
except SystemExit as e:
    status = e.code
print(json.dumps({"status": status, "modules": sorted(m for m in sys.modules if m.startswith("faultlines"))}))
"""


def loaded(*argv: str) -> tuple[int, list[str]]:
    """(exit status, the faultlines modules loaded) of `python -m faultlines ARGV...`."""
    code = _LOADED.replace("ARGV", repr(list(argv)))
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    out = json.loads(proc.stdout.splitlines()[-1])
    return out["status"], out["modules"]


def test_grade_help_loads_no_debugger_class_map_widget_or_timeline_module():
    status, modules = loaded("grade", "--help")
    assert status == 0
    assert "faultlines.cli.grade" in modules and "faultlines.grader.grade" in modules  # it did load grade
    assert [m for m in modules if m.startswith(VIEWS)] == []
    assert "faultlines.cli.replay" not in modules and "faultlines.cli.grade_all" not in modules


def test_the_top_help_and_a_bad_verb_load_no_verb():
    for argv, want in ((["--help"], 0), (["bogus"], 2), ([], 2)):
        status, modules = loaded(*argv)
        assert status == want, argv
        assert not [
            m for m in modules if m.startswith("faultlines.cli.") and m != "faultlines.cli.signals"
        ], argv


def test_grade_all_help_loads_the_class_map_only_for_progress_files():
    status, modules = loaded("grade-all", "--help")
    assert status == 0
    assert "faultlines.cli.class_report" not in modules  # the map's page and groups: --report only
    assert [m for m in modules if m.startswith(("faultlines.debugger", "faultlines.widgets"))] == []


def test_replay_loads_the_debugger_it_uses():
    status, modules = loaded("replay", "--help")
    assert status == 0
    assert "faultlines.debugger.page" in modules


def test_every_verb_names_a_module_with_its_arguments_and_its_run():
    import importlib

    from faultlines.cli import VERBS

    for verb, (module, _help) in VERBS.items():
        found = importlib.import_module(f"faultlines.cli.{module}")
        assert callable(found.add_arguments) and callable(found.run), verb
