// The learner's notebooks in this browser, shared by the lab panels (lab.js, lab_reset.js) and
// the progress file (exercises.js): read, write and delete the lab's saved copies, and keep a
// backup of a copy before anything replaces it (a reset, an import), so it can be restored.
//
// JupyterLite keeps saved notebooks in IndexedDB through localforage: one database named by
// `contentsStorageName` (playground/jupyter-lite.json), object store "files", keys are contents
// paths, values are contents models whose `content` is the notebook. Backups live in a database
// of our own (BACKUPS), one per notebook path: the lab never sees them.
window.FaultLinesStore = (function () {
  "use strict";

  const STORES_WITH_COPIES = ["files", "checkpoints"];
  const BACKUPS = "fault-lines-backups";
  const BACKUP_STORE = "notebooks";

  function request(req) {
    return new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }

  function done(tx) {
    return new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  // Open the lab's database only if it exists: opening a missing one would create it empty.
  async function openExisting(name) {
    if (!window.indexedDB || !indexedDB.databases) return null;
    const existing = await indexedDB.databases();
    if (!existing.some((db) => db.name === name)) return null;
    return request(indexedDB.open(name));
  }

  // Open (creating if need be) a database that has `store`.
  async function openWith(name, store) {
    const open = indexedDB.open(name);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(store)) open.result.createObjectStore(store);
    };
    let db = await request(open);
    if (!db.objectStoreNames.contains(store)) {
      // The database exists without the store (localforage made it for another store).
      const version = db.version + 1;
      db.close();
      const upgrade = indexedDB.open(name, version);
      upgrade.onupgradeneeded = () => upgrade.result.createObjectStore(store);
      db = await request(upgrade);
    }
    return db;
  }

  // A saved copy is a contents model whose content is the notebook as an object, or as JSON
  // text, depending on how it was saved.
  function notebookOf(model) {
    const content = model && model.content;
    if (typeof content !== "string") return content || null;
    try {
      return JSON.parse(content);
    } catch (e) {
      return null;
    }
  }

  async function savedCopy(storage, path) {
    const db = await openExisting(storage);
    if (!db) return null;
    try {
      if (!db.objectStoreNames.contains("files")) return null;
      return (await request(db.transaction("files").objectStore("files").get(path))) || null;
    } finally {
      db.close();
    }
  }

  // Every saved copy whose path passes `keep`, as {path: model}.
  async function savedCopies(storage, keep) {
    const db = await openExisting(storage);
    if (!db) return {};
    try {
      if (!db.objectStoreNames.contains("files")) return {};
      const store = db.transaction("files").objectStore("files");
      const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      const found = {};
      keys.forEach((key, index) => {
        if (typeof key === "string" && keep(key)) found[key] = values[index];
      });
      return found;
    } finally {
      db.close();
    }
  }

  async function deleteCopy(storage, path) {
    const db = await openExisting(storage);
    if (!db) return;
    try {
      for (const store of STORES_WITH_COPIES) {
        if (!db.objectStoreNames.contains(store)) continue;
        const tx = db.transaction(store, "readwrite");
        tx.objectStore(store).delete(path);
        await done(tx);
      }
    } finally {
      db.close();
    }
  }

  // Write `notebook` as the lab's saved copy of `path`, as JupyterLite's own save would.
  async function putCopy(storage, path, notebook, when) {
    const db = await openWith(storage, "files");
    try {
      const stamp = when || new Date().toISOString();
      const text = JSON.stringify(notebook);
      const model = {
        name: path.split("/").pop(), path: path, type: "notebook", format: "json",
        mimetype: "application/x-ipynb+json", content: notebook, created: stamp, last_modified: stamp,
        writable: true, size: text.length,
      };
      const tx = db.transaction("files", "readwrite");
      tx.objectStore("files").put(model, path);
      await done(tx);
    } finally {
      db.close();
    }
  }

  async function backupOf(path) {
    const db = await openExisting(BACKUPS);
    if (!db) return null;
    try {
      if (!db.objectStoreNames.contains(BACKUP_STORE)) return null;
      return (await request(db.transaction(BACKUP_STORE).objectStore(BACKUP_STORE).get(path))) || null;
    } finally {
      db.close();
    }
  }

  // Keep `model` (a saved copy) as the backup of its path, replacing an older backup.
  async function keepBackup(path, model, reason) {
    const notebook = notebookOf(model);
    if (!notebook) return null;
    const backup = { path: path, notebook: notebook, saved_at: model.last_modified || null,
                     kept_at: new Date().toISOString(), reason: reason };
    const db = await openWith(BACKUPS, BACKUP_STORE);
    try {
      const tx = db.transaction(BACKUP_STORE, "readwrite");
      tx.objectStore(BACKUP_STORE).put(backup, path);
      await done(tx);
    } finally {
      db.close();
    }
    return backup;
  }

  // Replace the saved copy of `path` by `notebook` (null: delete it, back to the shipped one),
  // keeping what was there as the backup. Returns the backup kept, or null when there was no copy.
  async function replaceCopy(storage, path, notebook, reason, when) {
    const current = await savedCopy(storage, path);
    const kept = current ? await keepBackup(path, current, reason) : null;
    if (notebook) await putCopy(storage, path, notebook, when);
    else await deleteCopy(storage, path);
    return kept;
  }

  return { notebookOf, savedCopy, savedCopies, deleteCopy, putCopy, backupOf, replaceCopy };
})();
