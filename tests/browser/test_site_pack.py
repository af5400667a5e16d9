"""The kernel's boot pack (hooks/site_build/kernel_pack.py): the same files loadPackage would install.

The browser tests boot kernels from it; these checks say precisely what is in it, so a pack
that drifted from the wheels fails here with the file's name rather than as a broken import.
"""

from __future__ import annotations

import gzip
import json
import struct
import zipfile

import pytest

from hooks.site_build import kernel_pack

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pyodide_dir(site_dir):
    return site_dir / "lite/static/pyodide"


def _read_pack(path):
    raw = gzip.decompress(path.read_bytes())
    (length,) = struct.unpack("<I", raw[:4])
    header = json.loads(raw[4 : 4 + length])
    data = raw[4 + length :]
    return header, {p: data[o : o + n] for p, o, n in header["files"]}


def test_the_pack_holds_every_boot_wheel_file_plus_loadpackages_markers(site_dir, pyodide_dir):
    (pack,) = pyodide_dir.glob("boot-packages.*.pack.gz")
    loader = (pyodide_dir / "kernel-boot.mjs").read_text()
    assert f'new URL("{pack.name}", import.meta.url)' in loader

    header, files = _read_pack(pack)
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    config = json.loads((site_dir / "lite/jupyter-lite.json").read_text())["jupyter-config-data"]
    roots = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"][
        "loadPyodideOptions"
    ]["packages"]
    boot = kernel_pack.boot_closure(lock, roots)
    assert set(header["loaded"]) == set(boot) and "miniray" in boot and "ipython" in boot
    assert set(header["loaded"].values()) == {"default channel"}

    expected = {}
    for name in boot:
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


def test_a_boot_package_the_site_does_not_serve_fails_the_build(pyodide_dir):
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    with pytest.raises(SystemExit, match="boot package matplotlib is not served by the site"):
        kernel_pack.boot_closure(lock, ["miniray", "matplotlib"])
    with pytest.raises(SystemExit, match="no-such-package is a boot package but not in the lock"):
        kernel_pack.boot_closure(lock, ["no_such_package"])
