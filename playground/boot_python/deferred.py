# Run in the lab's kernel by playground/kernel_boot.mjs (DEFERRED_PY; the comment there says why).
import importlib
import json
import os
import sys
import zlib
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder

LIB = f"/lib/python{sys.version_info.major}.{sys.version_info.minor}"


class DeferredFiles(MetaPathFinder):
    """Finds the deferred pack's modules without fetching it: a lookup (IPython asks whether jedi
    is there when it starts) costs nothing, and only loading one fetches and unpacks the pack."""

    def __init__(self, url, modules):
        self.url = url
        self.modules = frozenset(modules)
        self.packages = frozenset(name.rpartition(".")[0] for name in modules)
        self.unpacked = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.modules:
            return None
        if self.unpacked:
            return PathFinder.find_spec(fullname, self.where(fullname, path))
        spec = ModuleSpec(fullname, DeferredLoader(self), is_package=fullname in self.packages)
        spec.loader_state = path
        return spec

    def where(self, fullname, path):
        # A left-out module of a stdlib package in the zip (encodings.cp437) is not on its
        # package's __path__, which is inside the zip: look in its folder under LIB too.
        package = fullname.rpartition(".")[0]
        return [*(path or []), f"{LIB}/{package.replace('.', '/')}"] if package else None

    def unpack(self, needed_by):
        if self.unpacked:
            return
        raw = zlib.decompress(fetch(self.url, needed_by), 31)  # gzip
        length = int.from_bytes(raw[:4], "little")
        files = json.loads(raw[4 : 4 + length])["files"]
        body = memoryview(raw)[4 + length :]
        made = set()
        for name, offset, size in files:
            target = f"{LIB}/{name}"
            folder = target.rpartition("/")[0]
            if folder not in made:
                os.makedirs(folder, exist_ok=True)
                made.add(folder)
            with open(target, "wb") as out:
                out.write(body[offset : offset + size])
        self.unpacked = True
        importlib.invalidate_caches()


class DeferredLoader(Loader):
    """Unpacks the deferred pack, then hands the module to the loader its file really has."""

    def __init__(self, finder):
        self.finder = finder

    def create_module(self, spec):
        __tracebackhide__ = True  # IPython: show the learner's line, not this loader
        self.finder.unpack(spec.name)
        real = PathFinder.find_spec(spec.name, self.finder.where(spec.name, spec.loader_state))
        if real is None:
            raise ModuleNotFoundError(f"No module named {spec.name!r}", name=spec.name)
        spec.loader, spec.origin, spec.loader_state = real.loader, real.origin, real.loader_state
        spec.submodule_search_locations = real.submodule_search_locations
        spec.has_location, spec.cached = real.has_location, real.cached
        return real.loader.create_module(spec)

    def exec_module(self, module):
        module.__spec__.loader.exec_module(module)  # the real loader, set by create_module


def fetch(url, needed_by):
    from js import XMLHttpRequest, console  # here: no JavaScript object may outlive a snapshot

    console.info(f"Fault Lines: importing {needed_by} fetches the modules the start left out.")
    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send()
    if request.status != 200:
        raise ImportError(
            f"{needed_by} is in {url.rpartition('/')[2]}, which did not download "
            f"(HTTP {request.status}): check your connection and run the cell again"
        )
    return request.response.to_bytes()


def install(url, modules):
    if LIB not in sys.path:
        zips = [i for i, entry in enumerate(sys.path) if entry.endswith(".zip")]
        sys.path.insert(zips[0] + 1 if zips else len(sys.path), LIB)
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "DeferredFiles"]
    finder = DeferredFiles(url, modules.to_py())
    names = [type(f).__name__ for f in sys.meta_path]
    sys.meta_path.insert(names.index("NeedsTheNetwork") if "NeedsTheNetwork" in names else len(names), finder)


install  # noqa: B018 (the value runPython returns: the loader calls it)
