"""Every page of the built site, and every link on it, answers 200 (no broken links)."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request

import pytest

pytestmark = pytest.mark.browser

LINK = re.compile(r'(?:href|src)="([^"#]+)')
LITE_ENTRY_POINTS = [
    "lite/lab/index.html",
    "lite/notebooks/index.html",
    "lite/jupyter-lite.json",
    "lite/static/pyodide/pyodide-lock.json",
]


def _pages(site_dir):
    """The MkDocs pages: every HTML file outside the JupyterLite build."""
    return sorted(
        p.relative_to(site_dir).as_posix()
        for p in site_dir.rglob("*.html")
        if p.relative_to(site_dir).parts[0] != "lite"
    )


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_every_page_and_every_link_on_it_answers_200(site_dir, base_url):
    pages = _pages(site_dir)
    assert "lessons/01_mini_runtime/index.html" in pages and "playground/index.html" in pages
    urls = {base_url + page for page in pages if page != "404.html"}
    urls |= {base_url + entry for entry in LITE_ENTRY_POINTS}
    for page in pages:
        html = (site_dir / page).read_text()
        for link in LINK.findall(html):
            url = urllib.parse.urljoin(base_url + page, link)
            if url.startswith(base_url):
                urls.add(url.split("?")[0])
    bad = {url: status for url in sorted(urls) if (status := _status(url)) != 200}
    assert bad == {}


# Every page's console and requests are checked by test_site_a11y.py's walks, which load every
# page (and run axe there) with the same Traffic record: no second walk here.


# The strict build of the pages alone (no JupyterLite) is made and checked once, by
# tests/site_build/test_exercise_pages.py's quick build, which also reads its exercise pages.
