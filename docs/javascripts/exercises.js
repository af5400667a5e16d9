// Exercise progress, kept in this browser only (localStorage), and shared failing runs.
//
// - Any page with a lab panel: the check() report in the embedded notebook (same origin) carries
//   its exercise, version, code hash and verdict (faultlines/grader/render_html.py); we record it.
// - Exercise pages show the status; the Exercises page lists all, with export/import as a file.
// - The replay page turns a shared link (#s=<base64url JSON>) into a notebook in the playground.
(function () {
  "use strict";

  const KEY = "fault-lines.progress.v1";
  const STORAGE = "fault-lines"; // JupyterLite's contentsStorageName (playground/jupyter-lite.json)

  function load() {
    try {
      const data = JSON.parse(localStorage.getItem(KEY) || "{}");
      return data && typeof data.exercises === "object" ? data : { exercises: {} };
    } catch (e) {
      return { exercises: {} };
    }
  }

  function save(data) {
    localStorage.setItem(KEY, JSON.stringify(data));
  }

  function record(id, version, code, passed) {
    const data = load();
    const old = data.exercises[id];
    const keepPass = old && old.status === "passed" && old.version === version && !passed;
    if (keepPass) return; // a later failing try does not undo a pass of the same version
    data.exercises[id] = { status: passed ? "passed" : "tried", version: version, code: code, at: new Date().toISOString() };
    save(data);
    render();
  }

  function describe(entry, version) {
    if (!entry) return "not tried yet";
    if (entry.version !== version) return `${entry.status} on an older version (v${entry.version}): check again`;
    return entry.status === "passed" ? "passed ✔" : "tried, not passed yet";
  }

  function render() {
    const data = load();
    document.querySelectorAll("[data-exercise][data-version]").forEach((el) => {
      if (el.classList.contains("fl-report")) return;
      const text = describe(data.exercises[el.dataset.exercise], Number(el.dataset.version));
      const cell = el.querySelector(".fl-ex-cell") || el.querySelector("b");
      if (cell) cell.textContent = text;
      el.classList.toggle("fl-ex--passed", text.startsWith("passed"));
    });
  }

  // Reports inside the lab's iframe (created by lab.js on "Start the lab").
  const seen = new WeakSet();
  function scanReports() {
    document.querySelectorAll(".fl-lab iframe").forEach((frame) => {
      let doc;
      try {
        doc = frame.contentDocument;
      } catch (e) {
        return;
      }
      if (!doc) return;
      doc.querySelectorAll(".fl-report[data-exercise]").forEach((report) => {
        if (seen.has(report)) return;
        seen.add(report);
        record(report.dataset.exercise, Number(report.dataset.version), report.dataset.code || "",
               report.dataset.passed === "true");
      });
    });
  }

  function wireExportImport() {
    const exportButton = document.querySelector(".fl-progress-export");
    if (exportButton) {
      exportButton.addEventListener("click", () => {
        const blob = new Blob([JSON.stringify(load(), null, 1)], { type: "application/json" });
        const link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = "fault-lines-progress.json";
        link.click();
        URL.revokeObjectURL(link.href);
      });
    }
    const input = document.querySelector(".fl-progress-import");
    if (input) {
      input.addEventListener("change", async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        try {
          const incoming = JSON.parse(await file.text());
          if (!incoming || typeof incoming.exercises !== "object") throw new Error("not a progress file");
          const data = load();
          for (const [id, entry] of Object.entries(incoming.exercises)) {
            const mine = data.exercises[id];
            if (!mine || (entry.status === "passed" && mine.status !== "passed") || entry.version > mine.version) {
              data.exercises[id] = entry;
            }
          }
          save(data);
          render();
        } catch (e) {
          alert(`Could not import progress: ${e.message}`);
        }
      });
    }
  }

  // -- shared failing runs ----------------------------------------------------------------------
  // The link's format is faultlines/grader/share.py's: #s=<base64url of {"exercise","token","code"}>.
  function decodeShare() {
    const match = location.hash.match(/[#&]s=([A-Za-z0-9_-]+)/);
    if (!match) return null;
    try {
      const b64 = match[1].replace(/-/g, "+").replace(/_/g, "/");
      const bytes = Uint8Array.from(atob(b64 + "===".slice((b64.length + 3) % 4)), (c) => c.charCodeAt(0));
      const share = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      const ok = share && ["exercise", "token", "code"].every((k) => typeof share[k] === "string");
      return ok ? share : { damaged: true };
    } catch (e) {
      return { damaged: true };
    }
  }

  // A token reads FL1.<exercise>.v<version>.<code hash>.<scenario>.<schedule> (grader/tokens.py).
  function tokenVersion(token) {
    const parts = token.split(".");
    return parts.length === 6 && parts[0] === "FL1" && /^v\d+$/.test(parts[2]) ? Number(parts[2].slice(1)) : null;
  }

  // Why this build cannot replay the shared run (one sentence), or null when it can.
  function cannotReplay(share, versions) {
    if (share.damaged) return "This share link is damaged: copy the whole link again.";
    const made = tokenVersion(share.token);
    if (made === null || share.token.split(".")[1] !== share.exercise) {
      return "This share link's replay token is damaged: copy the whole link again.";
    }
    if (!(share.exercise in versions)) return `This site has no exercise ${share.exercise}.`;
    const now = versions[share.exercise];
    if (made !== now) {
      return `This link was made for version ${made} of ${share.exercise}, which is now version ${now}: ` +
        "it would replay a different run. Ask for a new link (check() on the current version makes one).";
    }
    return null;
  }

  function replayNotebook(share) {
    const cell = (type, source) => type === "code"
      ? { cell_type: "code", metadata: {}, source: source, outputs: [], execution_count: null }
      : { cell_type: "markdown", metadata: {}, source: source };
    return {
      nbformat: 4, nbformat_minor: 5,
      metadata: { kernelspec: { name: "python", display_name: "Python (Pyodide)", language: "python" } },
      cells: [
        cell("markdown", `# A shared failing run of ${share.exercise}\n\nThe code it was found with, then the replay of its schedule and the run's timeline.`),
        cell("code", `from faultlines import notebook as fl\n\nfl.start(${JSON.stringify(share.exercise)})`),
        cell("code", share.code),
        cell("code", `fl.replay(${JSON.stringify(share.token)})`),
      ],
    };
  }

  function request(req) {
    return new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }

  async function putNotebook(path, notebook) {
    const open = indexedDB.open(STORAGE);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains("files")) open.result.createObjectStore("files");
    };
    let db = await request(open);
    if (!db.objectStoreNames.contains("files")) {
      const version = db.version + 1;
      db.close();
      const upgrade = indexedDB.open(STORAGE, version);
      upgrade.onupgradeneeded = () => upgrade.result.createObjectStore("files");
      db = await request(upgrade);
    }
    const now = new Date().toISOString();
    const model = {
      name: path, path: path, type: "notebook", format: "json", mimetype: "application/x-ipynb+json",
      content: notebook, created: now, last_modified: now, writable: true, size: JSON.stringify(notebook).length,
    };
    const tx = db.transaction("files", "readwrite");
    tx.objectStore("files").put(model, path);
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
    db.close();
  }

  function wireReplay() {
    const box = document.querySelector(".fl-replay");
    if (!box) return;
    const share = decodeShare();
    if (!share) return;
    const what = box.querySelector(".fl-replay__what");
    const why = cannotReplay(share, JSON.parse(box.dataset.versions || "{}"));
    if (why) {
      what.textContent = why;
      box.classList.add("fl-replay--stale");
      return;
    }
    what.textContent = `A failing run of ${share.exercise} (schedule token ${share.token.slice(0, 40)}…).`;
    const button = box.querySelector(".fl-replay__open");
    button.disabled = false;
    button.addEventListener("click", async () => {
      const path = `replay-${share.exercise}-${share.token.slice(-8).replace(/[^A-Za-z0-9_-]/g, "_")}.ipynb`;
      await putNotebook(path, replayNotebook(share));
      location.href = `${box.dataset.lite}lab/index.html?path=${encodeURIComponent(path)}`;
    });
  }

  render();
  wireExportImport();
  wireReplay();
  if (document.querySelector(".fl-lab")) setInterval(scanReports, 1000);
})();
