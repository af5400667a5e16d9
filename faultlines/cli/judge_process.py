"""grade-all's judges: a process per submission, each forked fresh from a template that grades
nothing itself.

grade-all runs `--jobs` templates (judges.py starts them and reads them). A template loads the
exercise once (its checks, the grader, miniray), then for each submission forks a child: the
child grades that one submission, its code in a jail of its own, hands its verdict back on a pipe
and exits. Nothing one submission's grading changes in its judge's memory (a module's table, a
cache, a class) reaches the next: it went with its process, and the next starts from the
template, which never ran a grading. A child that dies (its memory limit, a kill) costs its own
row ("lost"); the template goes on.

The first line on stdin is the setup (the parent's jail plan, so no probe again, the limits, the
exercise); then one line per submission, answered by one JSON line. Every process here dies with
its parent (PR_SET_PDEATHSIG): grade-all, then the template, then the child's jail.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import traceback
from pathlib import Path

from faultlines.grader import exercise
from faultlines.sandbox import cgroup, run
from faultlines.sandbox.jail import Limits, Plan

from . import signals

PR_SET_PDEATHSIG = 1
ANSWER_BYTES = 64 * 1024**2  # of one child's verdict: more is not a verdict


def _die_with(parent: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent went before the death signal was set
        os._exit(1)


def _child(ex: exercise.Exercise, path: Path, plan: Plan, limits: Limits, answer: int) -> int:
    """The forked judge: grade one submission, write the verdict to `answer`; its exit status."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the template's pipes are the template's: this process reads and prints neither
    os.dup2(2, 1)
    try:
        run.limit_judge(limits)
        verdict = run.grade_file(ex.id, path, plan=plan, limits=limits, ex=ex)
        _write(answer, {"report": verdict.report.to_dict(), "bad_input": verdict.bad_input})
        return 0
    except signals.Terminated as e:
        return 128 + e.signum
    except MemoryError:
        return 3
    except BaseException as e:  # the judge's own failure: the row says what it was
        traceback.print_exc(limit=-3)
        _write(answer, {"lost": f"its judge process failed ({type(e).__name__}: {str(e)[:200]})"})
        return 1


def _write(fd: int, data: dict) -> None:
    view = memoryview(json.dumps(data).encode())
    while view:
        view = view[os.write(fd, view) :]


def _fork_one(ex: exercise.Exercise, path: Path, plan: Plan, limits: Limits) -> dict:
    read, write = os.pipe()
    template = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never back into the template's loop, whatever happens
        status = 1
        try:
            os.close(read)
            _die_with(template)
            status = _child(ex, path, plan, limits, write)
        finally:
            os._exit(status)
    os.close(write)
    chunks, size = [], 0
    with os.fdopen(read, "rb") as stream:
        while chunk := stream.read(1 << 16):
            size += len(chunk)
            if size <= ANSWER_BYTES:
                chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if plan.cgroups is not None and status != 0:  # a child killed mid-grading left its jail's cgroup
        cgroup.sweep(plan.cgroups)
    try:
        answer = json.loads(b"".join(chunks)) if size <= ANSWER_BYTES else None
    except ValueError:
        answer = None
    if isinstance(answer, dict) and "report" in answer and os.waitstatus_to_exitcode(status) == 0:
        return answer
    if isinstance(answer, dict) and isinstance(answer.get("lost"), str):
        return {"lost": answer["lost"]}
    return {"lost": f"its judge process ended with status {os.waitstatus_to_exitcode(status)}"}


def main() -> None:
    setup = json.loads(sys.stdin.readline())
    _die_with(int(setup["parent"]))
    signals.install()
    # Ctrl-C reaches the whole process group: grade-all decides, and kills what is left.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    plan, limits = Plan.from_dict(setup["plan"]), Limits(**setup["limits"])
    ex = exercise.load(setup["exercise"], hidden=setup["hidden"])  # once: every child has it loaded
    try:
        for line in sys.stdin:
            out = _fork_one(ex, Path(json.loads(line)["path"]), plan, limits)
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
    except signals.Terminated as e:  # grade-all stopping: the child dies with this process
        os._exit(128 + e.signum)


if __name__ == "__main__":
    main()
