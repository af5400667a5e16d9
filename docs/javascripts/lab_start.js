// What a started lab is doing, in words and with a progress bar (the panel's bar and, while the
// notebook is not yet on screen, the cover over its frame; hooks/site_build/lab_panel.py):
// "Loading the lab", "Downloading Python: 4.1 of 9.8 MB", "Starting Python", "Restoring your
// notebook", then the kernel's own status ("Python is ready", "Python is running your code").
//
// The kernel boots in a worker out of this page's sight: its loader (playground/kernel_boot.mjs)
// posts its phases and bytes on LAB_CHANNEL. The notebook app is in a same-origin iframe,
// read directly. The iframe stays hidden behind the cover until its notebook shows in the page's
// light or dark scheme, so a dark page never flashes a white frame.
window.FaultLinesLabStart = (function () {
  "use strict";

  const LAB_CHANNEL = "fault-lines-lab"; // playground/kernel_boot.mjs
  const POLL_MS = 100;
  // The frame is shown whatever happens after this long: a lab that never says it is ready
  // (a JupyterLite that changed) must still be usable, only without the tidy start.
  const REVEAL_ANYWAY_MS = 120000;
  const MB = 1e6;
  // The kernel's deferred pack (modules its start leaves out, jedi's type stubs: kernel_boot.mjs)
  // is fetched into the browser's cache this long after the learner starts the lab, unless they
  // asked to save data: a lab prepared while they read and never started costs no more bytes.
  const DEFERRED_FETCH_MS = 10000;

  const starts = new Map(); // panel -> its start's state

  function pageIsDark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  function megabytes(bytes) {
    return (bytes / MB).toFixed(1);
  }

  function appOf(frame) {
    try {
      return frame.contentWindow && frame.contentWindow.jupyterapp;
    } catch (error) {
      return null;
    }
  }

  function kernelOf(app) {
    try {
      const panel = app.shell.currentWidget;
      const session = panel && panel.sessionContext && panel.sessionContext.session;
      return session && session.kernel;
    } catch (error) {
      return null;
    }
  }

  // The kernel's own status once it has run ("starting" and "unknown" are the boot's to tell).
  const KERNEL_WORDS = {
    idle: "Python is ready",
    busy: "Python is running your code",
    restarting: "Python is restarting",
    autorestarting: "Python is restarting",
    dead: "Python stopped: restart it from the Kernel menu",
  };

  function kernelSpeaks(state) {
    return state.shown && Object.hasOwn(KERNEL_WORDS, state.kernelStatus || "");
  }

  // The words, the bytes and the bar's fill (null: a bar that only says "working").
  function describe(state) {
    if (kernelSpeaks(state)) {
      return { words: KERNEL_WORDS[state.kernelStatus], bytes: "", fill: state.kernelStatus === "idle" ? 1 : null };
    }
    const boot = state.boot;
    const downloading = boot.total > 0 && boot.loaded < boot.total && !boot.python && !boot.ready;
    if (downloading) {
      return {
        words: "Downloading Python",
        bytes: `: ${megabytes(boot.loaded)} of ${megabytes(boot.total)} MB`,
        fill: boot.loaded / boot.total,
      };
    }
    if (boot.ready && !state.shown) return { words: "Restoring your notebook", bytes: "", fill: null };
    if (boot.total > 0 || boot.python || boot.waiting || state.shown) {
      return { words: "Starting Python", bytes: "", fill: null };
    }
    // The app is up and Python has not spoken yet: still loading the lab. (This said "Restoring
    // your notebook", which then came again after "Starting Python", where it belongs.)
    return { words: "Loading the lab", bytes: "", fill: null };
  }

  function paint(panel, state) {
    const { words, bytes, fill } = describe(state);
    const phase = panel.querySelector(".fl-lab__phase");
    // Only the words are announced (role="status"): the bytes change several times a second.
    if (phase.textContent !== words) phase.textContent = words;
    panel.querySelector(".fl-lab__bytes").textContent = bytes;
    panel.querySelector(".fl-lab__cover-text").textContent = words + bytes;
    for (const meter of panel.querySelectorAll(".fl-lab__meter, .fl-lab__cover-meter")) {
      if (fill === null) meter.removeAttribute("value");
      else meter.value = Math.min(1, fill);
    }
    panel.dataset.labPhase = words;
  }

  function reveal(panel, frame) {
    frame.classList.remove("fl-lab__iframe--hidden");
    panel.classList.remove("fl-lab--covered");
  }

  // The notebook is on screen, in the page's scheme (lab.js switches JupyterLab's theme once
  // the app is restored): the frame can be shown without a flash.
  function readyToShow(panel, app, frame) {
    try {
      const body = frame.contentDocument.body;
      const theme = pageIsDark() ? "JupyterLab Dark" : "JupyterLab Light";
      if (!app.shell || body.dataset.jpThemeName !== theme) return false;
      if (panel.dataset.app === "lab") return true;
      return Boolean(frame.contentDocument.querySelector(".jp-Notebook .jp-Cell"));
    } catch (error) {
      return false;
    }
  }

  // The kernel's status from its own signal too: a run shorter than the poll's interval still
  // says "Python is running your code" while it runs, however briefly.
  const followed = new WeakSet();
  function follow(panel, state, kernel) {
    if (!kernel || !kernel.statusChanged || followed.has(kernel)) return;
    followed.add(kernel);
    kernel.statusChanged.connect((_, status) => {
      if (starts.get(panel) !== state) return; // a Retry began another start
      state.kernelStatus = status;
      paint(panel, state);
    });
  }

  function watch(panel, frame, state) {
    const started = Date.now();
    const tick = () => {
      if (starts.get(panel) !== state) return; // a Retry began another start
      const app = appOf(frame);
      if (app) {
        if (!state.restored && app.restored) {
          app.restored.then(() => (state.restored = true));
        }
        if (!state.shown && state.restored && readyToShow(panel, app, frame)) state.shown = true;
        const kernel = kernelOf(app);
        state.kernelStatus = kernel ? kernel.status : null;
        follow(panel, state, kernel);
      }
      if (!state.shown && Date.now() - started > REVEAL_ANYWAY_MS) state.shown = true;
      fetchDeferredOnceUsed(panel, state);
      if (state.shown) reveal(panel, frame);
      paint(panel, state);
      setTimeout(tick, state.kernelStatus === "idle" ? 4 * POLL_MS : POLL_MS);
    };
    tick();
  }

  function fetchDeferredOnceUsed(panel, state) {
    if (!state.deferred || state.deferredFetched || !panel.classList.contains("fl-lab--started")) return;
    state.startedAt = state.startedAt || Date.now();
    if (Date.now() - state.startedAt < DEFERRED_FETCH_MS) return;
    state.deferredFetched = true;
    if (navigator.connection && navigator.connection.saveData) return;
    fetch(state.deferred).then((response) => response.arrayBuffer()).catch(() => {});
  }

  // A lab's frame was made ("Start the lab", or a start while the learner reads, which lab.js
  // shows on the click): follow its start, and keep the frame hidden until it shows its notebook.
  function begin(panel, frame) {
    const state = { boot: { loaded: 0, total: 0 }, restored: false, shown: false, kernelStatus: null };
    starts.set(panel, state);
    panel.classList.add("fl-lab--covered");
    frame.classList.add("fl-lab__iframe--hidden");
    paint(panel, state);
    watch(panel, frame, state);
  }

  // The kernel could not start: the failure notice speaks; show whatever the frame has.
  function fail(panel) {
    const state = starts.get(panel);
    const frame = panel.querySelector(".fl-lab__iframe");
    if (state) state.shown = true;
    if (frame) reveal(panel, frame);
  }

  // A boot's report (from the kernel's loader, or this page's own warm-up): the kernel's own
  // reports win once it has spoken; before that, a warm-up it waits for is its start too.
  function hear(message, fromWarmUp) {
    for (const [panel, state] of starts) {
      if (message.deferred && !fromWarmUp) state.deferred = message.deferred;
      if (kernelSpeaks(state)) continue;
      if (fromWarmUp && state.boot.fromKernel && !state.boot.waiting) continue;
      const boot = state.boot;
      if (!fromWarmUp) boot.fromKernel = true;
      if (message.phase === "waiting") boot.waiting = true;
      if (typeof message.total === "number" && message.total > 0) {
        boot.total = message.total;
        boot.loaded = message.loaded;
      }
      if (message.phase === "python") boot.python = true;
      if (message.phase === "ready") boot.ready = true;
      paint(panel, state);
    }
  }

  if (window.BroadcastChannel) {
    new BroadcastChannel(LAB_CHANNEL).addEventListener("message", (event) => {
      const data = event.data;
      if (data && data.type === "kernel-progress") hear(data, data.who === "warm-up");
    });
  }

  return { begin, fail, hear };
})();
