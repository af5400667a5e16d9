// Loaded by the lite apps' pages (hooks/lite_build.py adds it to lab/ and notebooks/index.html):
// a lab opened full screen ("Open in the playground", "Open it full screen") takes the light or
// dark scheme the reader chose on the course site. Embedded in a lesson page, the lab is left
// to docs/javascripts/lab.js, which also follows the reader's toggles.
(function () {
  "use strict";
  if (window.parent !== window) return;

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

  async function follow() {
    while (!(window.jupyterapp && window.jupyterapp.commands)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const app = window.jupyterapp;
    // After the restore: a theme change during start-up shows the splash screen again.
    await app.restored;
    const theme = readerIsDark() ? "JupyterLab Dark" : "JupyterLab Light";
    if (document.body.dataset.jpThemeName !== theme && app.commands.hasCommand("apputils:change-theme")) {
      await app.commands.execute("apputils:change-theme", { theme: theme });
    }
  }

  follow().catch((error) => console.warn("Fault Lines: the lab kept its own colour scheme.", error));
})();
