// Exercise progress, kept in this browser only (localStorage), and shared failing runs.
//
// - Any page with a lab panel: the check() report in the embedded notebook (same origin) carries
//   its exercise, version, code hash, verdict, source and the failure's signature
//   (faultlines/grader/render_html.py); we record it.
// - Exercise pages show the status; the Exercises page lists all, with export/import as a file
//   (progress.js; the file's format is docs/design/progress-file.md).
// - The replay page turns a shared link (#s=<base64url JSON>) into a notebook that replays the run
//   in the page's lab, and in the playground for editing.
window.FaultLinesProgress = (function () {
  "use strict";

  // The key keeps its "v1": it names this browser's record, whose entries have only gained fields.
  const KEY = "fault-lines.progress.v1";
  const STORAGE = "fault-lines"; // JupyterLite's contentsStorageName (playground/jupyter-lite.json)

  function load() {
    try {
      const data = JSON.parse(localStorage.getItem(KEY) || "{}");
      return data && typeof data.exercises === "object" && data.exercises ? data : { exercises: {} };
    } catch (e) {
      return { exercises: {} };
    }
  }

  function save(data) {
    localStorage.setItem(KEY, JSON.stringify(data));
  }

  // The failure's signature as the report carries it (progress-file.md, "last_failure").
  function failureOf(report, version, source, at) {
    if (report.dataset.passed === "true" || !report.dataset.invariant) return null;
    let schedule = [];
    try {
      schedule = JSON.parse(report.dataset.schedule || "[]");
    } catch (e) {
      schedule = [];
    }
    return {
      exercise: report.dataset.exercise, version: version, invariant: report.dataset.invariant,
      schedule: schedule, hint: report.dataset.hint || "", token: report.dataset.token || "",
      source: source, at: at,
    };
  }

  function record(report) {
    const id = report.dataset.exercise;
    const version = Number(report.dataset.version);
    const passed = report.dataset.passed === "true";
    const source = report.dataset.source || "";
    const at = new Date().toISOString();
    const data = load();
    const old = data.exercises[id];
    const failure = failureOf(report, version, source, at);
    // A later failing try does not undo a pass of the same version; its failure is still noted.
    const keepPass = old && old.status === "passed" && old.version === version && !passed;
    const entry = keepPass
      ? { ...old }
      : { status: passed ? "passed" : "tried", version: version, code: report.dataset.code || "", at: at, source: source };
    entry.last_failure = failure || (old && old.version === version ? old.last_failure || null : null);
    data.exercises[id] = entry;
    save(data);
    render();
  }

  // The status as words and a badge kind: passed, tried, stale (an older version), untried.
  function describe(entry, version) {
    if (!entry || entry.status === "started") return { text: "not tried yet", kind: "untried" };
    if (entry.version !== version) {
      return { text: `${entry.status} on an older version (v${entry.version}): check again`, kind: "stale" };
    }
    return entry.status === "passed" ? { text: "passed ✔", kind: "passed" } : { text: "tried, not passed yet", kind: "tried" };
  }

  function badge(status) {
    const span = document.createElement("span");
    span.className = `fl-badge fl-badge--${status.kind}`;
    span.textContent = status.text;
    return span;
  }

  function render() {
    const data = load();
    document.querySelectorAll("[data-exercise][data-version]").forEach((el) => {
      if (el.classList.contains("fl-report")) return;
      const status = describe(data.exercises[el.dataset.exercise], Number(el.dataset.version));
      const cell = el.querySelector(".fl-ex-cell") || el.querySelector("b");
      if (cell && cell.textContent !== status.text) cell.replaceChildren(badge(status));
      el.classList.toggle("fl-ex--passed", status.kind === "passed");
    });
  }

  // Reports inside the lab's iframe (created by lab.js), recorded the moment they appear: a
  // learner who checks and at once goes to the Exercises page, or exports there, finds the
  // check recorded. (Looking once a second missed a check followed by a click within that
  // second: an export then said "started" for an exercise just tried.)
  const seen = new WeakSet();
  function recordOnce(report) {
    if (seen.has(report) || !report.matches(".fl-report[data-exercise]")) return;
    seen.add(report);
    record(report);
  }

  function documentOf(frame) {
    try {
      return frame.contentDocument;
    } catch (e) {
      return null;
    }
  }

  function scanReports() {
    document.querySelectorAll(".fl-lab iframe").forEach((frame) => {
      const doc = documentOf(frame);
      if (doc) doc.querySelectorAll(".fl-report[data-exercise]").forEach(recordOnce);
    });
  }

  function onReports(records) {
    for (const entry of records) {
      for (const node of entry.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        if (node.classList.contains("fl-report")) recordOnce(node);
        else for (const report of [...node.getElementsByClassName("fl-report")]) recordOnce(report);
      }
    }
  }

  // Each lab page the frame loads (a Retry or a reset loads another) is watched from its load.
  const watchedFrames = new WeakSet();
  function watchFrame(frame) {
    if (watchedFrames.has(frame)) return;
    watchedFrames.add(frame);
    const watch = () => {
      const doc = documentOf(frame);
      if (!doc) return;
      new MutationObserver(onReports).observe(doc, { childList: true, subtree: true });
      doc.querySelectorAll(".fl-report[data-exercise]").forEach(recordOnce);
    };
    frame.addEventListener("load", watch);
    const doc = documentOf(frame); // a frame whose lab page loaded before this script saw it
    if (doc && doc.readyState === "complete" && doc.URL !== "about:blank") watch();
  }

  function watchLabs() {
    document.querySelectorAll(".fl-lab").forEach((panel) => {
      const frames = () => panel.querySelectorAll("iframe.fl-lab__iframe").forEach(watchFrame);
      new MutationObserver(frames).observe(panel, { childList: true, subtree: true });
      frames();
    });
    // And once more as the page goes: nothing the lab showed is left unrecorded.
    window.addEventListener("pagehide", scanReports);
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
  function cannotReplay(share, exercises) {
    if (share.damaged) return "This share link is damaged: copy the whole link again.";
    const made = tokenVersion(share.token);
    if (made === null || share.token.split(".")[1] !== share.exercise) {
      return "This share link's replay token is damaged: copy the whole link again.";
    }
    if (!Object.hasOwn(exercises, share.exercise)) return `This site has no exercise ${share.exercise}.`;
    const now = exercises[share.exercise].version;
    if (made !== now) {
      return `This link was made for version ${made} of ${share.exercise}, which is now version ${now}: ` +
        "it would replay a different run. Ask for a new link (check() on the current version makes one).";
    }
    return null;
  }

  // The notebook says what it is, and runs its cells as it opens (fault_lines.run_on_open, read
  // by playground/lab_page.js), in the replay page's lab or in the playground.
  function replayNotebook(share, title) {
    const cell = (type, source) => type === "code"
      ? { cell_type: "code", metadata: {}, source: source, outputs: [], execution_count: null }
      : { cell_type: "markdown", metadata: {}, source: source };
    const about =
      `# A shared failing run of ${share.exercise}\n\n` +
      `Someone shared this run with you: it breaks their solution of ${share.exercise}, *${title}*. ` +
      "This notebook replays it by itself each time it opens: the first cell loads the exercise, " +
      "the second holds the code the run was found on, and the third runs that code under the " +
      "run's faults, in the same order, and opens the debugger on it.\n\n" +
      "To try a fix, edit the code cell, then run every cell again (*Run* menu, *Run All Cells*): " +
      "the replay puts your code through the same faults.";
    return {
      nbformat: 4, nbformat_minor: 5,
      metadata: {
        kernelspec: { name: "python", display_name: "Python (Pyodide)", language: "python" },
        fault_lines: { exercise: share.exercise, replay: share.token, run_on_open: true },
      },
      cells: [
        cell("markdown", about),
        cell("code", `from faultlines import notebook as fl\n\nfl.start(${JSON.stringify(share.exercise)}, shared=True)`),
        cell("code", share.code),
        cell("code", `fl.replay(${JSON.stringify(share.token)})`),
      ],
    };
  }

  // One notebook per link (its token and its code: two links with one token may carry different
  // code), named by a 32-bit FNV-1a of both: short, and the same in every browser.
  function replayPath(share) {
    let hash = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(share.token + "\n" + share.code)) {
      hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
    }
    return `replay-${share.exercise}-${hash.toString(16).padStart(8, "0")}.ipynb`;
  }

  function loaded() {
    if (document.readyState !== "loading") return Promise.resolve();
    return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
  }

  // The page as built says there is no run in the link and offers nothing; a link with a run
  // shows the run's part, writes its notebook into this browser (a copy already there is the
  // learner's, edits and all, and is kept) and starts the page's lab on it.
  async function wireReplay() {
    const box = document.querySelector(".fl-replay");
    if (!box) return;
    const share = decodeShare();
    if (!share) return;
    const what = box.querySelector(".fl-replay__what");
    const exercises = JSON.parse(box.dataset.exercises || "{}");
    const why = cannotReplay(share, exercises);
    box.querySelector(".fl-replay__bare").hidden = true;
    if (why) {
      what.textContent = why;
      box.classList.add("fl-replay--stale");
      return;
    }
    const title = exercises[share.exercise].title;
    what.textContent = `A failing run of ${share.exercise}, ${title} (replay token ${share.token.slice(0, 40)}…).`;
    const panel = box.querySelector(".fl-lab");
    const storage = panel.dataset.storage;
    const path = replayPath(share);
    await loaded(); // lab_store.js and lab.js come after this page's own scripts (mkdocs.yml)
    const store = window.FaultLinesStore;
    if (!(await store.savedCopy(storage, path))) await store.putCopy(storage, path, replayNotebook(share, title));
    panel.dataset.notebook = path;
    panel.querySelector(".fl-lab__playground").href = `${panel.dataset.lite}lab/index.html?path=${encodeURIComponent(path)}`;
    const download = panel.querySelector(".fl-lab__download");
    download.href = `${panel.dataset.lite}files/${encodeURIComponent(path)}`;
    download.download = path;
    box.querySelector(".fl-replay__run").hidden = false;
    window.FaultLinesLab.replay(panel);
  }

  render();
  wireReplay().catch((error) => console.warn("the shared run could not open:", error));
  watchLabs();
  return { KEY, STORAGE, load, save, render, describe };
})();
