// The Exercises page's "Export progress" and "Import progress": a file that is a backup of the
// learner's work in this browser. Format version 2 (docs/design/progress-file.md, which the
// instructor's class map reads): each exercise's status and last failure's signature, and each
// exercise's and lesson's notebook as the learner left it. Version 1 files (statuses only) import.
//
// Import lists what it will restore and asks first; a notebook this browser holds a newer copy
// of is left alone unless the learner ticks it, and every copy an import replaces is kept as the
// notebook's backup (lab_store.js), which "Restore my copy" on its page brings back.
(function () {
  "use strict";

  const FORMAT = "fault-lines-progress";
  const VERSION = 2;
  const NOTEBOOK_PATH = /^(lessons|exercises)\/([A-Za-z0-9_.-]+)\.ipynb$/;
  const progress = window.FaultLinesProgress;
  const STORAGE = progress.STORAGE;

  function store() {
    return window.FaultLinesStore; // loaded after this page's own scripts (mkdocs.yml)
  }

  function stamp(iso) {
    const date = iso ? new Date(iso) : null;
    return date && !isNaN(date) ? date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "an unknown time";
  }

  function notebookRecord(path, model) {
    const content = store().notebookOf(model);
    if (!content) return null;
    const meta = (content.metadata && content.metadata.fault_lines) || {};
    return { path: path, saved_at: model.last_modified || null, source_sha256: meta.source_sha256 || null, content: content };
  }

  function exerciseEntry(entry) {
    return {
      status: entry.status, version: entry.version, code: entry.code || "", at: entry.at || null,
      source: entry.source || "", last_failure: entry.last_failure || null, notebook: null,
    };
  }

  async function buildFile() {
    const file = { format: FORMAT, version: VERSION, exported_at: new Date().toISOString(), exercises: {}, lessons: {} };
    for (const [id, entry] of Object.entries(progress.load().exercises)) file.exercises[id] = exerciseEntry(entry);
    const copies = await store().savedCopies(STORAGE, (path) => NOTEBOOK_PATH.test(path));
    for (const [path, model] of Object.entries(copies).sort()) {
      const notebook = notebookRecord(path, model);
      if (!notebook) continue;
      const [, kind, name] = path.match(NOTEBOOK_PATH);
      if (kind === "lessons") {
        file.lessons[name] = { status: "started", notebook: notebook };
        continue;
      }
      const meta = notebook.content.metadata.fault_lines || {};
      file.exercises[name] = file.exercises[name] ||
        exerciseEntry({ status: "started", version: typeof meta.version === "number" ? meta.version : null });
      file.exercises[name].notebook = notebook;
    }
    return file;
  }

  const EXPORT_NAME = "fault-lines-progress.json";

  // The download happens in the browser's own bar, or silently on a phone: the page says what
  // the file holds, so the learner knows the click did something and what they have.
  async function exportFile() {
    const file = await buildFile();
    const blob = new Blob([JSON.stringify(file, null, 1) + "\n"], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = EXPORT_NAME;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    const entries = [...Object.values(file.exercises), ...Object.values(file.lessons)];
    const tried = Object.values(file.exercises).filter((entry) => entry.status !== "started").length;
    const notebooks = entries.filter((entry) => entry.notebook).length;
    tell(`Exported ${EXPORT_NAME} (${stamp(file.exported_at)}): the progress of ` +
      `${plural(tried, "exercise", "exercises")} and ${plural(notebooks, "notebook", "notebooks")}. ` +
      "Your browser saves it with its downloads; Import progress reads it back, here or in another browser.");
  }

  // -- import -----------------------------------------------------------------------------------

  class NotAProgressFile extends Error {}

  function isNotebook(content) {
    return Boolean(content && typeof content === "object" && Array.isArray(content.cells) && content.nbformat === 4);
  }

  // Version 1 and 2 as one shape: {exported_at, exercises: {id: entry}, lessons: {name: entry}}.
  function normalise(data) {
    if (!data || typeof data !== "object") throw new NotAProgressFile("it holds no progress");
    if (data.format === FORMAT) {
      if (typeof data.version !== "number" || data.version > VERSION) {
        throw new NotAProgressFile(`it is version ${data.version} of the format, made by a newer course site`);
      }
    } else if (!("exercises" in data) || "version" in data) {
      throw new NotAProgressFile("it is not a Fault Lines progress file");
    }
    const exercises = data.exercises && typeof data.exercises === "object" ? data.exercises : null;
    const lessons = data.lessons === undefined ? {} : data.lessons;
    if (!exercises || !lessons || typeof lessons !== "object") throw new NotAProgressFile("its exercises or lessons are not lists");
    for (const entry of [...Object.values(exercises), ...Object.values(lessons)]) {
      if (!entry || typeof entry !== "object" || typeof entry.status !== "string") throw new NotAProgressFile("an entry has no status");
      if (entry.notebook && !isNotebook(entry.notebook.content)) throw new NotAProgressFile(`${entry.notebook.path || "a notebook"} is not a notebook`);
    }
    return { exported_at: data.exported_at || null, exercises: exercises, lessons: lessons };
  }

  // Would the incoming status change this browser's record? (v1's rule: never lose a pass.)
  function takesStatus(mine, entry) {
    if (entry.status === "started") return false;
    if (!mine) return true;
    if (entry.version !== mine.version) return entry.version > mine.version;
    return entry.status === "passed" && mine.status !== "passed";
  }

  async function planFor(file) {
    const local = progress.load().exercises;
    const copies = await store().savedCopies(STORAGE, (path) => NOTEBOOK_PATH.test(path));
    const items = [];
    const add = (label, path, entry) => {
      const item = { label: label, path: path, entry: entry, status: null, notebook: null };
      if (path === null && takesStatus(local[label], entry)) item.status = entry;
      if (path !== null && entry.notebook) {
        const mine = copies[path];
        const theirs = entry.notebook;
        const same = mine && JSON.stringify(store().notebookOf(mine)) === JSON.stringify(theirs.content);
        const newerHere = mine && !same && (!theirs.saved_at || (mine.last_modified || "") > theirs.saved_at);
        item.notebook = { ...theirs, same: Boolean(same), newerHere: Boolean(newerHere), mine: mine ? mine.last_modified : null };
      }
      items.push(item);
    };
    for (const [id, entry] of Object.entries(file.exercises)) {
      if (!/^[A-Za-z0-9_.-]+$/.test(id)) continue;
      add(id, null, entry);
      if (entry.notebook) add(id, `exercises/${id}.ipynb`, entry);
    }
    for (const [name, entry] of Object.entries(file.lessons)) {
      if (/^[A-Za-z0-9_.-]+$/.test(name) && entry.notebook) add(name, `lessons/${name}.ipynb`, entry);
    }
    return items;
  }

  function describeItem(item) {
    if (item.path === null) {
      const entry = item.entry;
      const status = entry.status === "passed" ? "passed" : "tried, not passed";
      return `${item.label}: ${status} (version ${entry.version})` + (item.status ? "" : ": this browser's record is the same or newer");
    }
    const what = item.path.startsWith("lessons/") ? `Lesson notebook ${item.label}` : `Notebook of ${item.label}`;
    return `${what}, saved ${stamp(item.notebook.saved_at)}` + (item.notebook.same ? ", the same as in this browser" : "");
  }

  function element(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // Resolves the items the learner chose, or null if they cancelled.
  function ask(file, items, fileName) {
    // md-typeset: Material styles its buttons (.md-button) only inside it, and the dialog hangs
    // off <body>, outside the page's article; without it Restore and Cancel looked like text.
    const dialog = element("dialog", "fl-import md-typeset");
    dialog.setAttribute("aria-labelledby", "fl-import-title");
    dialog.append(element("h2", "", "Import progress"));
    dialog.firstChild.id = "fl-import-title";
    dialog.append(element("p", "", `${fileName}, exported ${stamp(file.exported_at)}, holds:`));
    const list = element("ul", "fl-import__items");
    const boxes = [];
    for (const item of items) {
      const li = element("li", "fl-import__item");
      if (item.path === null || item.notebook.same) {
        li.append(element("span", "", describeItem(item)));
      } else {
        const label = element("label");
        const box = element("input");
        box.type = "checkbox";
        box.checked = !item.notebook.newerHere;
        boxes.push([box, item]);
        label.append(box, " " + describeItem(item));
        li.append(label);
        if (item.notebook.newerHere) {
          li.classList.add("fl-import__item--newer");
          li.append(element("p", "fl-import__warning",
            `This browser's copy is newer (saved ${stamp(item.notebook.mine)}). Tick the box to replace it; it is then kept, and "Restore my copy" on its page brings it back.`));
        } else if (item.notebook.mine) {
          li.append(element("p", "fl-import__note", `Replaces this browser's copy (saved ${stamp(item.notebook.mine)}), which is kept as its backup.`));
        }
      }
      list.append(li);
    }
    dialog.append(list);
    const buttons = element("p", "fl-import__buttons");
    const restore = element("button", "md-button md-button--primary fl-import__restore", "Restore");
    const cancel = element("button", "md-button fl-import__cancel", "Cancel");
    restore.type = cancel.type = "button";
    buttons.append(restore, " ", cancel);
    dialog.append(buttons);
    document.body.append(dialog);
    return new Promise((resolve) => {
      const finish = (chosen) => {
        dialog.close();
        dialog.remove();
        resolve(chosen);
      };
      restore.addEventListener("click", () => finish(items.filter((item) =>
        item.path === null ? item.status : !item.notebook.same && boxes.some(([box, it]) => it === item && box.checked))));
      cancel.addEventListener("click", () => finish(null));
      dialog.addEventListener("cancel", (event) => {
        event.preventDefault();
        finish(null);
      });
      dialog.showModal();
      restore.focus();
    });
  }

  async function apply(chosen) {
    const data = progress.load();
    let statuses = 0;
    let notebooks = 0;
    for (const item of chosen) {
      if (item.path === null) {
        const { notebook, ...entry } = item.entry;
        data.exercises[item.label] = { ...entry, last_failure: entry.last_failure || null };
        statuses += 1;
      } else {
        await store().replaceCopy(STORAGE, item.path, item.notebook.content, "import", item.notebook.saved_at);
        notebooks += 1;
      }
    }
    progress.save(data);
    progress.render();
    return { statuses, notebooks };
  }

  function plural(count, one, many) {
    return `${count} ${count === 1 ? one : many}`;
  }

  function tell(text, isError) {
    const line = document.querySelector(".fl-progress-result");
    line.textContent = text;
    line.classList.toggle("fl-progress-result--error", Boolean(isError));
    line.hidden = false;
  }

  async function importFile(input) {
    const file = input.files && input.files[0];
    input.value = ""; // the same file may be chosen again
    if (!file) return;
    let parsed;
    try {
      parsed = normalise(JSON.parse(await file.text()));
    } catch (error) {
      const why = error instanceof NotAProgressFile ? error.message : "it is not JSON";
      tell(`Nothing was imported: ${file.name} cannot be read, because ${why}.`, true);
      return;
    }
    const items = await planFor(parsed);
    if (!items.length) {
      tell(`Nothing to import: ${file.name} holds no progress.`);
      return;
    }
    const chosen = await ask(parsed, items, file.name);
    if (chosen === null) {
      tell("Import cancelled: nothing was changed.");
      return;
    }
    const { statuses, notebooks } = await apply(chosen);
    tell(statuses + notebooks === 0
      ? "Nothing was imported: this browser already had all of it."
      : `Imported the progress of ${plural(statuses, "exercise", "exercises")} and ${plural(notebooks, "notebook", "notebooks")}.`);
  }

  const exportButton = document.querySelector(".fl-progress-export");
  if (exportButton) {
    exportButton.addEventListener("click", () => exportFile().catch((error) => tell(`Export failed: ${error.message}`, true)));
  }
  const input = document.querySelector(".fl-progress-import");
  const importButton = document.querySelector(".fl-progress-import-button");
  if (input && importButton) {
    importButton.addEventListener("click", () => input.click());
    input.addEventListener("change", () => importFile(input).catch((error) => tell(`Import failed: ${error.message}`, true)));
  }
})();
