"""Fixtures every test folder may share."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def quick_site(tmp_path_factory) -> Path:
    """The site's pages built once more, alone (no JupyterLite), under --strict: the folder.
    Built once per session for every test that reads such a build (the exercise pages, a second
    build's figures), since each build takes half a minute."""
    mkdocs = REPO / ".venv-site/bin/mkdocs"
    if not mkdocs.exists():
        pytest.fail("the site venv is missing: run `make site-deps`")
    site = tmp_path_factory.mktemp("quick") / "site"
    env = {**os.environ, "FAULT_LINES_SKIP_LITE": "1", "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "-d", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return site


def pytest_collection_modifyitems(config, items):
    """Tests whose module says RUN_LAST = True run after every other test: the Pyodide unit
    parity compares with this session's own CPython run of tests/unit, so it goes after it."""
    items.sort(key=lambda item: bool(getattr(getattr(item, "module", None), "RUN_LAST", False)))


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return  # nothing will run: start nothing
    import session_background  # tests/ is on sys.path: this conftest's own folder

    session_background.start_for(session.items)


def pytest_sessionfinish(session, exitstatus):
    import session_background

    session_background.shutdown()


def pytest_deselected(items):
    import session_background

    session_background.note_deselected(items)
