"""Fixtures for the course-site tests: the built site/ served on 127.0.0.1 and Debian's Chromium.

`make test` builds the site (`make site`) and installs Chromium and playwright (`make
browser-deps`) first. Run on their own: `make site browser-deps && .venv/bin/python -m pytest
-q tests/browser`. Without a built site the tests skip, except under CI, where they fail.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from site_browser import SITE

from hooks.site_build import serve as site_server
from hooks.site_build.browser import CHROMIUM, CHROMIUM_ARGS


def _missing(what: str):
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI builds it with `make test`)")
    pytest.skip(f"{what}: run `make site browser-deps`")


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (SITE / "lite/static/pyodide/pyodide-lock.json").is_file():
        _missing("site/ with its JupyterLite build is not built")
    return SITE


@pytest.fixture(scope="session")
def base_url(site_dir: Path):
    """http://127.0.0.1:<free port>/ serving site/ for the whole session, as `make serve` does."""
    server, url = site_server.serve(site_dir)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def cdn_allowed(site_dir: Path) -> set[str]:
    """The only off-site URLs a page may request: the lock's matplotlib-family entries."""
    lock = json.loads((site_dir / "lite/static/pyodide/pyodide-lock.json").read_text())
    return {e["file_name"] for e in lock["packages"].values() if "://" in e["file_name"]}


@dataclass
class Traffic:
    """What a browser context did: every request URL and every console error or page error."""

    allowed: set[str]
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def off_site(self) -> list[str]:
        return [
            u
            for u in self.requests
            if not u.startswith(("http://127.0.0.1:", "data:", "blob:", "about:")) and u not in self.allowed
        ]

    def assert_clean(self) -> None:
        assert self.off_site() == [], "requests left 127.0.0.1"
        assert self.errors == [], "console errors"


@pytest.fixture
def new_context(browser, cdn_allowed):
    """Factory for fresh browser contexts (own storage), each recording its Traffic."""
    made = []

    def make(**options):
        context = browser.new_context(**options)
        traffic = Traffic(cdn_allowed)
        context.on("request", lambda request: traffic.requests.append(request.url))
        context.on("console", lambda msg: msg.type == "error" and traffic.errors.append(msg.text))
        context.on("weberror", lambda error: traffic.errors.append(str(error.error)))
        made.append(context)
        return context, traffic

    yield make
    for context in made:
        context.close()
