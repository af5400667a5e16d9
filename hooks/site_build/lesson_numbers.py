"""Numbers on the lesson pages, computed at build time by the lessons' own code.

A page never types a number that describes a simulated run or a model's result. It writes a
placeholder instead, inline anywhere in its Markdown:

    Young's optimum is {{ num 06_checkpoint_interval.low_young_min }} minutes.

and the build fills it from lessons/numbers/06_checkpoint_interval.py, whose `numbers()` returns a dict
of already-formatted values ({"young_minutes": "55", ...}). The module decides the formatting,
so a page and a test that reads the same dict can never disagree. An unknown module or key, or
a module that raises, stops the build with its name.

Each module runs once per build in a child CPython with the repository on sys.path (so it
imports miniray and faultlines exactly as the lessons do), and prints its dict as JSON.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NUMBERS_DIR = "lessons/numbers"
PLACEHOLDER = re.compile(r"\{\{ num (\w+)\.([A-Za-z_]\w*) \}\}")

_RUNNER = r"""
import json, runpy, sys
made = runpy.run_path(sys.argv[1], run_name="__numbers__")
if not callable(made.get("numbers")):
    raise TypeError("the module defines no numbers() function")
values = made["numbers"]()
if not isinstance(values, dict):
    raise TypeError(f"numbers() returned {type(values).__name__}, not a dict")
print(json.dumps({str(k): str(v) for k, v in values.items()}))
"""


class NumbersError(RuntimeError):
    """A placeholder could not be filled; the message names the page, module and key."""


def compute(module: str, repo: Path = REPO) -> dict[str, str]:
    """Run lessons/numbers/<module>.py and return its numbers() as strings."""
    script = repo / NUMBERS_DIR / f"{module}.py"
    if not script.is_file():
        raise NumbersError(f"no numbers module {NUMBERS_DIR}/{module}.py")
    env = dict(os.environ, PYTHONPATH=str(repo), MPLBACKEND="Agg")
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(script)],
        capture_output=True,
        text=True,
        env=env,
        cwd=repo,
        timeout=600,
    )
    if result.returncode:
        raise NumbersError(f"{NUMBERS_DIR}/{module}.py failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


class Numbers:
    """Every module's numbers for one build, each module run at most once."""

    def __init__(self, repo: Path = REPO):
        self.repo = repo
        self._cache: dict[str, dict[str, str]] = {}

    def module(self, name: str) -> dict[str, str]:
        if name not in self._cache:
            self._cache[name] = compute(name, self.repo)
        return self._cache[name]

    def fill(self, markdown: str, where: str) -> str:
        def value(match: re.Match[str]) -> str:
            module, key = match.groups()
            try:
                values = self.module(module)
            except NumbersError as error:
                raise NumbersError(f"{where}: {error}") from None
            if key not in values:
                raise NumbersError(
                    f"{where}: {NUMBERS_DIR}/{module}.py has no number '{key}' (it has: {', '.join(sorted(values))})"
                )
            return values[key]

        return PLACEHOLDER.sub(value, markdown)
