"""grade-all's workers: a judge process per submission here, or a Ray worker per submission.

Locally, each submission gets a judge process of its own (cli/judge_process.py: forked fresh from
a template that grades nothing), which starts its own jail; `jobs` of them run at once. Whatever
happens to one (its jail breaks, it is killed, it runs past its time) is that submission's row:
"crashed the grader's sandbox: ...", and the class goes on; nothing it did reaches the next.
Interrupted (Ctrl-C, SIGTERM), every judge still running is killed, and its jail with it.

With Ray, each node must sandbox: `check_nodes` runs the probe on every alive node first and the
run refuses if one lacks it (or pass --unsafe-local); each task checks again on its node, and a
Ray worker process grades one submission only (`max_calls=1`), then exits.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from faultlines.grader.report import Report
from faultlines.grader.safe_text import visible, visible_data
from faultlines.sandbox.run import SANDBOX_CRASH, Verdict, failed

from . import UsageError, classroom, local
from .classroom import BAD_INPUT, CRASHED, GRADED, Student, StudentResult
from .isolation import Isolation
from .judges import Judge, JudgeLost

JUDGE_MARGIN_S = 120  # past the jail's own wall limit, a judge process is killed as stuck


def result_of(key: str, verdict: Verdict) -> StudentResult:
    """One row. What the submission put in its report (a message, a repr) is made safe text once,
    here, for every file grade-all writes: the CSV, the Gradescope files, the class map."""
    report = Report.from_dict(visible_data(verdict.report.to_dict()))
    if verdict.bad_input is not None:
        return StudentResult(key, report, BAD_INPUT, visible(verdict.bad_input))
    error = report.error or ""
    if error.startswith(SANDBOX_CRASH):
        return StudentResult(key, report, CRASHED, error)
    return StudentResult(key, report, GRADED)


def crashed(exercise: str, key: str, why: str) -> StudentResult:
    message = f"{SANDBOX_CRASH}: {why}"
    return StudentResult(key, failed(exercise, message), CRASHED, message)


class LocalJudges:
    """Judge processes on this machine, `jobs` of them, each grading one submission at a time."""

    def __init__(self, iso: Isolation, exercise: str, hidden: str | None, jobs: int) -> None:
        self.iso, self.exercise, self.hidden, self.jobs = iso, exercise, hidden, max(1, jobs)
        self._judges: set[Judge] = set()
        self._lock = threading.Lock()
        self._mine = threading.local()  # each pool thread's judge

    def grade(self, students: list[Student]) -> Iterator[StudentResult]:
        """Results in the students' order, each as soon as it and those before it are done."""
        pool = ThreadPoolExecutor(max_workers=self.jobs)
        try:
            futures = [pool.submit(self.one, s) for s in students]
            for future in futures:
                yield future.result()
        except BaseException:
            self.kill_all()  # interrupted: no judge (nor its jail) is left running
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            self.close_all()

    def one(self, student: Student) -> StudentResult:
        assert student.path is not None
        if self.iso.mode == "unsafe-local":
            verdict = local.run(self.exercise, student.path, self.hidden, self.iso.limits.wall_seconds)
            return result_of(student.key, verdict)
        judge = getattr(self._mine, "judge", None)
        if judge is None:
            judge = self._mine.judge = Judge(self.iso, self.exercise, self.hidden)
            with self._lock:
                self._judges.add(judge)
        try:
            data = judge.grade(str(student.path.resolve()), self.iso.limits.wall_seconds + JUDGE_MARGIN_S)
            if "lost" in data:  # that submission's judge died; the template goes on
                return crashed(self.exercise, student.key, str(data["lost"]))
            verdict = Verdict(Report.from_dict(data["report"]), data.get("bad_input"))
        except (JudgeLost, KeyError, TypeError, ValueError) as e:
            judge.kill()
            with self._lock:
                self._judges.discard(judge)
            self._mine.judge = None  # the next submission gets a new template
            why = (
                str(e)
                if isinstance(e, JudgeLost)
                else "its judge process answered something that is not a verdict"
            )
            return crashed(self.exercise, student.key, why)
        return result_of(student.key, verdict)

    def kill_all(self) -> None:
        with self._lock:
            for judge in self._judges:
                judge.kill()

    def close_all(self) -> None:
        with self._lock:
            judges, self._judges = list(self._judges), set()
        for judge in judges:
            judge.close()


# -- Ray --------------------------------------------------------------------------------------------
def check_nodes(ray: Any, mode: str) -> None:
    """Every alive node sandboxes, or the run refuses (unless --unsafe-local)."""
    if mode == "unsafe-local":
        return
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    @ray.remote(num_cpus=0)
    def probe() -> tuple[bool, str]:
        from faultlines.sandbox import machine

        plan = machine.probe()
        return plan.jailed, plan.describe()

    nodes = [n for n in ray.nodes() if n.get("Alive")]
    refs = [
        probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)).remote()
        for n in nodes
    ]
    for node, (jailed, how) in zip(nodes, ray.get(refs)):
        if not jailed:
            raise UsageError(
                f"--ray: node {node.get('NodeManagerAddress', node['NodeID'])} has {how}: every node must "
                "sandbox (install bubblewrap there), or pass --unsafe-local"
            )


def ray_grade(
    ray: Any,
    iso: Isolation,
    exercise: str,
    hidden: str | None,
    students: list[Student],
    tick: Callable[[], None],
) -> list[StudentResult]:
    mode, wall = iso.mode, iso.limits.wall_seconds

    # One submission per Ray worker process: the next gets a fresh one (max_calls=1).
    @ray.remote(num_cpus=1, max_calls=1)
    def grade_remote(source: str, name: str) -> dict:
        import tempfile
        from pathlib import Path as P

        from faultlines.cli import local as unsafe
        from faultlines.sandbox import machine, run
        from faultlines.sandbox.jail import Limits

        with tempfile.TemporaryDirectory() as tmp:
            path = P(tmp) / name
            path.write_text(source)
            if mode == "unsafe-local":
                verdict = unsafe.run(exercise, path, hidden, wall)
            else:
                plan = machine.probe()
                if not plan.jailed:  # a node that joined after the check
                    return {"refused": plan.describe()}
                limits = Limits(wall_seconds=wall)
                run.limit_judge(limits)
                verdict = run.grade_file(exercise, path, hidden, plan, limits)
        return {"report": verdict.report.to_dict(), "bad_input": verdict.bad_input}

    try:
        refs = [grade_remote.remote(classroom.source_of(s.path), s.path.name) for s in students if s.path]
        pending = list(refs)
        while pending:
            _ready, pending = ray.wait(pending, num_returns=1)
            tick()
        outcomes = ray.get(refs)
    finally:  # disconnect (and stop a "local" Ray) even when grading is interrupted
        ray.shutdown()
    results = []
    for student, data in zip([s for s in students if s.path is not None], outcomes):
        if "refused" in data:
            results.append(crashed(exercise, student.key, f"its Ray node has {data['refused']}"))
        else:
            verdict = Verdict(Report.from_dict(data["report"]), data.get("bad_input"))
            results.append(result_of(student.key, verdict))
    return results


def worker_env() -> dict[str, str]:
    """Ray workers import faultlines too: from the same place as this process does, with the same
    limits for their jails (FAULTLINES_CPU_SECONDS, FAULTLINES_MEMORY_MB, FAULTLINES_WALL_SECONDS)."""
    root = str(Path(__file__).resolve().parents[2])
    env = {k: v for k, v in os.environ.items() if k.startswith("FAULTLINES_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    return env
