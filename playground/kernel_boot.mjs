// The Pyodide loader the lab's kernel imports (its `pyodideUrl`): Pyodide's own loadPyodide,
// plus a warm start from a memory snapshot this browser made the first time the kernel booted.
//
// Why: a cold kernel spends ~7 s on 2 cores starting Python, unpacking the boot wheels and
// importing IPython & co. Restoring a snapshot of that state takes well under a second. The
// snapshot is made here, in the learner's own browser (so it carries no trace of a build
// machine and costs no extra download), and kept in Cache Storage under BOOT_ID, which the
// site build derives from every file the boot depends on: a new build never restores an old
// snapshot. Anything unexpected (no Cache Storage, a snapshot that fails to load) falls back
// to the ordinary boot, so the worst case is the cold start.
//
// Both starts take the boot packages' files from one pack the site build made
// (hooks/site_build/kernel_pack.py) instead of Pyodide's wheel-by-wheel loadPackage.
import { loadPyodide as loadPlain } from "./pyodide.mjs";
import createPyodideModule from "./pyodide.asm.mjs";

const BOOT_ID = "__BOOT_ID__";
const BOOT_PACK = new URL("__BOOT_PACK__", import.meta.url).href;
// The files a start fetches, by name in this folder: [bytes as unpacked, bytes as sent]
// (hooks/site_build/kernel_boot.py; "as sent" is gzip's size where the server compresses). A
// fetch's body comes unpacked, so its progress is counted against the first and told in the second.
const BOOT_FILES = __BOOT_FILES__;
// What the first start does not import (hooks/site_build/boot_split.py): {"pack": the deferred
// pack's name in this folder, "modules": every module it holds, stdlib ones included}.
const DEFERRED = __DEFERRED__;
const DEFERRED_PACK = new URL(DEFERRED.pack, import.meta.url).href;
const CACHE_NAME = "fault-lines-kernel";
// Run before the snapshot, in a scope of its own (the learner's namespace gains no names).
// It imports what the kernel imports while it boots, plus miniray for the lessons' first cell and
// the grader behind the exercises' check() (faultlines.notebook imports it all), and runs the
// shell once, so that a warm start has nothing left to import. A restored kernel has none of this run's
// file descriptors: importlib.metadata's cache keeps /lib/python314.zip open (its zip Path
// would later fail to close with "Bad file descriptor"), so it is cleared, and any other file
// still open cancels the snapshot.
const PREPARE_SNAPSHOT_PY = `
import micropip, piplite.piplite, pyodide_kernel, miniray, faultlines.notebook
import gc, importlib.metadata, io

# The shell's first run imports what IPython leaves to it (its logger, its compiler's parts): a
# silent one here puts them in the snapshot, and a restored kernel's first cell imports nothing.
pyodide_kernel.ipython_shell.run_cell("pass", store_history=False, silent=True)

importlib.metadata.FastPath.__new__.cache_clear()
gc.collect()
still_open = [f.name for f in gc.get_objects()
              if isinstance(f, io.FileIO) and not f.closed and f.fileno() > 2]
if still_open:
    raise RuntimeError(f"files open at snapshot time: {still_open}")
`;
const SNAPSHOT_KEY = new URL(`kernel-snapshot/${BOOT_ID}/memory`, import.meta.url).href;

export async function loadPyodide(options) {
  const report = reporter("kernel");
  const watch = watchBootFetches(new URL(".", import.meta.url).href, report);
  try {
    const pyodide = await oneStartAtATime(() => Promise.race([boot(options, report), watch.failed]), report);
    report("ready", { deferred: DEFERRED_PACK }); // the page fetches it once the lab is in use
    return pyodide;
  } catch (error) {
    tellThePage(error);
    throw error;
  } finally {
    watch.stop();
  }
}

// What a start is doing, for the lesson page (docs/javascripts/lab_start.js shows it): posted on
// LAB_CHANNEL as {type: "kernel-progress", who: "kernel" | "warm-up", phase, loaded, total}, and
// given to `onProgress`. Phases: "waiting" (another start holds the lock), "download" (bytes as
// sent over the network, loaded of total), "python" (Python runs: unpacking and importing), "ready"
// (a kernel's says where the deferred pack is: the page fetches it into the cache once the
// learner uses the lab, so that the first import needing it, a first completion, is quick).
// Byte counts go out at most every DOWNLOAD_REPORT_MS.
const DOWNLOAD_REPORT_MS = 150;

function reporter(who, onProgress = () => {}) {
  let channel = null;
  try {
    channel = new BroadcastChannel(LAB_CHANNEL);
  } catch {
    // No BroadcastChannel: the page shows an undetailed start.
  }
  let last = 0;
  return (phase, detail = {}) => {
    const now = performance.now();
    if (phase === "download" && detail.loaded < detail.total && now - last < DOWNLOAD_REPORT_MS) return;
    last = now;
    const message = { type: "kernel-progress", who, phase, ...detail };
    if (channel) channel.postMessage(message);
    onProgress(message);
  };
}

// Bytes received so far of BOOT_FILES, as sent: each file's share of its unpacked size. Once
// the interpreter's wasm is in, Python starts (compiling it, then its start-up holds this
// worker's thread for seconds, so no byte is counted meanwhile): that is said at once.
const INTERPRETER = "pyodide.asm.wasm";

function downloadMeter(report) {
  const received = new Map();
  const total = Object.values(BOOT_FILES).reduce((sum, [, sent]) => sum + sent, 0);
  return (name, bytes) => {
    const [unpacked] = BOOT_FILES[name];
    const got = Math.min(unpacked, (received.get(name) || 0) + bytes);
    received.set(name, got);
    let loaded = 0;
    for (const [file, part] of received) loaded += (part / BOOT_FILES[file][0]) * BOOT_FILES[file][1];
    report("download", { loaded: Math.round(loaded), total });
    if (name === INTERPRETER && got === unpacked) report("python");
  };
}

// A boot file that fails to download (a flaky connection drops it) must not leave the kernel
// spinning: Pyodide only logs "wasm instantiation failed!" when pyodide.asm.wasm is cut off
// and then waits forever. So every fetch under the Pyodide folder during the boot is watched,
// and the first failure ends the boot. The boot pack is left out: without it the boot falls
// back to the wheels (see installPackages).
// Their bodies are also counted, for the page's progress bar (`report`).
function watchBootFetches(prefix, report) {
  const plain = globalThis.fetch;
  const count = downloadMeter(report);
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  failed.catch(() => {}); // handled by the race; this only keeps the console quiet
  const watched = (url) => url.startsWith(prefix) && url !== BOOT_PACK;
  globalThis.fetch = async function (input, init) {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url, self.location).href;
    const name = url.startsWith(prefix) ? url.slice(prefix.length).split("?")[0] : null;
    const counted = name !== null && Object.hasOwn(BOOT_FILES, name);
    let response;
    try {
      response = await plain.call(this, input, init);
    } catch (error) {
      if (watched(url)) fail(new BootFileError(url, String(error)));
      throw error;
    }
    if (!watched(url) && !counted) return response;
    if (watched(url) && !response.ok) fail(new BootFileError(url, `HTTP ${response.status}`));
    const onError = (error) => watched(url) && fail(new BootFileError(url, String(error)));
    const onBytes = counted ? (bytes) => count(name, bytes) : () => {};
    // The interpreter's wasm goes to the compiler as the response the browser fetched: a response
    // made here, around its body, would not be one the browser keeps the compiled code of, and
    // every restore would start on unoptimized code (the first check() twice as slow). A copy of
    // its body is read beside it instead, for the bytes and for a cut.
    if (name === INTERPRETER && response.body) {
      readCopy(response.clone(), onError, onBytes);
      return response;
    }
    return watchBody(response, onError, onBytes);
  };
  return { failed, stop: () => (globalThis.fetch = plain) };
}

async function readCopy(copy, onError, onBytes) {
  const reader = copy.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onBytes(value.byteLength);
    }
  } catch (error) {
    onError(error);
  }
}

// A connection cut mid-file gives a response that looked fine and a body that errors: the same
// response, with a body that reports its error before passing it on, and each chunk's size.
function watchBody(response, onError, onBytes) {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else {
          onBytes(value.byteLength);
          controller.enqueue(value);
        }
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

class BootFileError extends Error {
  constructor(url, why) {
    super(`Fault Lines: ${url.split("/").pop()} did not download (${why})`);
    this.name = "BootFileError";
    this.url = url;
  }
}

// The kernel runs in a worker, out of the page's sight: the lesson page (docs/javascripts/lab.js)
// listens on this channel to tell the learner and offer Retry.
export const LAB_CHANNEL = "fault-lines-lab";

function tellThePage(error) {
  try {
    const channel = new BroadcastChannel(LAB_CHANNEL);
    channel.postMessage({
      type: "kernel-failed",
      download: error instanceof BootFileError,
      detail: String(error && error.message ? error.message : error),
    });
    channel.close();
  } catch {
    // No BroadcastChannel: the kernel's own error is all there is.
  }
  console.error("Fault Lines: the kernel could not start.", error);
}

async function boot(options, report) {
  // The boot packages are unpacked from BOOT_PACK rather than loaded by Pyodide.
  const { packages = [], ...rest } = options;
  const pack = fetchPack();
  pack.catch(() => {}); // handled where it is awaited; this only keeps the console quiet
  const cache = await openCache();
  if (cache) {
    try {
      const restored = await restore(cache, rest, pack, () => report("python"));
      if (restored) return restored;
    } catch (error) {
      console.warn("Fault Lines: the saved kernel snapshot could not be restored; starting Python afresh.", error);
      await forget(cache, () => true);
    }
  }
  const pyodide = await coldStart(rest, pack, packages, cache, () => report("python"));
  if (cache) {
    try {
      await save(cache, pyodide);
    } catch (error) {
      console.warn("Fault Lines: no kernel snapshot was saved (the next start will be a cold one too).", error);
    }
  }
  return pyodide;
}

// Python started afresh, ready for a snapshot (`cache`) or not: the kernel's cold start, and
// the warm-up's, which must leave the same snapshot behind.
async function coldStart(options, pack, packages, cache, onPython = () => {}) {
  const pyodide = await loadPlain({ ...options, _makeSnapshot: Boolean(cache) });
  onPython();
  await installPackages(pyodide, pack, packages);
  quietCdnFailures(pyodide);
  installOfflineNotice(pyodide);
  installDeferredFinder(pyodide);
  return pyodide;
}

// The lesson page makes this browser's snapshot while the learner reads, before "Start the
// lab" (docs/javascripts/lab_prefetch.js runs prepareWarmStart in a worker of its own): the
// cold start, the part of the lab's start no prefetch can save (Python starting, unpacking
// and importing IPython & co), is then over before the click, and the kernel restores.
// One start at a time in this browser (a Web Lock): a kernel started while the warm-up runs
// waits for it and restores its snapshot, rather than running a second cold start beside it
// on the same cores; a warm-up that comes while a kernel starts does nothing. A start that
// fails (a file cut off leaves Pyodide waiting for ever) lets go of the lock when it is told.
const START_LOCK = `fault-lines-kernel-start-${BOOT_ID}`;

async function oneStartAtATime(start, report) {
  const locks = globalThis.navigator && navigator.locks;
  if (!locks) return start();
  // Said only when the lock is taken (a warm-up is making the snapshot): the page then shows
  // that start's progress as this one's.
  const now = await locks.request(START_LOCK, { ifAvailable: true }, (lock) => (lock ? start() : WAIT));
  if (now !== WAIT) return now;
  report("waiting");
  return locks.request(START_LOCK, start);
}
const WAIT = Symbol("the start lock is taken");

// Resolves "made" once the snapshot is stored; "ready" if a snapshot for this build is stored
// already; "busy" if a kernel or another page is starting Python; "unsupported" if this browser
// keeps no Cache Storage or Web Locks. Rejects if a file does not download.
// `onPython` is called once Python runs (its files are in; what is left is CPU work), and
// `onProgress` with each report (see reporter).
export async function prepareWarmStart(options, onPython = () => {}, onProgress = () => {}) {
  const cache = await openCache();
  const locks = globalThis.navigator && navigator.locks;
  if (!cache || !locks) return "unsupported";
  const report = reporter("warm-up", onProgress);
  return locks.request(START_LOCK, { ifAvailable: true }, async (lock) => {
    if (!lock) return "busy";
    if (await cache.match(SNAPSHOT_KEY)) return "ready";
    const watch = watchBootFetches(new URL(".", import.meta.url).href, report);
    try {
      const { packages = [], ...rest } = options;
      const pack = fetchPack();
      pack.catch(() => {}); // handled where it is awaited
      const python = () => {
        report("python");
        onPython();
      };
      const made = coldStart(rest, pack, packages, cache, python).then((pyodide) => save(cache, pyodide));
      const { stored } = await Promise.race([made, watch.failed]);
      await stored;
      report("ready");
      return "made";
    } finally {
      watch.stop();
    }
  });
}

async function openCache() {
  try {
    return globalThis.caches ? await caches.open(CACHE_NAME) : null;
  } catch {
    return null; // e.g. storage disabled for this origin
  }
}

async function forget(cache, isStale) {
  for (const request of await cache.keys()) {
    if (isStale(request.url)) await cache.delete(request);
  }
}

async function fetchPack() {
  const response = await fetch(BOOT_PACK);
  if (!response.ok) throw new Error(`${BOOT_PACK}: HTTP ${response.status}`);
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

async function restore(cache, options, pack, onPython = () => {}) {
  const started = performance.now();
  const memory = await cache.match(SNAPSHOT_KEY);
  if (!memory) return null;
  const snapshot = new Uint8Array(await memory.arrayBuffer());
  const holder = {};
  const pyodide = await loadPlain({
    ...options,
    _loadSnapshot: snapshot,
    // Pyodide copies the snapshot over a heap of the default size; a heap that grew while
    // the kernel imported IPython & co does not fit, so grow the new one first.
    createPyodideModule: async (settings) => {
      const module = await createPyodideModule(settings);
      const block = module._malloc(snapshot.length);
      if (!block) throw new Error(`could not grow Pyodide's heap to ${snapshot.length} bytes`);
      module._free(block);
      return module;
    },
    _snapshotDeserializer: (named) => forwarder(holder, named),
  });
  holder.pyodide = pyodide;
  onPython();
  // The modules are in the restored memory; the files are for what is imported later.
  Object.assign(pyodide.loadedPackages, unpackFiles(pyodide, await pack));
  // `random` was seeded (from os.urandom) before the snapshot: without a fresh seed, every
  // warm start in this browser would draw the same "random" numbers.
  runIsolated(pyodide, "import random; random.seed()");
  warmTheInterpreter(pyodide);
  quietCdnFailures(pyodide); // the Python half (OFFLINE_NOTICE_PY) came back with the snapshot
  installDeferredFinder(pyodide); // afresh: the snapshot's one may have unpacked files this start has not
  console.info(`Fault Lines: Python restored from this browser's kernel snapshot ${BOOT_ID} ` +
               `in ${Math.round(performance.now() - started)} ms.`);
  return pyodide;
}

async function save(cache, pyodide) {
  runIsolated(pyodide, PREPARE_SNAPSHOT_PY);
  const names = apiNames(pyodide);
  // Pyodide only snapshots an instance whose loadedPackages is empty: restore() takes the
  // record from the pack again.
  const loaded = { ...pyodide.loadedPackages };
  for (const name of Object.keys(loaded)) delete pyodide.loadedPackages[name];
  let memory;
  try {
    memory = pyodide.makeMemorySnapshot({ serializer: (object) => nameOf(names, object) });
  } finally {
    Object.assign(pyodide.loadedPackages, loaded);
  }
  // `stored` is not awaited by the kernel, which goes on booting while the browser writes
  // ~55 MB to its cache; the warm-up waits for it (its worker ends when it resolves).
  const stored = cache.put(SNAPSHOT_KEY, new Response(memory))
    .then(() => forget(cache, (url) => !url.includes(`/${BOOT_ID}/`)))
    .catch((error) => console.warn("Fault Lines: the kernel snapshot could not be stored.", error));
  return { stored };
}

// A restored kernel runs its first Python on cold machine code: the browser compiles the
// interpreter's WebAssembly lazily and optimizes its hot functions only once they have run a
// while (and the optimizing compiler then takes its time on the interpreter's huge loop), which a
// cold start's imports do and a restore skips. The learner's first check() then took 2-4x a
// later one. So a restore first runs what the learner will: the kernel's path for a cell (its
// imports found, IPython's run, silent: no output, no history, no name left) and a check() of an
// exercise's starter (fault05: it fails in a few schedules). The check makes clusters in
// miniray's session, which the learner's numbering would see: the session is put back as it was.
// A warm start does not wait for this: its notebook app is still loading.
const WARM_UP_PY = `
import pyodide_kernel
from faultlines.grader import exercise, grade, submission
from miniray.session import SESSION
from pyodide.code import find_imports

for _ in range(3):
    find_imports("import miniray as ray\\nfrom faultlines import notebook")
    pyodide_kernel.ipython_shell.run_cell("sum(i * i for i in range(3000))", store_history=False, silent=True)

saved = dict(vars(SESSION), clusters=dict(SESSION.clusters))
try:
    ex = exercise.load("fault05")
    for _ in range(2):
        grade.grade(ex, submission.from_source(ex.starter, "<warm-up>", ex.entry, ex.line_budget))
finally:
    vars(SESSION).update(saved)
`;

function warmTheInterpreter(pyodide) {
  try {
    runIsolated(pyodide, WARM_UP_PY, "<fault lines: warm-up>");
  } catch (error) {
    console.warn("Fault Lines: the interpreter's warm-up failed (the first cell may be slower).", error);
  }
}

// Offline, the matplotlib family (the only packages served from Pyodide's CDN, see
// hooks/site_build/kernel_lock.py) cannot be fetched. Without this, `import matplotlib` logs two console
// errors per package and ends in a bare "No module named 'matplotlib'". With it: one console
// warning, and the import ends in one sentence that says what is wrong and what still works.
const OFFLINE_NOTICE_PY = `
import sys
from importlib.abc import MetaPathFinder

class NeedsTheNetwork(MetaPathFinder):
    """Last on sys.meta_path: reached only when no installed package provides the module."""

    def __init__(self, names):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        __tracebackhide__ = True  # IPython: show the learner's line, not this finder
        top = fullname.partition(".")[0]
        if top not in self.names:
            return None
        error = ModuleNotFoundError(
            f"{top} needs the network: plots and the packages they use come from Pyodide's CDN "
            "in the browser, and everything else in this lab works offline.", name=fullname)
        error._PYODIDE_ADDED_NOTE = True  # keep Pyodide from appending its install advice
        raise error

def install(names):
    sys.meta_path.append(NeedsTheNetwork(names.to_py()))

install
`;

function installOfflineNotice(pyodide) {
  const names = Object.values(pyodide.lockfile.packages)
    .filter((entry) => entry.file_name.includes("://"))
    .flatMap((entry) => entry.imports);
  const install = runIsolated(pyodide, OFFLINE_NOTICE_PY, "<fault lines: offline packages>");
  try {
    install(names);
  } finally {
    install.destroy();
  }
}

// The modules of the deferred pack are found by a finder just before the offline notice on
// sys.meta_path, so that it is only asked for what the packages on disk lack: the first import
// that loads one fetches the pack (synchronously, from the browser's cache once it has been
// prefetched: an import cannot wait for a promise) and unpacks it under /lib/python3.14 (the
// standard library modules left out of the stdlib zip go there, and that folder joins sys.path
// after the zip).
const DEFERRED_PY = `
import importlib, json, os, sys, zlib
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
        files = json.loads(raw[4:4 + length])["files"]
        body = memoryview(raw)[4 + length:]
        made = set()
        for name, offset, size in files:
            target = f"{LIB}/{name}"
            folder = target.rpartition("/")[0]
            if folder not in made:
                os.makedirs(folder, exist_ok=True)
                made.add(folder)
            with open(target, "wb") as out:
                out.write(body[offset:offset + size])
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
        raise ImportError(f"{needed_by} is in {url.rpartition('/')[2]}, which did not download "
                          f"(HTTP {request.status}): check your connection and run the cell again")
    return request.response.to_bytes()

def install(url, modules):
    if LIB not in sys.path:
        zips = [i for i, entry in enumerate(sys.path) if entry.endswith(".zip")]
        sys.path.insert(zips[0] + 1 if zips else len(sys.path), LIB)
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "DeferredFiles"]
    finder = DeferredFiles(url, modules.to_py())
    names = [type(f).__name__ for f in sys.meta_path]
    sys.meta_path.insert(names.index("NeedsTheNetwork") if "NeedsTheNetwork" in names else len(names), finder)

install
`;

function installDeferredFinder(pyodide) {
  const install = runIsolated(pyodide, DEFERRED_PY, "<fault lines: deferred files>");
  try {
    install(DEFERRED_PACK, DEFERRED.modules);
  } finally {
    install.destroy();
  }
}

// Runs code in a scope of its own, so the learner's namespace (__main__) gains no names.
function runIsolated(pyodide, code, filename = "<fault lines: kernel boot>") {
  const scope = pyodide.globals.get("dict")();
  try {
    return pyodide.runPython(code, { globals: scope, filename });
  } finally {
    scope.destroy();
  }
}

function quietCdnFailures(pyodide) {
  const load = pyodide.loadPackagesFromImports;
  pyodide.loadPackagesFromImports = async (code, options = {}) => {
    const failures = [];
    const result = await load(code, { ...options, errorCallback: (message) => failures.push(message) });
    if (failures.length) {
      console.warn(`Fault Lines: packages could not be fetched (offline?): ${failures.join(" ")}`);
    }
    return result;
  };
}

// The few JavaScript objects Python holds at snapshot time are Pyodide's own API functions
// (micropip and the kernel keep references to loadPackage & co). They are saved by name and,
// on restore, replaced by forwarders to the same names on the new instance.
function apiNames(pyodide) {
  const names = new Map();
  for (const [scope, owner] of [["pyodide", pyodide], ["api", pyodide._api]]) {
    for (const key of Object.getOwnPropertyNames(owner)) {
      let value;
      try { value = owner[key]; } catch { continue; }
      if (value && (typeof value === "object" || typeof value === "function") && !names.has(value)) {
        names.set(value, `${scope}.${key}`);
      }
    }
  }
  return names;
}

function nameOf(names, object) {
  const name = names.get(object);
  if (!name) throw new Error(`Python holds a JavaScript ${typeof object} that is not part of Pyodide's API`);
  return { name, kind: typeof object };
}

function forwarder(holder, { name, kind }) {
  const [scope, key] = name.split(".");
  const target = () => (scope === "pyodide" ? holder.pyodide : holder.pyodide._api)[key];
  if (kind === "function") {
    return function (...args) { return target().apply(this, args); };
  }
  return new Proxy({}, {
    get: (_, prop) => target()[prop],
    set: (_, prop, value) => { target()[prop] = value; return true; },
    has: (_, prop) => prop in target(),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, prop) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), prop);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

// The pack's files go into site-packages, as loadPackage would put them (see
// hooks/site_build/kernel_pack.py for the format). Returns the pack's loadedPackages record.
function unpackFiles(pyodide, pack) {
  const { FS } = pyodide;
  const root = pyodide._api.sitepackages;
  const headerLength = new DataView(pack).getUint32(0, true);
  const { files, loaded } = JSON.parse(new TextDecoder().decode(new Uint8Array(pack, 4, headerLength)));
  const data = new Uint8Array(pack, 4 + headerLength);
  const made = new Set();
  for (const [path, offset, length] of files) {
    const slash = path.lastIndexOf("/");
    const dir = slash < 0 ? root : `${root}/${path.slice(0, slash)}`;
    if (!made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    // canOwn: the file keeps a view of the pack instead of a copy (the pack is never reused).
    FS.createDataFile(dir, path.slice(slash + 1), data.subarray(offset, offset + length), true, true, true);
  }
  return loaded;
}

// Cold start: the pack replaces loadPackage for the boot packages; anything the kernel's
// settings name that the pack lacks (a settings change without a rebuild) still loads.
async function installPackages(pyodide, pack, packages) {
  let files = null;
  try {
    files = await pack;
  } catch (error) {
    console.warn("Fault Lines: the boot pack could not be fetched; loading the wheels one by one.", error);
  }
  if (files) {
    Object.assign(pyodide.loadedPackages, unpackFiles(pyodide, files));
    runIsolated(pyodide, "import importlib; importlib.invalidate_caches()");
  }
  const missing = packages.filter((name) => !(name in pyodide.loadedPackages));
  if (missing.length) await pyodide.loadPackage(missing);
}
