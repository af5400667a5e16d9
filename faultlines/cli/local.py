"""`--unsafe-local`: today's grading, for a learner checking their own work. The child process
runs the grader and the submission in one interpreter; the parent alone reads the verdict.

The child (faultlines.cli.child) gets what it needs on stdin (exercise, the submission's path,
the hidden tiers' text, a nonce), never the hidden folder's path, and sends its report on a
pipe of its own, never stdout, so printing a fake result does nothing. The parent accepts
exactly one report carrying the nonce from a child that exited with status 0 and left no
process behind; anything else is a failure with the reason. CPU-time and memory rlimits are a
safety net for what the counted budgets cannot stop (one huge allocation): hitting one is a
"resource limit" failure.

This is a guard against accidents, not a security boundary: code in the child shares the
grader's process and can do anything its user can (issue 20 lists how a submission forges a full
score here). Students' code is graded with faultlines.sandbox instead; this path stays for a
learner grading their own work, and for machines without bubblewrap when they ask for it.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from faultlines.grader.report import Report
from faultlines.sandbox.run import Verdict, failed

CPU_SECONDS = int(os.environ.get("FAULTLINES_CPU_SECONDS", "120"))
MEMORY_BYTES = int(os.environ.get("FAULTLINES_MEMORY_MB", "2048")) * 1024**2
WALL_SECONDS = 900  # last resort only: the counted budgets and the CPU limit come first
BAD_INPUT = "bad-input"


def _limits() -> None:  # runs in the child between fork and exec
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _leftovers(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    os.killpg(pgid, signal.SIGKILL)
    return True


def _drain(fd: int, chunks: list[bytes]) -> None:
    """Read the report pipe to its end (every write end closed)."""
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)


def run(
    exercise: str, submission: Path, hidden: str | None = None, wall_seconds: float = WALL_SECONDS
) -> Verdict:
    nonce = secrets.token_hex(16)
    read_fd, write_fd = os.pipe()
    os.set_inheritable(write_fd, True)
    request = {
        "exercise": exercise,
        "submission": str(submission.resolve()),
        "hidden": hidden,
        "nonce": nonce,
        "report_fd": write_fd,
    }
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "PYTHONPATH", "HOME")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="faultlines-grade-") as cwd:
        proc = subprocess.Popen(
            [sys.executable, "-m", "faultlines.cli.child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            pass_fds=(write_fd,),
            preexec_fn=_limits,
            start_new_session=True,
        )
        os.close(write_fd)
        # Read the report while the child runs: a report larger than the pipe's buffer (a long
        # failure message, a big timeline) would otherwise block the child's write until the
        # wall limit.
        chunks: list[bytes] = []
        reader = threading.Thread(target=_drain, args=(read_fd, chunks), daemon=True)
        reader.start()
        try:
            out, err = proc.communicate(json.dumps(request).encode(), timeout=wall_seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        leftovers = _leftovers(proc.pid)  # kills them, so no writer outlives the child
        reader.join(timeout=10)
        if not reader.is_alive():  # else a writer escaped the group; the daemon thread keeps the fd
            os.close(read_fd)
    output = out.decode(errors="replace")
    errors = err.decode(errors="replace")
    return _decide(exercise, proc.returncode, b"".join(chunks), nonce, leftovers, output, errors)


def _decide(
    exercise: str, status: int, raw: bytes, nonce: str, leftovers: bool, output: str, errors: str
) -> Verdict:
    messages = [m for m in raw.decode(errors="replace").split("\n\x1e") if m.strip()]
    if leftovers:
        return Verdict(
            failed(exercise, "the submission left processes behind (it forked): not graded"), None, output
        )
    if status in (-signal.SIGXCPU, -signal.SIGKILL) or "MemoryError" in errors + raw.decode(errors="replace"):
        what = "memory" if "MemoryError" in errors + raw.decode(errors="replace") else "CPU time"
        return Verdict(
            failed(
                exercise,
                f"resource limit: the grading process ran out of {what} (a safety net past the step budget)",
            ),
            None,
            output,
        )
    if status != 0:
        last = errors.strip().splitlines()[-1:] or [""]
        reason = f"the grading process ended with status {status} before reporting ({last[0][:200]})"
        return Verdict(failed(exercise, reason), None, output)
    if len(messages) != 1:
        reason = (
            "the grading process ended before it reported (did the submission exit early?)"
            if not messages
            else "more than one report arrived (did the submission fork or write its own?): not graded"
        )
        return Verdict(failed(exercise, reason), None, output)
    head, _, body = messages[0].partition("\n")
    if head.strip() != nonce:
        return Verdict(
            failed(exercise, "a report arrived without the grader's nonce: not graded"), None, output
        )
    data = json.loads(body)
    if data.get("kind") == BAD_INPUT:
        return Verdict(failed(exercise, data["message"]), data["message"], output)
    return Verdict(Report.from_dict(data["report"]), None, output)
