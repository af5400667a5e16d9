"""The sandbox's inside: grade one submission and send the report on the report fd.

Order matters: read the request and close stdin, import everything the grading needs, take a
snapshot of miniray's and the grader's modules, block forking, and only then load the learner's
code. After grading, a changed module or class means the submission patched the grader.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _snapshot() -> dict[tuple[str, str], Any]:
    seen: dict[tuple[str, str], Any] = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in ("miniray", "faultlines") and not name.startswith(
            "faultlines_exercise_"
        ):
            continue
        for attr, value in list(vars(module).items()):
            seen[(name, attr)] = value
            if isinstance(value, type) and value.__module__ == name:
                for cattr, cvalue in list(vars(value).items()):
                    seen[(f"{name}.{attr}", cattr)] = cvalue
    return seen


def _changed(before: dict[tuple[str, str], Any]) -> list[str]:
    after = _snapshot()
    return sorted(
        f"{mod}.{attr}" for (mod, attr), value in before.items() if after.get((mod, attr), None) is not value
    )


def _no_fork(*args: Any, **kwargs: Any) -> Any:
    raise PermissionError("starting processes is not allowed in a graded submission")


def _block_processes() -> None:
    import posix
    import subprocess

    for module in (os, posix):
        for name in (
            "fork",
            "forkpty",
            "system",
            "execv",
            "execve",
            "execvp",
            "spawnv",
            "posix_spawn",
            "popen",
        ):
            if hasattr(module, name):
                setattr(module, name, _no_fork)
    subprocess.Popen.__init__ = _no_fork  # type: ignore[method-assign]


def main() -> None:
    request = json.loads(sys.stdin.read())
    sys.stdin.close()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    report_fd = int(request["report_fd"])
    nonce = request.pop("nonce")

    from faultlines.cli.local import BAD_INPUT
    from faultlines.grader import exercise, grade, submission
    from faultlines.grader.render_text import render  # noqa: F401  (imported before the snapshot)
    from faultlines.grader.submission import BadSubmission

    def send(data: dict) -> None:
        os.write(report_fd, (nonce + "\n" + json.dumps(data) + "\n\x1e").encode())
        os.close(report_fd)

    ex = exercise.load(request["exercise"], hidden=request.get("hidden"))
    before = _snapshot()
    _block_processes()
    try:
        sub = submission.from_file(request["submission"], ex.entry, ex.line_budget)
    except BadSubmission as e:
        send({"kind": BAD_INPUT, "message": str(e)})
        return
    except MemoryError:
        sys.stderr.write("MemoryError\n")  # the parent reports the memory limit
        os._exit(3)
    path = request["submission"]
    report = grade.grade(ex, sub, replay_call=lambda token: f"python -m faultlines replay {token} {path}")
    changed = _changed(before)
    if changed:
        report.error = f"the submission changed the grader or miniray ({', '.join(changed[:3])}): not graded"
        for tier in report.tiers:
            tier.passed, tier.earned = False, 0.0
    send({"kind": "report", "report": report.to_dict()})


if __name__ == "__main__":
    main()
