"""The troubleshooting page's reproductions: each script's source and what it printed when run.

The scripts live beside the page (docs/reference/repro/), so the site also serves them for
download; each runs in its own CPython, as a learner would run it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = ("crash_loop", "lost_object", "oom_cascade")


def run(name: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    script = REPO / "docs/reference/repro" / f"{name}.py"
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=REPO, timeout=300
    )
    if result.returncode:
        raise RuntimeError(f"{script} failed:\n{result.stderr}")
    return result.stdout.rstrip()


def numbers() -> dict[str, str]:
    out = {}
    for name in SCRIPTS:
        out[f"{name}_code"] = (REPO / "docs/reference/repro" / f"{name}.py").read_text().rstrip()
        out[f"{name}_out"] = run(name)
    return out


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"== {key}\n{value}")
