"""The pyodide-lock.json the kernel boots from: local entries real, CDN entries only matplotlib's."""

from __future__ import annotations

import json

import pytest
from site_browser import REPO

from hooks.site_build import kernel_lock

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lock_path(site_dir):
    return site_dir / "lite/static/pyodide/pyodide-lock.json"


def test_every_local_entry_exists_and_its_sha256_matches(lock_path):
    assert kernel_lock.check_lock(lock_path) == []


def test_only_the_matplotlib_family_comes_from_pyodides_cdn_with_official_hashes(lock_path):
    lock = json.loads(lock_path.read_text())["packages"]
    official = json.loads((REPO / "node_modules/pyodide/pyodide-lock.json").read_text())
    official_pkgs = {kernel_lock.canonical(k): v for k, v in official["packages"].items()}
    remote = {k: e for k, e in lock.items() if "://" in e["file_name"]}
    assert "matplotlib" in remote and "numpy" in remote
    assert set(remote) <= kernel_lock._cdn_closure(official)
    for key, entry in remote.items():
        assert entry["sha256"] == official_pkgs[key]["sha256"], key
        assert entry["file_name"].endswith("/" + official_pkgs[key]["file_name"]), key


def test_kernel_boot_packages_and_miniray_are_served_locally(site_dir, lock_path):
    lock = json.loads(lock_path.read_text())["packages"]
    config = json.loads((site_dir / "lite/jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    # Our loader (playground/kernel_boot.mjs), which wraps the local pyodide.mjs beside it.
    assert kernel["pyodideUrl"] == "./static/pyodide/kernel-boot.mjs"
    loader = (site_dir / "lite/static/pyodide/kernel-boot.mjs").read_text()
    assert 'from "./pyodide.mjs"' in loader and "__BOOT_ID__" not in loader
    for name in [*kernel["loadPyodideOptions"]["packages"], "ipywidgets", "miniray"]:
        assert name in lock and "://" not in lock[name]["file_name"], name
