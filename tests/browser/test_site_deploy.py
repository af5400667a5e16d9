"""Deploying the course: a build published under a sub-path (a project page such as
/fault-lines/) runs its lessons and answers a missing page with its own, styled 404 page; and
the notebooks a learner downloads run in a local CPython with the project installed, as the
README tells (cells in order, one namespace, as a Jupyter kernel runs them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request

import pytest
from site_browser import REPO, run_all_cells, start_lab, wait_for_output

from hooks.site_build import serve as site_server

pytestmark = pytest.mark.browser

BASE = "/fault-lines/"


@pytest.fixture(scope="module")
def subpath_url(site_dir, tmp_path_factory):
    """The site built for http://127.0.0.1:<port>/fault-lines/ and served there. The pages are
    rebuilt with that SITE_URL (the quick pages-only build); the lab is the one `make site` built."""
    mkdocs = REPO / ".venv-site/bin/mkdocs"
    if not mkdocs.exists():
        pytest.skip("site tools not installed: run `make site`")
    out = tmp_path_factory.mktemp("subpath") / "site"
    out.mkdir()
    server, url = site_server.serve(out, handler=site_server.handler_for(BASE))
    env = dict(os.environ, FAULT_LINES_SKIP_LITE="1", NO_MKDOCS_2_WARNING="1", SITE_URL=url)
    result = subprocess.run(
        [str(mkdocs), "build", "--strict", "-q", "-d", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (out / "lite").symlink_to(site_dir / "lite", target_is_directory=True)
    yield url
    server.shutdown()
    server.server_close()


def test_a_lesson_runs_under_a_sub_path(new_context, subpath_url):
    assert subpath_url.endswith(BASE)
    context, traffic = new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(subpath_url + "lessons/01_mini_runtime/")
    frame_locator, frame = start_lab(page)
    assert frame.url.startswith(subpath_url + "lite/notebooks/")
    run_all_cells(frame)
    assert wait_for_output(frame_locator, "[0, 2, 4, 6]").strip() == "[0, 2, 4, 6]"
    traffic.assert_clean()


def test_a_missing_page_under_a_sub_path_gets_the_styled_404_page(new_context, subpath_url):
    context, traffic = new_context()
    page = context.new_page()
    failed = []
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    response = page.goto(subpath_url + "lessons/no-such-lesson/")
    assert response.status == 404
    page.wait_for_load_state("networkidle")
    assert "404" in page.locator("article h1").inner_text()
    # Its stylesheets and scripts come from under the sub-path: the page is styled.
    assert failed == [subpath_url + "lessons/no-such-lesson/"]
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in (
        "sticky",
        "fixed",
    )
    # Its links lead into the published site, not to the host's root.
    assert page.locator(".md-header a.md-logo").get_attribute("href").startswith(BASE)
    # The one console error is Chromium reporting the page's own 404 status.
    assert traffic.off_site() == []
    assert [e for e in traffic.errors if "status of 404" not in e] == []


# Runs the code cells of the notebooks given on the command line, each in a fresh namespace, in
# a directory of its own; a cell tagged `raises-exception` may raise, `skip-execution` is skipped.
LOCAL_RUNNER = r"""
import json, sys, traceback
for path in sys.argv[1:]:
    notebook = json.load(open(path, encoding="utf-8"))
    namespace = {"__name__": "__main__"}
    for index, cell in enumerate(c for c in notebook["cells"] if c["cell_type"] == "code"):
        tags = cell.get("metadata", {}).get("tags", [])
        if "skip-execution" in tags:
            continue
        source = "".join(cell["source"])
        try:
            exec(compile(source, f"{path} cell {index + 1}", "exec"), namespace)
        except BaseException:
            if "raises-exception" in tags:
                continue
            traceback.print_exc()
            sys.exit(f"{path}: code cell {index + 1} failed")
    print("ran", path)
"""


def _local_python() -> str:
    """A CPython with the project installed, and ipywidgets (the README's local Jupyter)."""
    for candidate in (REPO / ".venv-site/bin/python", sys.executable):
        probe = subprocess.run([str(candidate), "-c", "import ipywidgets"], capture_output=True)
        if probe.returncode == 0:
            return str(candidate)
    pytest.skip("no CPython with ipywidgets here: run `make site`")


def test_downloaded_notebooks_run_in_a_local_python(base_url, site_dir, tmp_path):
    shipped = sorted(
        p.relative_to(site_dir / "lite/files").as_posix() for p in (site_dir / "lite/files").rglob("*.ipynb")
    )
    assert "lessons/01_mini_runtime.ipynb" in shipped
    downloads = []
    for path in shipped:
        if not path.startswith("lessons/"):
            continue  # exercises are for the learner to finish: they may not run as shipped
        with urllib.request.urlopen(base_url + "lite/files/" + path) as response:
            notebook = json.loads(response.read())
        assert notebook["nbformat"] == 4
        target = tmp_path / path.rsplit("/", 1)[-1]
        target.write_text(json.dumps(notebook), encoding="utf-8")
        downloads.append(str(target))
    # The project installed: miniray and faultlines importable from the checkout, nothing else.
    env = dict(os.environ, PYTHONPATH=str(REPO), MPLBACKEND="Agg")
    result = subprocess.run(
        [_local_python(), "-c", LOCAL_RUNNER, *downloads],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.count("ran ") == len(downloads)
    shutil.rmtree(tmp_path, ignore_errors=True)
