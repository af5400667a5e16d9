"""Grade one submission with the judge here and the learner's code in a jail.

`grade` is what `python -m faultlines grade` runs in its own process, what each of grade-all's
judge processes runs, and what a Ray task runs on its node with `--ray`. Whatever the jail does,
the answer is a Verdict: a report, a bad-input line (exit status 2), or a failed report saying
how the jail broke ("crashed the grader's sandbox: ..."), never an exception.
"""

from __future__ import annotations

import io
import resource
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faultlines.grader import exercise, grade
from faultlines.grader.report import Report, TierResult
from faultlines.grader.submission import BadSubmission

from . import ending, machine, surface
from . import source as submission_source
from .channel import ChannelBroken, now
from .exposure import Exposure
from .jail import Jail, Limits, Plan
from .jailed import JailedSubmission
from .judge import OUTPUT_LIMIT, Bridge, LearnerExit

SANDBOX_CRASH = "crashed the grader's sandbox"


@dataclass
class Verdict:
    report: Report
    bad_input: str | None = None  # set: exit status 2
    output: str = ""  # what the submission printed (for the instructor, never parsed)


def failed(exercise_id: str, reason: str) -> Report:
    """A report that gives no points and says why the grading could not finish."""
    report = Report(exercise_id, exercise_id, 0, "")
    report.tiers.append(TierResult("sandbox", "sandbox", 1.0, 0.0, False, 0))
    report.error = reason
    return report


class Tail(io.StringIO):
    """The learner's output as the judge keeps it: at most OUTPUT_LIMIT characters."""

    def write(self, text: str) -> int:
        room = OUTPUT_LIMIT - self.tell()
        return super().write(text[: max(room, 0)]) if room > 0 else 0


def checks_module(ex: exercise.Exercise) -> str:
    scenario = next(iter(ex.checks.scenarios.values()), None)
    return getattr(scenario, "__module__", "") or ""


@dataclass
class Jailed:
    """What a piece of grading work gave, run with the submission's code in a jail."""

    value: Any = None
    bad_input: str | None = None  # the submission cannot be graded at all: one line, exit status 2
    problem: str | None = None  # the jail broke: "crashed the grader's sandbox: ..."
    output: str = ""  # what the submission printed (for the instructor, never parsed)


def in_jail(
    ex: exercise.Exercise,
    source: str,
    path: Path,
    work: Callable[[JailedSubmission], Any],
    plan: Plan | None = None,
    limits: Limits | None = None,
) -> Jailed:
    """Start a jail, load `source` there, run `work` on it; whatever the jail does, return."""
    plan = plan if plan is not None else machine.probe()
    limits = limits or Limits()
    filename = str(path.resolve())
    sink = Tail()
    bridge: Bridge | None = None
    done = Jailed()
    try:
        jail = Jail(plan, limits)
    except OSError as e:  # a cgroup, bubblewrap itself
        done.problem = f"{SANDBOX_CRASH}: it could not start ({e})"
        return done
    try:
        bridge = Bridge(jail, Exposure(checks_module(ex)), now() + limits.wall_seconds, source, filename)
        with redirect_stdout(sink):
            bridge.start(_config(ex, source, filename, plan, limits))
            done.value = work(JailedSubmission(bridge, source, filename, path.name))
    except BadSubmission as e:
        done.bad_input = str(e)
    except MemoryError:
        done.problem = f"{SANDBOX_CRASH}: {ending.MEMORY}"
    except LearnerExit as e:
        done.problem = (
            f"{SANDBOX_CRASH}: the submission called exit({e.code}) outside a task, which ends the grading"
        )
    except ChannelBroken as e:
        done.problem = f"{SANDBOX_CRASH}: {ending.explain(e, jail, bridge, limits)}"
    finally:
        jail.close()
    done.output = sink.getvalue()
    return done


def grade_file(
    exercise_id: str,
    path: Path,
    hidden: str | None = None,
    plan: Plan | None = None,
    limits: Limits | None = None,
    replay_call: Callable[[str], str] | None = None,
    ex: exercise.Exercise | None = None,
) -> Verdict:
    """`ex`: the exercise already loaded (a judge grading many submissions loads it once)."""
    ex = ex or exercise.load(exercise_id, hidden=hidden)
    try:
        source = submission_source.read(path)
    except submission_source.NotASubmission as e:
        return Verdict(failed(ex.id, f"{path}: {e}"), f"{path}: {e}")
    except (OSError, UnicodeDecodeError) as e:
        return Verdict(failed(ex.id, f"{path}: cannot be read ({e})"), f"{path}: cannot be read ({e})")
    call = replay_call or (lambda token: f"python -m faultlines replay {token} {path}")
    done = in_jail(ex, source, path, lambda sub: grade.grade(ex, sub, replay_call=call), plan, limits)
    if done.bad_input is not None:
        return Verdict(failed(ex.id, done.bad_input), done.bad_input, done.output)
    if done.problem is not None:
        return Verdict(failed(ex.id, done.problem), None, done.output)
    return Verdict(done.value, None, done.output)


def _config(ex: exercise.Exercise, source: str, filename: str, plan: Plan, limits: Limits) -> dict:
    return {
        "source": source,
        "filename": filename,
        "entries": list(ex.entry),
        "line_budget": ex.line_budget,
        **surface.for_the_jail(),
        "limits": {
            "cpu_seconds": limits.cpu_seconds,
            "memory_bytes": limits.memory_bytes,
            "file_bytes": limits.file_bytes,
            "open_files": limits.open_files,
            "nproc": machine.nproc_limit(plan, limits) or 0,
        },
    }


def limit_judge(limits: Limits) -> None:
    """The judge's own memory limit (a process that grades one submission: grade, a grade-all
    child): whatever the jail sends it to hold ends in a MemoryError, that submission's row."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = limits.judge_memory_bytes
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if want > 0 and (soft == resource.RLIM_INFINITY or want < soft):
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
