// Loaded by the lite apps' pages (hooks/site_build/lite_build.py adds it to lab/ and notebooks/index.html),
// embedded in a lesson or opened full screen:
// - it keeps the learner's notebooks saved in the browser, a second after each change, so that
//   a reload or a closed tab loses nothing (learners do not press Ctrl+S in a page that looks
//   like a document);
// - opened full screen ("Open in the playground", "Open it full screen"), the lab takes the
//   light or dark scheme the reader chose on the course site. Embedded in a lesson page, the
//   scheme is left to docs/javascripts/lab.js, which also follows the reader's toggles;
// - a check() report made while the exercise's answer cell had an edit not run says so;
// - a notebook that replays a shared run runs its cells as it opens;
// - on a phone, the notebook app's header stays hidden and the playground opens one document;
// - a text timeline printed in an output keeps its lines whole and scrolls sideways as one block.
(function () {
  "use strict";

  const SAVE_EVERY_MS = 1000;

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async function appRestored() {
    while (!(window.jupyterapp && window.jupyterapp.commands && window.jupyterapp.shell)) await sleep(100);
    await window.jupyterapp.restored;
    return window.jupyterapp;
  }

  // One save at a time: JupyterLab's own autosave (switched off in overrides.json) starts its
  // next save on a timer whether or not the last one finished, and on a busy machine a save
  // takes longer than a second; two saves in flight then look to JupyterLab like someone else
  // changed the file, and it asks the learner to overwrite or revert.
  // The lesson page (docs/javascripts/lab.js) asks for a save when the learner leaves, before
  // a Retry and before a download: through the same chain, so that its save cannot overlap
  // this one's and write an older copy last.
  let chain = Promise.resolve();

  // JupyterLab takes the document's content when a save starts and marks the document clean
  // when the save ends: whatever the learner typed while the save was in flight is then
  // marked saved, and is lost with the tab (the last keystrokes of a line typed during a slow
  // save). So each save's content is noted when it starts (JupyterLab's "started" signal comes
  // just before it reads the model) and compared when it ends: a document that changed since
  // is marked unsaved again, and the next save takes it.
  const watched = new WeakSet();

  function keepDirtyHonest(context) {
    if (watched.has(context)) return;
    watched.add(context);
    let savedText = null;
    context.saveState.connect((_, state) => {
      const model = context.model;
      if (!model || model.isDisposed) return;
      if (state === "started") savedText = model.toString();
      else if (state === "completed" && savedText !== null && model.toString() !== savedText) model.dirty = true;
    });
  }

  function unsavedDocuments(app) {
    const found = [];
    for (const widget of app.shell.widgets("main")) {
      const context = widget.context;
      const model = context && context.model;
      if (!model || model.readOnly || !context.isReady) continue;
      if (!(context.contentsModel && context.contentsModel.writable)) continue;
      keepDirtyHonest(context);
      if (model.dirty) found.push(context);
    }
    return found;
  }

  // A bounded number of rounds: a learner typing without pause keeps the document dirty, and
  // the next round (a second later) takes the rest.
  const ROUNDS_PER_SAVE = 3;

  function saveDirty(app) {
    chain = chain.then(async () => {
      for (let round = 0; round < ROUNDS_PER_SAVE; round++) {
        const contexts = unsavedDocuments(app);
        if (!contexts.length) return;
        for (const context of contexts) {
          try {
            await context.save();
          } catch (error) {
            console.warn("Fault Lines: the notebook could not be saved in this browser.", error);
            return;
          }
        }
      }
    });
    return chain;
  }

  async function keepSaving(app) {
    window.faultLinesSaveNow = () => saveDirty(app);
    for (;;) {
      await sleep(SAVE_EVERY_MS);
      await saveDirty(app);
    }
  }

  // Material keeps the reader's choice in localStorage under "<site root path>.__palette"; the
  // lite apps sit two folders below the site root (lite/lab/, lite/notebooks/).
  function readerIsDark() {
    try {
      const root = new URL("../../", window.location.href).pathname;
      const palette = JSON.parse(window.localStorage.getItem(root + ".__palette") || "null");
      if (palette && palette.color && palette.color.scheme) return palette.color.scheme === "slate";
    } catch (error) {
      // No storage (private mode) or a value Material did not write: fall back to the system.
    }
    return window.matchMedia("(prefers-color-scheme: dark)").matches;
  }

  async function followReaderScheme(app) {
    // After the restore: a theme change during start-up shows the splash screen again.
    const theme = readerIsDark() ? "JupyterLab Dark" : "JupyterLab Light";
    if (document.body.dataset.jpThemeName !== theme && app.commands.hasCommand("apputils:change-theme")) {
      await app.commands.execute("apputils:change-theme", { theme: theme });
    }
  }

  // check() grades what the kernel holds: each cell as it last ran. An edit the learner made
  // and did not run is on screen only, where the kernel cannot see it; JupyterLab can (a code
  // cell's model is `isDirty` while its source differs from the code it last ran). So a report
  // that appears while the answer cell (tagged by the build: hooks/site_build/exercise_pages.py)
  // is dirty says so at its top, at once, before the learner reads the verdict.
  const ANSWER_TAG = "answer";
  const UNRUN_CLASS = "fl-report__unrun";
  const UNRUN_TEXT = "Your answer cell has an edit you have not run: this check graded the cell as it " +
    "last ran. Run the answer cell, then check again.";

  function tagsOf(model) {
    const tags = model.getMetadata ? model.getMetadata("tags") : null;
    return Array.isArray(tags) ? tags : [];
  }

  function unrunAnswer(app, node) {
    for (const widget of app.shell.widgets("main")) {
      if (!widget.content || !widget.content.widgets || !widget.node.contains(node)) continue;
      return widget.content.widgets.some((cell) =>
        cell.model.type === "code" && tagsOf(cell.model).includes(ANSWER_TAG) && cell.model.isDirty);
    }
    return false;
  }

  function flagIfUnrun(app, report) {
    if (report.querySelector(`.${UNRUN_CLASS}`) || !unrunAnswer(app, report)) return;
    const note = document.createElement("p");
    note.className = UNRUN_CLASS;
    note.setAttribute("role", "note");
    note.style.cssText = "color:#b3261e;font-weight:bold";
    note.textContent = UNRUN_TEXT;
    report.prepend(note);
  }

  function flagUnrunChecks(app) {
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          const reports = node.classList.contains("fl-report") ? [node] : node.getElementsByClassName("fl-report");
          for (const report of [...reports]) flagIfUnrun(app, report);
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  }

  // A notebook made to replay a shared run (docs/javascripts/exercises.js marks it
  // fault_lines.run_on_open) runs its cells as it opens, once per opening: a shared run opens
  // replaying, in the replay page's lab and in the playground. Run-all acts on the current
  // notebook, and does nothing before its file is loaded and its session exists (the kernel
  // may still be starting: the cells wait for it).
  const opened = new WeakSet();

  function runOnOpen(app, panel) {
    if (opened.has(panel) || !panel.context || !panel.context.isReady || !panel.sessionContext) return;
    const meta = panel.model && panel.model.getMetadata ? panel.model.getMetadata("fault_lines") : null;
    opened.add(panel);
    if (!meta || !meta.run_on_open) return;
    panel.sessionContext.ready.then(async () => {
      if (panel.isDisposed) return;
      if (app.shell.currentWidget !== panel) app.shell.activateById(panel.id);
      await app.commands.execute("notebook:run-all-cells");
    }).catch((error) => console.warn("Fault Lines: the replay did not run by itself.", error));
  }

  async function runReplaysOnOpen(app) {
    for (;;) {
      for (const widget of app.shell.widgets("main")) runOnOpen(app, widget);
      await sleep(250);
    }
  }

  // On a phone the notebook app's header (JupyterLite's logo and the notebook's name) is one
  // more bar over the notebook. Its "automatic" setting hides it only when the screen's format
  // changes, which on some starts comes before the app reads its settings (and shows it
  // again): so here it stays hidden whenever it shows on a narrow screen. The playground (the
  // lab app) opened on its own on a phone gets one document at a time, its file browser closed,
  // as docs/javascripts/lab.js does for the one embedded in a page.
  const NARROW = window.matchMedia("(max-width: 600px)");

  function fitToPhone(app) {
    const shell = app.shell;
    if (shell.collapseTop && shell.top) {
      const keepHidden = () => {
        if (NARROW.matches && shell.top.isVisible) shell.collapseTop();
      };
      new MutationObserver(keepHidden).observe(shell.top.node, { attributes: true, attributeFilter: ["class"] });
      keepHidden();
    } else if (NARROW.matches && window.parent === window) {
      if (shell.collapseLeft) shell.collapseLeft();
      if ("mode" in shell) shell.mode = "single-document";
    }
  }

  // A text timeline printed in a cell (faultlines.timeline.render_text: a "t (s)" axis line,
  // then a line per worker) is a picture in characters: JupyterLab wraps an output's long lines,
  // which on a phone broke each lane in the middle. Such an output keeps its lines whole and
  // scrolls sideways as one block (lab_page.css, .fl-text-lanes).
  const TEXT_LANES = /^t \(s\) +0/m;

  function markTextLanes(scope) {
    for (const pre of scope.querySelectorAll('.jp-RenderedText[data-mime-type="application/vnd.jupyter.stdout"] pre')) {
      if (!pre.classList.contains("fl-text-lanes") && TEXT_LANES.test(pre.textContent)) {
        pre.classList.add("fl-text-lanes");
        pre.tabIndex = 0; // a box that scrolls is reachable by keyboard
      }
    }
  }

  function keepTextLanesWhole() {
    markTextLanes(document.body);
    // Text arriving in an output, and whole cells attached again (the notebook renders only the
    // cells near the view, and an output rendered while its cell was detached was never seen).
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement;
        const output = target && target.closest(".jp-OutputArea");
        if (output) markTextLanes(output);
        for (const node of record.addedNodes) {
          if (node.nodeType === Node.ELEMENT_NODE && !output) markTextLanes(node);
        }
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }

  appRestored()
    .then((app) => {
      flagUnrunChecks(app);
      keepTextLanesWhole();
      fitToPhone(app);
      runReplaysOnOpen(app);
      if (window.parent === window) {
        followReaderScheme(app).catch((error) => console.warn("Fault Lines: the lab kept its own scheme.", error));
      }
      return keepSaving(app);
    })
    .catch((error) => console.warn("Fault Lines: the lab page helper stopped.", error));
})();
