// Lab panels (see hooks/site_build/lab_panel.py): boot JupyterLite only when asked (lab_prefetch.js
// fetches its files while the learner reads), keep the embedded lab in the page's light/dark scheme,
// give it the whole screen on a phone, save the learner's edits when they leave, say so when
// the kernel cannot start (with a Retry), and say so when the learner's saved copy of a
// notebook was made from an older shipped version (otherwise the stale copy silently shadows
// the new one); "Download .ipynb" gives the learner's saved copy when there is one; "Reset to
// the original" puts the shipped notebook back and keeps the learner's copy to restore.
// What a starting lab is doing is lab_start.js's; the saved copies are lab_store.js's.
(function () {
  "use strict";

  const store = window.FaultLinesStore;
  const labStart = window.FaultLinesLabStart;

  function copyHash(model) {
    const notebook = store.notebookOf(model);
    const meta = notebook && notebook.metadata && notebook.metadata.fault_lines;
    return meta ? meta.source_sha256 : null;
  }

  function clickDownload(href, fileName) {
    const link = document.createElement("a");
    link.href = href;
    link.download = fileName;
    link.click();
  }

  // The link's href is the notebook as shipped; once the learner has saved a copy in the lab,
  // that copy is what they mean to take away, and it lives only in this browser's IndexedDB.
  // Reading it is asynchronous, so the click's default is cancelled and the download re-issued.
  async function downloadNotebook(panel, link) {
    let notebook = null;
    // The last second's edits first, through the lab's one save chain: the copy then holds
    // everything the learner sees, and no save still in flight can land after the read.
    const frame = panel.querySelector(".fl-lab__iframe");
    if (frame) await saveEdits(frame);
    try {
      notebook = store.notebookOf(await store.savedCopy(panel.dataset.storage, panel.dataset.notebook));
    } catch (error) {
      console.warn("saved copy unreadable, downloading the shipped notebook:", error);
    }
    if (!notebook) {
      clickDownload(link.href, link.download);
      return;
    }
    // nbformat writes 1-space indented JSON with a final newline; so does this.
    const text = JSON.stringify(notebook, null, 1) + "\n";
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-ipynb+json" }));
    clickDownload(url, link.download);
    // Not revoked at once: the browser may still be reading the Blob for the download.
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  function pageIsDark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  // The lite apps expose their JupyterLab application object as window.jupyterapp.
  async function jupyterApp(frame, timeoutMs, isReady, pollMs) {
    const app = () => frame.contentWindow && frame.contentWindow.jupyterapp;
    return (await poll(() => app() && isReady(app()), timeoutMs, pollMs)) ? app() : null;
  }

  // True once check() is, false if it is not within timeoutMs (the iframe gives no event).
  async function poll(check, timeoutMs, pollMs) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return true;
  }

  // Start the notebook's kernel as soon as the app object exists, while the app is still
  // restoring its layout and loading the notebook (about a second on 2 cores). The notebook
  // then joins this session: JupyterLab looks for a running session with the notebook's path
  // before it starts one.
  //
  // JupyterLite decides when it creates a kernel whether the kernel mounts the notebook drive
  // (the learner's files, and the notebook's folder as the working directory): only if its
  // service worker is registered by then. So the early start waits for that registration, and
  // leaves the start to the app when it cannot see it.
  const SERVICE_WORKER_PLUGIN = "@jupyterlite/application-extension:service-worker-manager";

  async function serviceWorkerSettled(app) {
    const registry = app.pluginRegistry;
    // `_plugins` is lumino's private map of plugins (pinned JupyterLite 0.8.6; a browser test
    // checks the drive is mounted). Without it, no early start: slower, never wrong.
    const plugins = registry && registry._plugins;
    if (!plugins || !plugins.get(SERVICE_WORKER_PLUGIN)) return false;
    if (!(await poll(() => registry.isPluginActivated(SERVICE_WORKER_PLUGIN), 60000, 25))) return false;
    const workers = plugins.get(SERVICE_WORKER_PLUGIN).service;
    if (!workers || !workers.ready) return false;
    try {
      await workers.ready;
    } catch (error) {
      // No service worker here (e.g. a private window): JupyterLite's own start does the same.
    }
    return true;
  }

  async function startKernelEarly(frame, path) {
    const app = await jupyterApp(frame, 60000, (candidate) => Boolean(candidate.pluginRegistry), 25);
    if (!app || !(await serviceWorkerSettled(app))) return;
    const manager = app.serviceManager;
    await manager.ready;
    await manager.sessions.refreshRunning();
    for (const session of manager.sessions.running()) {
      if (session.path === path) return;
    }
    const kernel = manager.kernelspecs.specs && manager.kernelspecs.specs.default;
    if (!kernel) return;
    const session = await manager.sessions.startNew({ path: path, name: path, type: "notebook", kernel: { name: kernel } });
    session.dispose(); // only this page's handle on it: the session and its kernel keep running
  }

  async function followPageScheme(frame) {
    const app = await jupyterApp(frame, 60000,
      (candidate) => candidate.commands && candidate.commands.hasCommand("apputils:change-theme"), 200);
    if (!app) return;
    // Only once the app is restored: a theme change during start-up shows the notebook app's
    // splash screen a second time, and its removal then throws in the app.
    await app.restored;
    const theme = pageIsDark() ? "JupyterLab Dark" : "JupyterLab Light";
    if (frame.contentDocument.body.dataset.jpThemeName === theme) return;
    await app.commands.execute("apputils:change-theme", { theme: theme });
  }

  function labUrl(panel) {
    const lite = panel.dataset.lite;
    if (panel.dataset.app === "lab") return lite + "lab/index.html";
    return lite + "notebooks/index.html?path=" + encodeURIComponent(panel.dataset.notebook);
  }

  // A phone gets the lab full screen: embedded in the page, the notebook would take the
  // screen's height and catch every swipe meant for the page. lab.css holds the same width.
  const PHONE = window.matchMedia("(max-width: 44.984375em)");

  function expand(panel) {
    if (!PHONE.matches) return;
    panel.classList.add("fl-lab--expanded");
    document.documentElement.classList.add("fl-lab-open");
    const frame = panel.querySelector(".fl-lab__iframe");
    if (frame) frame.focus();
  }

  function collapse(panel) {
    panel.classList.remove("fl-lab--expanded");
    document.documentElement.classList.remove("fl-lab-open");
    const start = panel.querySelector(".fl-lab__start");
    start.scrollIntoView({ block: "center" });
    start.focus();
  }

  // JupyterLab opens with its file browser beside the notebook: on a phone that leaves the
  // notebook a sliver. There it opens one document at a time, sidebar closed.
  async function fitPlaygroundToPhone(frame) {
    if (!PHONE.matches) return;
    const app = await jupyterApp(frame, 60000, (candidate) => Boolean(candidate.shell && candidate.restored), 200);
    if (!app) return;
    await app.restored;
    if (app.shell.collapseLeft) app.shell.collapseLeft();
    if ("mode" in app.shell) app.shell.mode = "single-document";
  }

  function createFrame(panel) {
    const frame = document.createElement("iframe");
    frame.className = "fl-lab__iframe";
    frame.title = panel.dataset.notebook ? "Lab notebook " + panel.dataset.notebook : "Playground";
    frame.src = labUrl(panel);
    labStart.begin(panel, frame); // says what the lab does, and hides the frame until it is ready
    frame.addEventListener("load", () => {
      followPageScheme(frame);
      if (panel.dataset.app === "lab") fitPlaygroundToPhone(frame);
    });
    panel.querySelector(".fl-lab__frame").appendChild(frame);
    if (panel.dataset.notebook) {
      startKernelEarly(frame, panel.dataset.notebook).catch((error) => console.warn("early kernel start skipped:", error));
    }
    return frame;
  }

  // `quietly`: a lab started again after a reset stays where it was (not over a phone's screen).
  function startLab(panel, quietly) {
    const started = panel.classList.contains("fl-lab--started");
    if (started) {
      expand(panel); // on a phone, the start button becomes "Return to the lab"
      return;
    }
    // A lab made ready while the learner read (preload) is shown; otherwise one starts now.
    if (!panel.querySelector(".fl-lab__iframe")) createFrame(panel);
    panel.classList.remove("fl-lab--preloaded");
    panel.querySelector(".fl-lab__stage").inert = false;
    panel.classList.add("fl-lab--started");
    const warm = panel.querySelector(".fl-lab__warm"); // the warm-up's quiet line: the bar speaks now
    if (warm) warm.hidden = true;
    const start = panel.querySelector(".fl-lab__start");
    const label = panel.dataset.app === "lab" ? "playground" : "lab";
    if (PHONE.matches) {
      start.textContent = "Return to the " + label;
    } else {
      start.disabled = true;
      start.textContent = label === "lab" ? "Lab started" : "Playground started";
    }
    if (!quietly) expand(panel);
  }

  // The learner stays on the page: the lab starts hidden (lab_prefetch.js asks, once this
  // browser has Python ready), so that "Start the lab" has only to show it. Its app loads and
  // its kernel starts from the snapshot while the learner reads; it is not focused or seen.
  function preload(panel) {
    if (panel.classList.contains("fl-lab--started") || panel.querySelector(".fl-lab__iframe")) return;
    if (panel.dataset.app !== "lab" && !panel.dataset.notebook) return; // the replay's, not named yet
    if (document.visibilityState !== "visible") return;
    panel.classList.add("fl-lab--preloaded");
    panel.querySelector(".fl-lab__stage").inert = true; // unseen: no focus, no reader announces it
    const frame = createFrame(panel);
    // JupyterLab focuses its notebook as it opens, from inside the frame, which `inert` does not
    // stop: the reader's keys (space to scroll, say) would go to an unseen notebook. The focus
    // goes back to the page until the lab is shown.
    const giveBack = () => {
      if (panel.classList.contains("fl-lab--started")) return window.removeEventListener("blur", giveBack);
      setTimeout(() => {
        if (document.activeElement === frame) frame.blur();
      });
    };
    window.addEventListener("blur", giveBack);
  }

  // A hidden lab that failed is dropped: the learner asked for nothing yet, and their click
  // then starts a lab afresh.
  function dropPreloaded(panel) {
    const frame = panel.querySelector(".fl-lab__iframe");
    if (frame) frame.remove();
    panel.classList.remove("fl-lab--preloaded", "fl-lab--covered");
    panel.querySelector(".fl-lab__stage").inert = false;
  }

  // The lab saves the learner's work into the browser a second after each change (the lite
  // pages' playground/lab_page.js); this saves what the last second changed when the learner
  // leaves, and before a Retry replaces the lab.
  // Bounded: a save that waits on a question in the lab (JupyterLab asks before overwriting a
  // copy another tab saved later) must not keep a Retry or a download waiting for ever.
  const SAVE_WAIT_MS = 10000;

  async function saveEdits(frame) {
    let save = null;
    try {
      save = frame.contentWindow && frame.contentWindow.faultLinesSaveNow;
    } catch (error) {
      return;
    }
    if (save) await Promise.race([save(), new Promise((resolve) => setTimeout(resolve, SAVE_WAIT_MS))]);
  }

  function saveAllLabs() {
    document.querySelectorAll(".fl-lab__iframe").forEach((frame) => saveEdits(frame));
  }

  // The kernel runs in a worker, which tells this page on LAB_CHANNEL when it cannot start
  // (playground/kernel_boot.mjs). Every open tab hears it: a lab whose kernel runs is left be.
  const LAB_CHANNEL = "fault-lines-lab";
  const FAILED_DOWNLOAD =
    "The lab could not start because one of its files did not download; check your connection and press Retry.";
  const FAILED_START = "The lab's Python could not start; press Retry to start it again.";

  function kernelRuns(frame) {
    try {
      const app = frame.contentWindow.jupyterapp;
      for (const widget of app.shell.widgets("main")) {
        const session = widget.sessionContext && widget.sessionContext.session;
        const status = session && session.kernel && session.kernel.status;
        if (status === "idle" || status === "busy") return true;
      }
    } catch (error) {
      // No app yet: its kernel cannot be running.
    }
    return false;
  }

  function showFailure(message) {
    document.querySelectorAll(".fl-lab").forEach((panel) => {
      const frame = panel.querySelector(".fl-lab__iframe");
      if (!frame || kernelRuns(frame)) return;
      if (!panel.classList.contains("fl-lab--started")) {
        dropPreloaded(panel);
        return;
      }
      const notice = panel.querySelector(".fl-lab__failed");
      notice.querySelector(".fl-lab__failed-text").textContent = message.download ? FAILED_DOWNLOAD : FAILED_START;
      notice.hidden = false;
      labStart.fail(panel);
      collapse(panel); // the notice is on the page, not over the lab
      notice.querySelector(".fl-lab__retry").focus();
    });
  }

  async function retry(panel) {
    // The notice goes at once (the press is answered, and Retry cannot be pressed twice); the
    // old lab goes only once its last edits are saved, through its save chain, so that no save
    // of it is still in flight when the new lab reads the learner's copy.
    panel.querySelector(".fl-lab__failed").hidden = true;
    const frame = panel.querySelector(".fl-lab__iframe");
    if (frame) await saveEdits(frame);
    if (frame) frame.remove();
    createFrame(panel);
    expand(panel);
  }

  async function checkForStaleCopy(panel) {
    if (!panel.dataset.notebook || !panel.dataset.sha256) return; // a replay's is made in this browser
    const notice = panel.querySelector(".fl-lab__notice");
    const copy = await store.savedCopy(panel.dataset.storage, panel.dataset.notebook);
    notice.hidden = !copy || copyHash(copy) === panel.dataset.sha256;
    // What the check found, on the panel: "no notice" is then an answer, not a check not done yet.
    panel.dataset.savedCopy = !copy ? "none" : notice.hidden ? "current" : "stale";
  }

  // Replaces the learner's saved copy (null: back to the shipped notebook) while the lab is
  // closed, so that it cannot write its open copy back afterwards; the copy replaced is kept
  // (lab_store.js) and the panel offers it back. A started lab starts again on the new copy.
  async function replaceNotebook(panel, notebook, reason) {
    const frame = panel.querySelector(".fl-lab__iframe");
    const wasStarted = panel.classList.contains("fl-lab--started");
    if (frame) await saveEdits(frame); // the last second's edits belong to the copy kept
    if (frame) frame.remove();
    panel.classList.remove("fl-lab--preloaded");
    panel.querySelector(".fl-lab__stage").inert = false;
    const kept = await store.replaceCopy(panel.dataset.storage, panel.dataset.notebook, notebook, reason);
    panel.querySelector(".fl-lab__notice").hidden = true;
    panel.classList.remove("fl-lab--started");
    const start = panel.querySelector(".fl-lab__start");
    start.disabled = false;
    start.textContent = "Start the lab";
    if (wasStarted) startLab(panel, true);
    return kept;
  }

  function when(stamp) {
    const date = stamp ? new Date(stamp) : null;
    if (!date || isNaN(date)) return "";
    return " (saved " + date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) + ")";
  }

  async function showRestore(panel) {
    const backup = await store.backupOf(panel.dataset.notebook);
    const box = panel.querySelector(".fl-lab__restore");
    box.hidden = !backup;
    if (backup) {
      box.querySelector(".fl-lab__restore-text").textContent =
        "Your earlier copy of this notebook is kept in this browser" + when(backup.saved_at) + ".";
    }
  }

  async function resetToShipped(panel, reason) {
    const kept = await replaceNotebook(panel, null, reason);
    const box = panel.querySelector(".fl-lab__restore");
    await showRestore(panel);
    const text = box.querySelector(".fl-lab__restore-text");
    const now = reason === "new version" ? "The notebook is the course's new version." : "The notebook is back to the original.";
    text.textContent = kept
      ? now + " Your copy is kept in this browser" + when(kept.saved_at) + "."
      : "The notebook is the original: you had saved no copy of it in this browser.";
    box.hidden = false;
    (kept ? box.querySelector(".fl-lab__restore-copy") : panel.querySelector(".fl-lab__reset-original")).focus();
  }

  // Swaps the backup and the saved copy: nothing the learner wrote is ever dropped.
  async function restoreCopy(panel) {
    const backup = await store.backupOf(panel.dataset.notebook);
    if (!backup) return;
    await replaceNotebook(panel, backup.notebook, "restore");
    await showRestore(panel);
    panel.querySelector(".fl-lab__restore-text").textContent =
      "Your copy is back" + when(backup.saved_at) + ". The one it replaced is kept in its place.";
  }

  function askToReset(panel) {
    const confirm = panel.querySelector(".fl-lab__confirm");
    confirm.hidden = false;
    confirm.querySelector(".fl-lab__confirm-cancel").focus();
  }

  function setUpReset(panel) {
    const button = panel.querySelector(".fl-lab__reset-original");
    if (!button) return;
    const confirm = panel.querySelector(".fl-lab__confirm");
    button.addEventListener("click", () => askToReset(panel));
    confirm.querySelector(".fl-lab__confirm-cancel").addEventListener("click", () => {
      confirm.hidden = true;
      button.focus();
    });
    confirm.querySelector(".fl-lab__confirm-reset").addEventListener("click", () => {
      confirm.hidden = true;
      resetToShipped(panel, "reset").catch((error) => console.warn("reset failed:", error));
    });
    panel.querySelector(".fl-lab__restore-copy").addEventListener("click", () => {
      restoreCopy(panel).catch((error) => console.warn("restore failed:", error));
    });
    showRestore(panel).catch((error) => console.warn("backup check skipped:", error));
  }

  function setUp(panel) {
    panel.querySelector(".fl-lab__start").addEventListener("click", () => startLab(panel));
    const reset = panel.querySelector(".fl-lab__reset");
    if (reset) reset.addEventListener("click", () => resetToShipped(panel, "new version"));
    setUpReset(panel);
    const keep = panel.querySelector(".fl-lab__keep");
    if (keep) keep.addEventListener("click", () => (panel.querySelector(".fl-lab__notice").hidden = true));
    const download = panel.querySelector(".fl-lab__download");
    if (download) {
      download.addEventListener("click", (event) => {
        event.preventDefault();
        downloadNotebook(panel, download);
      });
    }
    panel.querySelector(".fl-lab__collapse").addEventListener("click", () => collapse(panel));
    panel.querySelector(".fl-lab__retry").addEventListener("click", () => retry(panel));
    checkForStaleCopy(panel).catch((error) => console.warn("stale-copy check skipped:", error));
  }

  function followSchemeChanges() {
    new MutationObserver(() => {
      document.querySelectorAll(".fl-lab__iframe").forEach((frame) => followPageScheme(frame));
    }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  // The replay page's lab (exercises.js names its notebook first): a shared run opens replaying.
  // On a desktop the lab starts in the page at once. A phone would give it the whole screen
  // over the page that says what it is: there it starts hidden, its notebook already replaying,
  // and "Show the replay" shows it.
  function replay(panel) {
    if (!PHONE.matches) {
      startLab(panel);
      return;
    }
    preload(panel);
    const warm = panel.querySelector(".fl-lab__warm");
    if (warm && panel.querySelector(".fl-lab__iframe")) {
      warm.textContent = "The replay is starting in the background: press Show the replay to watch it.";
      warm.hidden = false;
    }
  }

  window.FaultLinesLab = { preload, replay };
  document.querySelectorAll(".fl-lab").forEach(setUp);
  followSchemeChanges();
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && saveAllLabs());
  window.addEventListener("pagehide", saveAllLabs);
  if (window.BroadcastChannel) {
    new BroadcastChannel(LAB_CHANNEL).addEventListener("message", (event) => {
      if (event.data && event.data.type === "kernel-failed") showFailure(event.data);
    });
  }
})();
