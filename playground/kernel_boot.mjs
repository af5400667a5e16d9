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
import { loadPyodide as loadPlain } from "./pyodide.mjs";
import createPyodideModule from "./pyodide.asm.mjs";

const BOOT_ID = "__BOOT_ID__";
const CACHE_NAME = "fault-lines-kernel";
// What the kernel imports while it boots, plus miniray for the lessons' first cell. Imported
// before the snapshot so that a warm start has nothing left to import.
const WARM_IMPORTS = "import micropip, piplite.piplite, pyodide_kernel, miniray\nimport gc; gc.collect()";
const KEYS = {
  memory: new URL(`kernel-snapshot/${BOOT_ID}/memory`, import.meta.url).href,
  files: new URL(`kernel-snapshot/${BOOT_ID}/site-packages`, import.meta.url).href,
};

export async function loadPyodide(options) {
  const cache = await openCache();
  if (cache) {
    try {
      const restored = await restore(cache, options);
      if (restored) return restored;
    } catch (error) {
      console.warn("Fault Lines: the saved kernel snapshot could not be restored; starting Python afresh.", error);
      await forget(cache, () => true);
    }
  }
  const pyodide = await loadPlain({ ...options, _makeSnapshot: Boolean(cache) });
  if (cache) {
    try {
      await save(cache, pyodide);
    } catch (error) {
      console.warn("Fault Lines: no kernel snapshot was saved (the next start will be a cold one too).", error);
    }
  }
  return pyodide;
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

async function restore(cache, options) {
  const [memory, files] = await Promise.all([cache.match(KEYS.memory), cache.match(KEYS.files)]);
  if (!memory || !files) return null;
  const [memoryBytes, pack] = await Promise.all([memory.arrayBuffer(), files.arrayBuffer()]);
  const holder = {};
  // `packages` were loaded before the snapshot; unpackFiles puts their files back below.
  const { packages, ...rest } = options;
  const snapshot = new Uint8Array(memoryBytes);
  const pyodide = await loadPlain({
    ...rest,
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
  Object.assign(pyodide.loadedPackages, unpackFiles(pyodide.FS, pack));
  return pyodide;
}

async function save(cache, pyodide) {
  await pyodide.runPythonAsync(WARM_IMPORTS);
  const names = apiNames(pyodide);
  // Pyodide only snapshots an instance whose loadedPackages is empty: the record is saved
  // with the files and put back on restore.
  const loaded = { ...pyodide.loadedPackages };
  for (const name of Object.keys(loaded)) delete pyodide.loadedPackages[name];
  let memory;
  try {
    memory = pyodide.makeMemorySnapshot({ serializer: (object) => nameOf(names, object) });
  } finally {
    Object.assign(pyodide.loadedPackages, loaded);
  }
  const pack = packFiles(pyodide.FS, pyodide._api.sitepackages, loaded);
  // Not awaited: the kernel goes on booting while the browser writes ~55 MB to its cache.
  Promise.all([
    cache.put(KEYS.memory, new Response(memory)),
    cache.put(KEYS.files, new Response(pack)),
  ]).then(() => forget(cache, (url) => !url.includes(`/${BOOT_ID}/`)))
    .catch((error) => console.warn("Fault Lines: the kernel snapshot could not be stored.", error));
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

// site-packages as one blob: [u32 header length][header JSON][file bytes...].
function packFiles(FS, root, loaded) {
  const entries = [];
  const parts = [];
  let offset = 0;
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) {
        walk(path);
      } else {
        const bytes = FS.readFile(path);
        entries.push([path, offset, bytes.length]);
        parts.push(bytes);
        offset += bytes.length;
      }
    }
  };
  walk(root);
  const header = new TextEncoder().encode(JSON.stringify({ files: entries, loaded }));
  return new Blob([new Uint32Array([header.length]), header, ...parts]);
}

function unpackFiles(FS, pack) {
  const headerLength = new Uint32Array(pack, 0, 1)[0];
  const { files, loaded } = JSON.parse(new TextDecoder().decode(new Uint8Array(pack, 4, headerLength)));
  const data = new Uint8Array(pack, 4 + headerLength);
  const made = new Set();
  for (const [path, offset, length] of files) {
    const slash = path.lastIndexOf("/");
    const dir = path.slice(0, slash);
    if (!made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    // canOwn: the file keeps a view of the pack instead of a copy (the pack is never reused).
    FS.createDataFile(dir, path.slice(slash + 1), data.subarray(offset, offset + length), true, true, true);
  }
  return loaded;
}
