"""`make serve` answers as a static host does: the site's own 404 page for a missing path, and
gzip for text and wasm to a browser that accepts it (archives go as they are)."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request

import pytest

pytestmark = pytest.mark.browser


def _get(url: str, **headers: str):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_a_missing_path_answers_404_with_the_sites_page(base_url, site_dir):
    for missing in ("no/such/page/", "lessons/99-nothing/", "assets/missing.css"):
        status, headers, body = _get(base_url + missing)
        assert status == 404, missing
        assert headers["Content-Type"].startswith("text/html")
        assert body == (site_dir / "404.html").read_bytes()


def test_text_and_wasm_go_gzip_compressed_and_archives_as_they_are(base_url, site_dir):
    for path in (
        "lessons/01_mini_runtime/",
        "lite/static/pyodide/pyodide.asm.wasm",
        "lite/jupyter-lite.json",
    ):
        status, headers, body = _get(base_url + path, **{"Accept-Encoding": "gzip"})
        local = site_dir / (path + "index.html" if path.endswith("/") else path)
        assert status == 200 and headers.get("Content-Encoding") == "gzip", path
        assert gzip.decompress(body) == local.read_bytes()
        assert len(body) < local.stat().st_size
    status, headers, body = _get(
        base_url + "lite/static/pyodide/python_stdlib.zip", **{"Accept-Encoding": "gzip"}
    )
    assert status == 200 and "Content-Encoding" not in headers
    assert body == (site_dir / "lite/static/pyodide/python_stdlib.zip").read_bytes()
    # No Accept-Encoding: the file as it is.
    status, headers, body = _get(base_url + "lite/jupyter-lite.json")
    assert "Content-Encoding" not in headers and body == (site_dir / "lite/jupyter-lite.json").read_bytes()
