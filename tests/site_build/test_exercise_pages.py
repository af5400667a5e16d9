"""The site build's exercise pages and notebooks come from the folders alone, and never carry a
reference solution or a known wrong one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SITE_PY = REPO / ".venv-site/bin/python"


def _in_site_venv(code: str, tmp_path: Path) -> str:
    if not SITE_PY.exists():
        pytest.fail("the site venv is missing: run `make site-deps`")
    result = subprocess.run(
        [str(SITE_PY), "-c", code, str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_every_folder_gets_a_notebook_with_its_starter_and_a_check_cell(tmp_path):
    out = _in_site_venv(
        "import sys, json; from pathlib import Path; from hooks.site_build import exercise_pages as e\n"
        "shipped = e.write_notebooks(Path('.').resolve(), Path(sys.argv[1]))\n"
        "print(json.dumps({k: v.path for k, v in shipped.items()}))",
        tmp_path,
    )
    shipped = json.loads(out)
    folders = sorted(p.parent.name for p in (REPO / "exercises").glob("*/exercise.toml"))
    assert sorted(shipped) == folders
    for ex_id, rel in shipped.items():
        notebook = json.loads((tmp_path / rel).read_text())
        sources = [
            "".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in notebook["cells"]
        ]
        starter = (REPO / "exercises" / ex_id / "starter.py").read_text().strip()
        reference = (REPO / "exercises" / ex_id / "reference.py").read_text().strip()
        assert starter in sources and reference not in sources
        assert sources[-1] == "fl.check()" and f'fl.start("{ex_id}")' in sources[1]
        tagged = [s for s, c in zip(sources, notebook["cells"]) if "answer" in c["metadata"].get("tags", [])]
        assert tagged == [starter], "the answer cell, and it alone, is tagged for the lab"
        assert notebook["metadata"]["fault_lines"]["exercise"] == ex_id


def test_the_quick_site_build_has_a_page_per_exercise_and_no_answers(quick_site):
    site = quick_site  # built under --strict: a broken link fails it
    index = (site / "exercises/index.html").read_text()
    for folder in sorted((REPO / "exercises").glob("*/exercise.toml")):
        ex_id = folder.parent.name
        page = (site / "exercises" / ex_id / "index.html").read_text()
        assert f'data-notebook="exercises/{ex_id}.ipynb"' in page and "exercises.js" in page
        assert f'data-exercise="{ex_id}"' in index
    shipped = "\n".join(p.read_text(errors="ignore") for p in site.rglob("*") if p.is_file())
    for folder in sorted((REPO / "exercises").glob("*/exercise.toml")):
        reference = (folder.parent / "reference.py").read_text()
        assert reference.strip() not in shipped
        for wrong in (folder.parent / "wrong").glob("*.py"):
            assert wrong.read_text().strip() not in shipped, wrong
    assert (site / "exercises/instructors/index.html").exists()
    assert (site / "exercises/replay/index.html").exists()
