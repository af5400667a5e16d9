"""The kernel's packs (hooks/site_build/kernel_pack.py, split by boot_split.py): the boot pack
every start unpacks, the deferred pack fetched when an import first needs it, and the trimmed
standard library. Together they hold exactly the files loadPackage and Pyodide's own stdlib zip
would install, each once, with the same bytes.

The browser tests boot kernels from them; these checks say precisely what is in them, so a pack
that drifted from the wheels fails here with the file's name rather than as a broken import.
"""

from __future__ import annotations

import gzip
import json
import re
import struct
import zipfile

import pytest
from site_browser import REPO

from hooks.site_build import boot_split, kernel_pack

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pyodide_dir(site_dir):
    return site_dir / "lite/static/pyodide"


def _read_pack(path):
    raw = gzip.decompress(path.read_bytes())
    (length,) = struct.unpack("<I", raw[:4])
    header = json.loads(raw[4 : 4 + length])
    data = raw[4 + length :]
    paths = [p for p, _, _ in header["files"]]
    assert len(paths) == len(set(paths)), "a file is in the pack twice"
    return header, {p: data[o : o + n] for p, o, n in header["files"]}


def _packs(pyodide_dir):
    (boot,) = pyodide_dir.glob("boot-packages.*.pack.gz")
    (deferred,) = pyodide_dir.glob("deferred-files.*.pack.gz")
    return boot, deferred


def _loader_deferred(pyodide_dir) -> dict:
    loader = (pyodide_dir / "kernel-boot.mjs").read_text()
    return json.loads(re.search(r"^const DEFERRED = (\{.*\});$", loader, re.M).group(1))


def test_the_packs_hold_every_boot_wheel_file_plus_loadpackages_markers_once(site_dir, pyodide_dir):
    boot_pack, deferred_pack = _packs(pyodide_dir)
    loader = (pyodide_dir / "kernel-boot.mjs").read_text()
    assert f'new URL("{boot_pack.name}", import.meta.url)' in loader
    assert _loader_deferred(pyodide_dir)["pack"] == deferred_pack.name

    header, boot = _read_pack(boot_pack)
    _, deferred = _read_pack(deferred_pack)
    later = {
        p.removeprefix("site-packages/"): d for p, d in deferred.items() if p.startswith("site-packages/")
    }
    assert not boot.keys() & later.keys()
    files = {**boot, **later}

    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    config = json.loads((site_dir / "lite/jupyter-lite.json").read_text())["jupyter-config-data"]
    roots = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"][
        "loadPyodideOptions"
    ]["packages"]
    names = kernel_pack.boot_closure(lock, roots)
    assert set(header["loaded"]) == set(names) and "miniray" in names and "ipython" in names
    assert set(header["loaded"].values()) == {"default channel"}

    expected = {}
    for name in names:
        with zipfile.ZipFile(pyodide_dir / lock["packages"][name]["file_name"]) as wheel:
            members = [i for i in wheel.infolist() if not i.is_dir()]
            expected.update({i.filename: wheel.read(i) for i in members})
            dist_info = next(i.filename.split("/")[0] for i in members if ".dist-info/" in i.filename)
            expected[f"{dist_info}/INSTALLER"] = b"pyodide.loadPackage"
            expected[f"{dist_info}/PYODIDE_SOURCE"] = b"pyodide"
    missing = sorted(set(expected) - set(files))
    extra = sorted(set(files) - set(expected))
    differ = sorted(p for p in expected.keys() & files.keys() if expected[p] != files[p])
    assert (missing, extra, differ) == ([], [], []), (missing[:5], extra[:5], differ[:5])


def test_the_trimmed_stdlib_and_the_deferred_pack_are_pyodides_whole_stdlib(pyodide_dir):
    """Pyodide's python_stdlib.zip, split: what the start imports stays in the zip, the rest is in
    the deferred pack under its own path (unpacked into /lib/python3.14)."""
    _, deferred_pack = _packs(pyodide_dir)
    _, deferred = _read_pack(deferred_pack)
    later = {p: d for p, d in deferred.items() if not p.startswith("site-packages/")}
    with zipfile.ZipFile(pyodide_dir / "python_stdlib.zip") as zf:
        kept = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    with zipfile.ZipFile(REPO / "node_modules/pyodide/python_stdlib.zip") as zf:
        whole = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    assert not kept.keys() & later.keys()
    assert {**kept, **later} == whole
    # What the interpreter needs before any finder of ours is there stays in the zip.
    for module in ("encodings/__init__.py", "encodings/utf_8.py", "site.py", "os.py", "_pyodide/__init__.py"):
        assert module in kept, module
    assert "xmlrpc/__init__.py" in later and "wsgiref/__init__.py" in later


def test_the_boot_pack_keeps_the_course_whole_and_defers_what_no_start_imports(pyodide_dir):
    boot_pack, deferred_pack = _packs(pyodide_dir)
    _, boot = _read_pack(boot_pack)
    _, deferred = _read_pack(deferred_pack)
    for package in boot_split.COURSE_PACKAGES:
        assert not [p for p in deferred if p.startswith(f"site-packages/{package}/")], package
        assert any(p.startswith(f"{package}/") for p in boot), package
    assert not [p for p in boot if p.endswith(".pyi")], "type stubs are for completion, later"
    assert "site-packages/jedi/__init__.pyc" in deferred, "IPython 9.18 imports jedi only to complete"
    assert "IPython/core/interactiveshell.pyc" in boot
    # Every module the deferred pack holds is one the kernel's finder knows to look for.
    modules = set(_loader_deferred(pyodide_dir)["modules"])
    held = {boot_split.module_name(p.removeprefix("site-packages/")) for p in deferred} - {None}
    assert held == modules


def test_a_boot_package_the_site_does_not_serve_fails_the_build(pyodide_dir):
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    with pytest.raises(SystemExit, match="boot package matplotlib is not served by the site"):
        kernel_pack.boot_closure(lock, ["miniray", "matplotlib"])
    with pytest.raises(SystemExit, match="no-such-package is a boot package but not in the lock"):
        kernel_pack.boot_closure(lock, ["no_such_package"])
