// Loaded by the lite apps' pages (hooks/site_build/lite_build.py adds it to lab/ and notebooks/index.html),
// embedded in a lesson or opened full screen:
// - it keeps the learner's notebooks saved in the browser, a second after each change, so that
//   a reload or a closed tab loses nothing (learners do not press Ctrl+S in a page that looks
//   like a document);
// - opened full screen ("Open in the playground", "Open it full screen"), the lab takes the
//   light or dark scheme the reader chose on the course site. Embedded in a lesson page, the
//   scheme is left to docs/javascripts/lab.js, which also follows the reader's toggles.
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
  // The lesson page (docs/javascripts/lab.js) asks for a save when the learner leaves and
  // before a Retry: through the same chain, so that its save cannot overlap this one's and
  // write an older copy last.
  let chain = Promise.resolve();

  function saveDirty(app) {
    chain = chain.then(async () => {
      for (const widget of app.shell.widgets("main")) {
        const context = widget.context;
        const model = context && context.model;
        if (!model || !model.dirty || model.readOnly || !context.isReady) continue;
        if (!(context.contentsModel && context.contentsModel.writable)) continue;
        try {
          await context.save();
        } catch (error) {
          console.warn("Fault Lines: the notebook could not be saved in this browser.", error);
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

  appRestored()
    .then((app) => {
      if (window.parent === window) {
        followReaderScheme(app).catch((error) => console.warn("Fault Lines: the lab kept its own scheme.", error));
      }
      return keepSaving(app);
    })
    .catch((error) => console.warn("Fault Lines: the lab page helper stopped.", error));
})();
