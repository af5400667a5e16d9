"""grade-all's side of its judge processes (judge_process.py): start one, hand it a submission,
read its verdict within a time limit, and start another when one is lost.

A judge is a template that loads the exercise once (a Python started and the checks loaded once
per template, not once per submission) and forks a fresh process for each submission it is
handed. What one submission does stays with its row: a template that dies, answers garbage or
runs past its time is killed, that submission is "crashed the grader's sandbox: ...", and the
next one gets a fresh template.
"""

from __future__ import annotations

import dataclasses
import json
import os
import select
import subprocess
import sys
import threading
from typing import Any

from faultlines.sandbox.channel import now

from .isolation import Isolation

STDERR_TAIL = 16 * 1024


class JudgeLost(Exception):
    """The judge process ended, answered nothing readable, or ran past its time."""


class Judge:
    def __init__(self, iso: Isolation, exercise: str, hidden: str | None) -> None:
        assert iso.plan is not None
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "faultlines.cli.judge_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._buffer = b""
        self.errors = b""
        self._drain = threading.Thread(target=self._read_errors, daemon=True)
        self._drain.start()
        setup = {
            "parent": os.getpid(),
            "exercise": exercise,
            "hidden": hidden,
            "plan": iso.plan.to_dict(),
            "limits": dataclasses.asdict(iso.limits),
        }
        self._write(setup)

    def _read_errors(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        while chunk := stream.read1(1 << 14):  # type: ignore[attr-defined]
            self.errors = (self.errors + chunk)[-STDERR_TAIL:]

    def _write(self, data: dict) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(data) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            raise JudgeLost(self._ended()) from None

    def grade(self, path: str, timeout: float) -> dict[str, Any]:
        self._write({"path": path})
        deadline = now() + timeout
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - now()
            if left <= 0:
                raise JudgeLost("its judge process ran past its time and was stopped")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise JudgeLost(self._ended())
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer = json.loads(line)
        except ValueError:
            raise JudgeLost("its judge process answered something that is not a verdict") from None
        if not isinstance(answer, dict) or "report" not in answer:
            raise JudgeLost("its judge process answered something that is not a verdict")
        return answer

    def _ended(self) -> str:
        try:
            status = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = None
        self._drain.join(timeout=2)
        last = self.errors.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return f"its judge process ended with status {status} ({last[0][:200]})"

    def kill(self) -> None:
        self.proc.kill()

    def close(self) -> None:
        """Let it finish (end of input), and kill it if it will not."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
