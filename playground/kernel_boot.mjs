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
//
// The Python this runs in the kernel is in playground/boot_python/ (linted like the rest); the
// site build puts each file in for its placeholder (hooks/site_build/kernel_boot.py). Over 400
// lines: the cold start, the warm start (snapshot made, saved, restored) and the start's progress
// report share the start lock and the page's channel, and each is read with the others.
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
const PREPARE_SNAPSHOT_PY = __PY_PREPARE_SNAPSHOT__;
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
const WARM_UP_PY = __PY_WARM_UP__;

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
const OFFLINE_NOTICE_PY = __PY_OFFLINE_NOTICE__;

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
const DEFERRED_PY = __PY_DEFERRED__;

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
