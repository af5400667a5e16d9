"""The grader in a notebook: `start(...)` once, then `check()` after each try.

    from faultlines import notebook as fl
    fl.start("fault05")      # budget ticks on the cells that follow (IPython's AST transformers)
    ...                      # the learner's cell: def process_order(api, order_id, amount): ...
    fl.check()               # the public tiers; an HTML report in a notebook, text in a terminal
    fl.replay("FL1...")      # one failing run again, with its timeline (miniray.timeline() after)
    fl.debug(run, scenario)  # the debugger on any miniray.sim.run(scenario, ...) (the Playground)

A failing check() or replay() shows the debugger (faultlines/debugger) under its report.

The same notebook runs in the site's lab (Pyodide) and in a local Jupyter with faultlines
installed. The report's HTML carries the exercise, its version, the code's hash, the verdict,
the submission's source and the first failure's signature as classes and data attributes, which
is how the site records progress in the browser (docs/design/progress-file.md).
"""

from __future__ import annotations

import linecache
import sys
from html import escape
from typing import TYPE_CHECKING, Any

from . import cell_runs
from .grader import exercise, grade, render_html, render_text, share, submission, tokens
from .grader.budgets import HOOKS, instrument_tree
from .grader.report import Report
from .grader.runner import Outcome

if TYPE_CHECKING:  # imported when a debugger is shown: it brings ipywidgets, which a pass never needs
    from .debugger.widget import Debugger

_state: dict[str, Any] = {"exercise": None}
UNSEEN_EDITS = (
    "Graded as your cells last ran: this Jupyter cannot tell check() about an edit you have not "
    "run yet, so run your answer cell before you check."
)


def _shell() -> Any:
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


class _BudgetTicks:
    """An IPython AST transformer: every cell run after start() counts against the step budget."""

    def visit(self, tree: Any) -> Any:
        return instrument_tree(tree)


def start(exercise_id: str, shared: bool = False) -> None:
    """Grade the cells that follow as this exercise's; `shared`: the notebook replays a run someone
    shared (the site's replay page makes it), which its first line says instead of asking for an
    answer."""
    ex = exercise.load(exercise_id)
    _state["exercise"] = ex.id
    shell = _shell()
    if shell is not None:
        shell.user_ns.update(HOOKS)
        if not any(isinstance(t, _BudgetTicks) for t in shell.ast_transformers):
            shell.ast_transformers.append(_BudgetTicks())
        cell_runs.watch(shell)
    if shared:
        print(
            f"{ex.id} v{ex.version}: {ex.title}. A shared failing run: the next cell is the code it was "
            "found on, and the one after replays the run's faults on that code."
        )
    else:
        print(f"{ex.id} v{ex.version}: {ex.title}. Write your answer below, then run check().")


def _namespace() -> dict[str, Any]:
    shell = _shell()
    if shell is not None:
        return shell.user_ns
    return sys._getframe(2).f_globals  # a plain script: the caller's module


def share_link(exercise_id: str, token: str, code: str, base: str) -> str:
    """A link to the site at `base` whose replay page opens a notebook replaying `token` on `code`."""
    return share.SharedRun(exercise_id, token, code).link(base)


def _from_notebook(namespace: dict[str, Any], entries: list[str]) -> submission.Submission:
    """The learner's submission, refused when a cell that defines one of `entries` failed when
    it last ran (cell_runs): its code on screen is not what the namespace holds."""
    shell = _shell()
    if shell is not None:
        cell_runs.watch(shell)  # check() without start(): the runs from now on
        for name in entries:
            why = cell_runs.refusal(shell, namespace.get(name), name)
            if why is not None:
                raise submission.BadSubmission(why)
    return submission.from_namespace(namespace, entries)


def shared_code(sub: submission.Submission) -> str:
    """What a share link carries: the whole cells that define the learner's functions (their
    imports and helpers too), so the replay notebook runs them as they were."""
    cells = ["".join(linecache.getlines(name)) for name in sorted(sub.files)]
    return "\n".join(cells) if cells and all(cells) else sub.source


class CheckResult:
    """Shows as the HTML report in a notebook and as text anywhere else."""

    def __init__(self, report: Report, source: str = "", debugger: Debugger | None = None):
        self.report = report
        self.source = source
        self.debugger = debugger  # shown under the report when it failed

    def _ipython_display_(self) -> None:
        _display_with_debugger(self._repr_html_(), self.debugger)

    def _repr_html_(self) -> str:
        failure = self.report.first_failure
        base = share.kernel_site_base()  # only the site's lab has a replay page
        url = None
        if failure is not None and base is not None:
            url = share_link(self.report.exercise, failure.token, self.source, base)
        # The site's lab flags an answer cell edited and not run (playground/lab_page.js); a
        # kernel elsewhere cannot see one, and says so.
        note = UNSEEN_EDITS if base is None and _shell() is not None else ""
        return render_html.render(self.report, share_url=url, source=self.source, note=note)

    def __repr__(self) -> str:
        return render_text.render(self.report)


def _display_with_debugger(html: str, shown: Debugger | None) -> None:
    from IPython.display import HTML, display  # only called by IPython's display machinery

    display(HTML(html))
    if shown is not None:
        display(shown)


def _debugger_for(
    ex: exercise.Exercise, sub: submission.Submission, report: Report, runs: grade.Runs
) -> Debugger | None:
    failure = report.first_failure
    if failure is None or failure.nondeterminism:  # no run to step through: two executions differed
        return None
    schedule = tuple(failure.schedule)
    reported = runs.reported.get((failure.scenario, schedule))  # the grader's run of it: not run again
    return _open_debugger(ex, sub, failure.scenario, schedule, failure.invariant, reported)


def _open_debugger(
    ex: exercise.Exercise,
    sub: submission.Submission,
    scenario: str,
    schedule: tuple[str, ...],
    watched: str,
    reported: Outcome | None = None,
) -> Debugger | None:
    from . import debugger  # ipywidgets with it, only once a run is shown (see the top)

    try:
        return debugger.for_failure(ex, sub, scenario, schedule, watched, reported)
    except Exception as e:  # the report must show even if the debugger cannot: say so, once
        print(f"(the debugger could not open this run: {type(e).__name__}: {e})", file=sys.stderr)
        return None


def debug(run: Any, scenario: Any = None) -> Debugger:
    """The debugger on a `miniray.sim.run(scenario, ...)`: step through it event by event; given
    the scenario too, remove or move its faults and run it again."""
    from . import debugger  # ipywidgets with it (see the top)

    return debugger.debug(run, scenario)


def _exercise_id(exercise_id: str | None) -> str:
    chosen = exercise_id or _state["exercise"]
    if chosen is None:
        raise ValueError('which exercise? Run start("fault05") first, or call check("fault05").')
    return chosen


def check(exercise_id: str | None = None) -> CheckResult | None:
    ex = exercise.load(_exercise_id(exercise_id))
    runs: grade.Runs | None = None
    try:
        sub = _from_notebook(_namespace(), ex.entry)
    except submission.BadSubmission as e:
        report = Report(ex.id, ex.title, ex.version, "", error=str(e))
        source = ""
    else:
        runs = grade.Runs(ex, sub)
        report = grade.grade(ex, sub, runs=runs)
        source = shared_code(sub)
    if _shell() is None:
        print(repr(CheckResult(report, source)))
        return None
    shown = _debugger_for(ex, sub, report, runs) if runs is not None and not report.error else None
    return CheckResult(report, source, shown)


class ReplayResult:
    """One replayed run: its timeline and verdict, as HTML in a notebook and as text elsewhere."""

    def __init__(
        self,
        ex: exercise.Exercise,
        token: tokens.Token,
        outcome: Outcome,
        same_code: bool,
        debugger: Debugger | None = None,
    ):
        self.exercise = ex
        self.token = token
        self.outcome = outcome
        self.same_code = same_code
        self.debugger = debugger

    def _ipython_display_(self) -> None:
        _display_with_debugger(self._repr_html_(), self.debugger)

    @property
    def violations(self) -> list[tuple[str, str]]:
        return self.outcome.violations

    def _head(self) -> str:
        schedule = "; ".join(self.token.schedule) or "(no faults)"
        return f"{self.exercise.id} v{self.exercise.version}, scenario {self.token.scenario}, schedule: {schedule}"

    def _verdicts(self) -> list[str]:
        if not self.violations:
            return ["every invariant holds on this run"]
        return [f"broken invariant: {name}: {render_text.plain(detail)}" for name, detail in self.violations]

    def __repr__(self) -> str:
        lines = [self._head()]
        if not self.same_code:
            lines.append("(the token was found on different code; this replays it on yours)")
        lines += self.outcome.log + self._verdicts()
        lines.append("miniray.timeline() now exports this run as a Chrome trace.")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        failed = bool(self.violations)
        verdicts = "<br>".join(escape(v) for v in self._verdicts())
        note = (
            ""
            if self.same_code
            else "<p>(the token was found on different code; this replays it on yours)</p>"
        )
        return (
            f'<div class="fl-replay-run fl-{"failed" if failed else "passed"}">'
            f"<p><b>Replay of</b> <code>{escape(self._head())}</code></p>{note}"
            f'<p style="color:{render_html.BAD if failed else render_html.OK}">{verdicts}</p>'
            f"<details open><summary>Timeline of the run ({len(self.outcome.log)} events)</summary>"
            f"{render_html.timeline(self.outcome.log)}</details>"
            "<p><code>miniray.timeline()</code> now exports this run as a Chrome trace.</p></div>"
        )


def replay(token: str) -> ReplayResult | None:
    """Run one failing schedule again on the code defined now, and show its timeline.

    A token this version of the exercise cannot replay (made for another version, damaged, or for
    an exercise this site does not have) prints one line saying so, instead of a traceback."""
    try:
        decoded = tokens.decode(token)
        ex = exercise.load(decoded.exercise)
        tokens.check_version(decoded, ex.version)
        sub = _from_notebook(_namespace(), ex.entry)
    except (tokens.TokenError, exercise.ExerciseError, submission.BadSubmission) as e:
        print(f"cannot replay: {e}")
        return None
    shown_in_a_notebook = _shell() is not None
    outcome = grade.replay(ex, sub, decoded, sites=shown_in_a_notebook)  # the debugger shows this run
    shown = None
    if shown_in_a_notebook:
        watched = outcome.violations[0][0] if outcome.violations else ""
        shown = _open_debugger(ex, sub, decoded.scenario, decoded.schedule, watched, outcome)
    result = ReplayResult(ex, decoded, outcome, sub.code_hash == decoded.code_hash, shown)
    if _shell() is None:
        print(repr(result))
    return result
