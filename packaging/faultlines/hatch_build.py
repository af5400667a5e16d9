"""Map the repository's faultlines/ package, and the public files of each exercise folder
(exercises/<id>/, as faultlines/_exercises/<id>/), into the faultlines distribution.

Reference solutions and the wrong-solution catalogue stay out: the wheel ships to learners.
"""

from __future__ import annotations

import runpy
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

REPO = Path(__file__).resolve().parents[2]
# Written once, in the grader (a module with no imports, read by path: no miniray here).
PUBLIC_FILES = runpy.run_path(str(REPO / "faultlines/grader/public_files.py"))["PUBLIC_FILES"]


class FaultlinesFiles(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        repo = Path(self.root).resolve().parents[1]
        package = repo / "faultlines"
        include = build_data.setdefault("force_include", {})
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                include[str(path)] = str(Path("faultlines") / path.relative_to(package))
        for folder in sorted((repo / "exercises").iterdir()):
            if not (folder / "exercise.toml").is_file():
                continue
            for name in PUBLIC_FILES:
                if (folder / name).is_file():
                    include[str(folder / name)] = f"faultlines/_exercises/{folder.name}/{name}"
