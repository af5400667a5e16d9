"""The debugger as a notebook widget (ipywidgets, as lesson 1 and every exercise show it): debug()
on a Playground run re-runs it without its fault and back, and a failing check() in a notebook
carries a debugger whose what-if re-run makes the invariant hold. CPython only: the Pyodide unit
tests have no ipywidgets (the browser tests run the same widget in the site's lab)."""

from __future__ import annotations

from pathlib import Path

from miniray import sim

REPO = Path(__file__).resolve().parents[2]


def test_debug_on_a_playground_run_reruns_it_without_a_fault():
    import miniray as ray

    def scenario():
        ray.init(num_cpus=1)

        @ray.remote(max_retries=0)
        def square(x):
            return x * x

        return ray.get(square.remote(3))

    run = sim.run(scenario, faults=["crash square#1/1 step=0"])
    from faultlines import notebook

    shown = notebook.debug(run, scenario)
    assert shown.snap.verdict.failed and "WorkerCrashedError" in shown.snap.verdict.sentence()
    again = shown.rerun(())
    assert not again.verdict.failed and again.verdict.sentence() == "The run returned 9."
    assert "Virtual time" in shown.view.value
    assert [b.description for b in _buttons(shown)] == ["Back to the failing run"]
    shown.rerun(shown.original.schedule)
    assert [b.description for b in _buttons(shown)][:2] == [
        "Remove fault crash square#1/1 step=0",
        "Re-run with the step moved",
    ]
    assert notebook.debug(run).controls.children[0].value.startswith("<p>To re-run it")


def _buttons(shown) -> list:
    import ipywidgets as widgets

    out = []
    for child in shown.controls.children:
        out += [w for w in getattr(child, "children", ()) if isinstance(w, widgets.Button)]
    return out


def test_a_failing_check_in_a_notebook_carries_the_debugger(monkeypatch):
    from faultlines import notebook
    from faultlines.grader.budgets import HOOKS, instrument

    monkeypatch.setattr(notebook, "_shell", lambda: object())  # as if IPython ran the cell
    namespace: dict = {"__name__": "__main__", **HOOKS}
    exec(instrument((REPO / "exercises/fault00/starter.py").read_text(), "<cell>"), namespace)
    monkeypatch.setattr(notebook, "_namespace", lambda: namespace)
    result = notebook.check("fault00")
    assert result.debugger is not None
    assert result.debugger.snap.schedule == ("crash clean#2/1 step=0",)
    result.debugger.rerun(())
    assert "pipeline-finishes holds" in result.debugger.head.value
    exec(instrument((REPO / "exercises/fault00/reference.py").read_text(), "<cell>"), namespace)
    assert notebook.check("fault00").debugger is None  # a pass has nothing to debug


def test_a_local_jupyter_gets_the_front_end_once(monkeypatch):
    from faultlines.debugger import frontend

    monkeypatch.setitem(frontend._shown, "local", False)
    shown: list = []
    frontend.ensure(shown.append)
    frontend.ensure(shown.append)
    assert len(shown) == 1
    html = shown[0].data
    assert html.startswith("<style>") and "<script>" in html and "faultLinesDebugger" in html


def test_a_failing_check_in_a_notebook_runs_its_schedule_no_more_than_the_grader_did(monkeypatch):
    """check() and the debugger under its report: the reported schedule runs in the search and
    once journaled; the debugger opens on that run (before, it ran it a third time)."""
    from faultlines import notebook
    from faultlines.grader import runner
    from faultlines.grader.budgets import HOOKS, instrument

    ran: list[tuple] = []
    real = runner._run
    monkeypatch.setattr(
        runner, "_run", lambda ex, m, sc, schedule, *a: ran.append(schedule) or real(ex, m, sc, schedule, *a)
    )
    monkeypatch.setattr(notebook, "_shell", lambda: object())
    namespace: dict = {"__name__": "__main__", **HOOKS}
    exec(instrument((REPO / "exercises/fault05/starter.py").read_text(), "<cell>"), namespace)
    monkeypatch.setattr(notebook, "_namespace", lambda: namespace)
    result = notebook.check("fault05")
    schedule = tuple(result.report.first_failure.schedule)
    assert result.debugger is not None and result.debugger.snap.schedule == schedule
    assert ran.count(schedule) == 2
    # The debugger itself ran only what "compare with a passing run" needs: the schedule less a fault.
    assert 0 < result.debugger.source.runs <= len(schedule) + 1
