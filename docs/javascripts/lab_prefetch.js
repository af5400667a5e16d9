// Lab panels (hooks/site_build/lab_panel.py): the lab's start is made ready before the learner
// presses "Start the lab", so that the click finds it done. The quiet line under the buttons
// says how far it is ("Preparing Python in the background: 4.1 of 9.8 MB", "Python is ready").
(function () {
  "use strict";

  const MB = 1e6;

  function say(panel, text) {
    const line = panel.querySelector(".fl-lab__warm");
    if (!line) return;
    const started = panel.classList.contains("fl-lab--started"); // the panel's bar speaks then
    line.hidden = started || !text;
    if (line.textContent !== text) line.textContent = text;
  }

  function sayProgress(panel, report) {
    if (report.phase === "download" && report.total > 0 && report.loaded < report.total) {
      say(panel, `Preparing Python in the background: ${(report.loaded / MB).toFixed(1)} of ${(report.total / MB).toFixed(1)} MB`);
    } else if (report.phase === "download" || report.phase === "python") {
      say(panel, "Preparing Python in the background");
    }
  }

  const KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel";
  let prefetched = false;

  // Fetch the kernel's files (lite/prefetch.json, most of a cold start's download) into the
  // browser's cache.
  function prefetchFiles(lite, paths) {
    for (const path of paths) {
      const link = document.createElement("link");
      link.rel = "prefetch";
      link.href = new URL(path, lite).href;
      document.head.appendChild(link);
    }
  }

  // Better: make the kernel's snapshot (playground/kernel_boot.mjs, prepareWarmStart) in a
  // worker of its own. Having the files is not enough: most of a cold start on a slow machine
  // is Python starting and importing IPython & co, which no download saves. The warm-up
  // fetches the same files (into the same cache) and leaves the snapshot behind, once per
  // browser and build; the click's kernel then restores it, or waits for the warm-up to end
  // if it is still running. Where a worker cannot do it, or had nothing to do, the files are
  // prefetched as above.
  // Resolves to prepareWarmStart's outcome ("made", "ready", "busy", "unsupported"), "ended" if
  // the learner started the lab first, or "failed".
  async function warmUp(panel, lite, paths) {
    const loader = paths.find((path) => path.endsWith("/kernel-boot.mjs"));
    if (!loader || !window.Worker || !navigator.locks || !window.caches) return "unsupported";
    if (panel.classList.contains("fl-lab--started") || hasFrame(panel)) return "ended"; // its kernel is on its way
    const config = await (await fetch(new URL("jupyter-lite.json", lite))).json();
    const settings = config["jupyter-config-data"].litePluginSettings[KERNEL_PLUGIN];
    const loaderUrl = new URL(loader, lite).href;
    // The kernel's own options for loadPyodide (see the kernel's initRuntime), so that the
    // snapshot is the one its cold start would have made.
    const options = { indexURL: new URL(".", loaderUrl).href, ...settings.loadPyodideOptions };
    const source =
      `import { prepareWarmStart } from ${JSON.stringify(loaderUrl)};\n` +
      "self.onmessage = (event) => prepareWarmStart(event.data, () => postMessage({ python: true }), " +
      "(report) => postMessage({ report })).then(" +
      "(outcome) => postMessage({ outcome }), (error) => postMessage({ error: String(error) }));\n";
    if (panel.classList.contains("fl-lab--started")) return "ended"; // started while the config came
    const script = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    const worker = new Worker(script, { type: "module" });
    const result = await new Promise((resolve) => {
      let pythonRuns = false;
      // A learner who starts the lab before the warm-up's Python runs (it is still fetching
      // files) gets the kernel's own cold start: waiting for the warm-up and then restoring its
      // snapshot would cost more than it saves. Once its Python runs, the kernel waits for it.
      panel.querySelector(".fl-lab__start").addEventListener("click", () => {
        if (!pythonRuns) resolve({ outcome: "ended" });
      });
      worker.onmessage = (event) => {
        if (event.data.python) pythonRuns = true;
        else if (event.data.report) sayProgress(panel, event.data.report);
        else resolve(event.data);
      };
      worker.onerror = (event) => resolve({ error: event.message || "the warm-up worker failed" });
      worker.postMessage(options);
    });
    worker.terminate(); // its Python is not needed once the snapshot is stored; ends it otherwise
    URL.revokeObjectURL(script);
    if (result.error) console.warn("lab warm-up skipped:", result.error);
    if (result.outcome === "made" || result.outcome === "ready") say(panel, "Python is ready");
    else say(panel, "");
    return result.outcome || "failed";
  }

  // A lab whose frame exists already (the replay page starts its own) fetches what it needs.
  function hasFrame(panel) {
    return Boolean(panel.querySelector(".fl-lab__iframe"));
  }

  function prepareLab(panel) {
    if (prefetched || hasFrame(panel) || (navigator.connection && navigator.connection.saveData)) return;
    prefetched = true;
    const lite = new URL(panel.dataset.lite, window.location.href);
    fetch(new URL("prefetch.json", lite))
      .then((response) => (response.ok ? response.json() : []))
      .then(async (paths) => {
        if (!paths.length) return;
        let outcome = "unsupported";
        try {
          outcome = await warmUp(panel, lite, paths);
        } catch (error) {
          console.warn("lab warm-up skipped:", error);
        }
        if (panel.classList.contains("fl-lab--started")) return; // its kernel fetches the files itself
        // Python is ready in this browser: the lab itself starts, hidden (lab.js), so that the
        // click finds the notebook open and its kernel running.
        if ((outcome === "made" || outcome === "ready") && window.FaultLinesLab) window.FaultLinesLab.preload(panel);
        else prefetchFiles(lite, paths);
      })
      .catch((error) => console.warn("lab prefetch skipped:", error));
  }

  // Only for a reader who stays: someone skimming through the lessons should not pay for a
  // Python start (CPU, battery, the snapshot's storage) on every page they pass.
  const READING_MS = 3000;

  function prepareWhenInView(panel) {
    const button = panel.querySelector(".fl-lab__start");
    const whenIdle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
    const afterReading = () => setTimeout(() => whenIdle(() => prepareLab(panel)), READING_MS);
    if (!window.IntersectionObserver) {
      afterReading();
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      afterReading();
    });
    observer.observe(button);
  }

  document.querySelectorAll(".fl-lab").forEach(prepareWhenInView);
})();
