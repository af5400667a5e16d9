// The Fault Lines debugger's front end: moves the cursor of every debugger view on the page.
//
// The view's HTML comes from faultlines/debugger/render.py, with its data in a JSON script
// element: for each event its time, what happened, the learner's line, and the state-table rows
// it changed. This script replays those changes up to the cursor; it holds no knowledge of the
// cluster itself. It runs in three places: the site's lab (loaded by the lab's page, see
// hooks/site_build/lite_build.py, and applied to each debugger as its output appears), a local
// Jupyter (the notebook displays it once), and the standalone page `replay --html` writes, where
// "Remove fault" switches between runs precomputed into the page.
(function () {
  "use strict";
  if (window.faultLinesDebugger) return;

  const LOG_LINES = 10; // as render.py's LOG_LINES

  function clamp(i, n) {
    return Math.max(0, Math.min(n - 1, i));
  }

  function rowsOf(tables, name) {
    return Object.values(tables[name] || {});
  }

  function fillTable(table, rows) {
    const body = table.tBodies[0];
    body.replaceChildren(
      ...rows.map((cells) => {
        const tr = document.createElement("tr");
        for (const text of cells) {
          const td = document.createElement("td");
          td.textContent = text;
          tr.appendChild(td);
        }
        return tr;
      })
    );
    table.hidden = rows.length === 0;
  }

  function setup(root) {
    if (root.dataset.flDbgReady) return;
    root.dataset.flDbgReady = "1";
    const holder = root.querySelector(".fl-dbg-data");
    if (!holder) return;
    const data = JSON.parse(holder.textContent);
    const n = data.n;
    const events = data.events; // [time, text, code, noise, fault, changes]
    const $ = (selector) => root.querySelector(selector);
    const slider = $(".fl-dbg-slider");
    const status = $(".fl-dbg-status");
    const code = $(".fl-dbg-code");
    const log = $(".fl-dbg-log");
    const plot = $(".fl-dbg-plot");
    const cursor = $(".fl-dbg-cursor");
    const later = $(".fl-dbg-later");
    const rows = Array.from(root.querySelectorAll(".fl-dbg-events tbody tr"));
    const tables = Array.from(root.querySelectorAll(".fl-dbg-table"));
    const region = root.closest(".fl-debugger-box") || root.closest(".fl-debugger") || root;
    if (!region.getAttribute("role")) {
      region.setAttribute("role", "region");
      region.setAttribute("aria-label", "Debugger");
    }
    let at = data.start;

    function stateAt(index) {
      const state = {};
      for (let i = 0; i <= index; i++) {
        for (const [table, key, row] of events[i][5]) {
          const t = state[table] || (state[table] = {});
          if (row === null) delete t[key];
          else t[key] = row;
        }
      }
      return state;
    }

    // The axis may hold more events than the run (a longer passing run drawn under it).
    const span = plot ? Number(plot.dataset.span || n) : n;

    function xOf(position) {
      const left = Number(plot.getAttribute("x"));
      const width = Number(plot.getAttribute("width"));
      return left + (position / span) * width;
    }

    // Where the chart is wider than its box (always on a phone) it scrolls sideways, and its
    // label column (pinned.py: .fl-dbg-pin) moves with the scroll so that it stays put.
    const lanesBox = $(".fl-dbg-lanes");
    const pin = root.querySelector(".fl-dbg-pin");
    function pinWidth() {
      const column = pin && pin.querySelector(".fl-dbg-pin-column");
      return column ? column.getBoundingClientRect().width : 0;
    }
    function pinToBox() {
      const svg = pin.ownerSVGElement;
      const scale = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width || 1;
      pin.setAttribute("transform", `translate(${(lanesBox.scrollLeft * scale).toFixed(1)},0)`);
    }
    if (lanesBox && pin) lanesBox.addEventListener("scroll", pinToBox, { passive: true });

    // Keep the cursor inside the box, right of the label column.
    function keepInView(line) {
      if (!lanesBox || lanesBox.scrollWidth <= lanesBox.clientWidth) return;
      const box = lanesBox.getBoundingClientRect();
      const x = line.getBoundingClientRect().left;
      const margin = 40;
      if (x < box.left + pinWidth() + margin) lanesBox.scrollLeft -= box.left + pinWidth() + margin - x;
      else if (x > box.right - margin) lanesBox.scrollLeft += x - (box.right - margin);
    }

    // On opening, the decisive event is in view: the broken invariant's line and its whole
    // label, from just right of the label column.
    // Ticked, Compare brings where the runs part into view the same way, with that moment.
    function reveal(selectors) {
      const marks = selectors.map((selector) => root.querySelector(selector)).filter(Boolean);
      if (!lanesBox || !marks.length || lanesBox.scrollWidth <= lanesBox.clientWidth) return;
      const box = lanesBox.getBoundingClientRect();
      const from = Math.min(...marks.map((mark) => mark.getBoundingClientRect().left));
      lanesBox.scrollLeft += from - (box.left + pinWidth() + 12);
    }
    const revealViolation = () => reveal([".fl-dbg-bad-ink", ".fl-dbg-bad-line"]);

    function show(index) {
      at = clamp(index, n);
      const [time, text, line] = events[at];
      const when = `${time.toFixed(3)} s`;
      slider.value = String(at + 1);
      slider.setAttribute("aria-valuetext", `${when}, event ${at + 1} of ${n}`);
      status.textContent = `Event ${at + 1} of ${n} at ${when}: ${text}`;
      code.hidden = !line;
      code.querySelector("code").textContent = line;
      if (plot && cursor) {
        const x = xOf(at + 0.5).toFixed(1);
        cursor.setAttribute("x1", x);
        cursor.setAttribute("x2", x);
        const from = xOf(at + 1);
        const right = Number(plot.getAttribute("x")) + Number(plot.getAttribute("width"));
        later.setAttribute("x", from.toFixed(1));
        later.setAttribute("width", Math.max(0, right - from).toFixed(1));
        keepInView(cursor);
      }
      const state = stateAt(at);
      for (const table of tables) fillTable(table, rowsOf(state, table.dataset.table));
      const shown = [];
      for (let i = at; i >= 0 && shown.length < LOG_LINES; i--) if (!events[i][3]) shown.unshift(i);
      log.replaceChildren(
        ...shown.map((i) => {
          const li = document.createElement("li");
          li.value = i + 1;
          li.textContent = `${events[i][0].toFixed(3)} s: ${events[i][1]}`;
          return li;
        })
      );
      rows.forEach((tr, i) => {
        tr.classList.toggle("fl-dbg-current", i === at);
        tr.classList.toggle("fl-dbg-later-row", i > at);
        if (i === at) tr.setAttribute("aria-current", "true");
        else tr.removeAttribute("aria-current");
      });
    }

    slider.addEventListener("input", () => show(Number(slider.value) - 1));
    $(".fl-dbg-prev").addEventListener("click", () => show(at - 1));
    $(".fl-dbg-next").addEventListener("click", () => show(at + 1));

    // The lab's own shortcuts listen on the document and skip a key whose default was prevented
    // (JupyterLab's command registry): taking the key here keeps ← → Home End for the cursor.
    region.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target;
      if (target.closest && target.closest("textarea, select, [contenteditable], input:not([type=range]):not([type=checkbox])")) {
        return; // a number being typed keeps its own caret keys
      }
      const onSlider = target === slider;
      const moves = {
        ArrowLeft: at - 1,
        ArrowRight: at + 1,
        Home: 0,
        End: n - 1,
        ArrowDown: onSlider ? at - 1 : null,
        ArrowUp: onSlider ? at + 1 : null,
        PageDown: onSlider ? at - 10 : null,
        PageUp: onSlider ? at + 10 : null,
      };
      const to = moves[event.key];
      if (to === undefined || to === null) return;
      event.preventDefault();
      event.stopPropagation();
      show(to);
    });

    if (plot) {
      const svg = plot.ownerSVGElement;
      svg.addEventListener("click", (event) => {
        if (event.target.closest && event.target.closest(".fl-dbg-pin")) return; // a row's name
        const point = svg.createSVGPoint();
        point.x = event.clientX;
        point.y = event.clientY;
        const local = point.matrixTransform(svg.getScreenCTM().inverse());
        const left = Number(plot.getAttribute("x"));
        const width = Number(plot.getAttribute("width"));
        if (local.x < left || local.x > left + width) return;
        show(Math.floor(((local.x - left) / width) * span));
      });
    }

    const compare = $(".fl-dbg-compare");
    const diff = $(".fl-dbg-diff");
    const ghosts = root.querySelectorAll(".fl-dbg-ghost");
    if (compare && data.compare && diff) {
      compare.addEventListener("change", () => {
        for (const ghost of ghosts) ghost.setAttribute("visibility", compare.checked ? "visible" : "hidden");
        diff.textContent = data.compare.sentence;
        diff.hidden = !compare.checked;
        if (compare.checked) reveal([".fl-dbg-differ text", ".fl-dbg-differ line", ".fl-dbg-bad-line"]);
      });
    }
    show(at);
    revealViolation();
  }

  // A what-if re-run in the lab redraws the view, then the verdict above it, and the button that
  // was clicked is gone: focus the new verdict (a screen reader reads it) rather than lose focus.
  function noteHead(head) {
    if (head.dataset.flDbgSeen) return;
    head.dataset.flDbgSeen = "1";
    const region = head.closest(".fl-debugger-box");
    if (!region) return;
    const seen = Number(region.dataset.flDbgHeads || 0);
    region.dataset.flDbgHeads = String(seen + 1);
    if (seen > 0 && (!document.activeElement || document.activeElement === document.body)) {
      focusVerdict(head);
    }
  }

  function focusVerdict(region) {
    const verdict = region.querySelector(".fl-dbg-verdict");
    if (!verdict) return;
    verdict.setAttribute("tabindex", "-1");
    verdict.focus();
  }

  // The standalone page: "Remove fault ..." shows a run precomputed into the page.
  function wireVariants(box) {
    if (box.dataset.flVariantsReady) return;
    box.dataset.flVariantsReady = "1";
    box.addEventListener("click", (event) => {
      const button = event.target.closest && event.target.closest("[data-fl-variant]");
      if (!button) return;
      const template = box.ownerDocument.querySelector(`template[data-fl-variant-key="${button.dataset.flVariant}"]`);
      if (!template) return;
      const live = box.querySelector(".fl-debugger-body");
      live.replaceChildren(template.content.cloneNode(true));
      enhance(live);
      focusVerdict(live);
    });
  }

  function enhance(scope) {
    scope.querySelectorAll(".fl-dbg").forEach(setup);
    scope.querySelectorAll(".fl-dbg-head").forEach(noteHead);
    scope.querySelectorAll(".fl-debugger[data-fl-variants]").forEach(wireVariants);
  }

  let pending = false;
  function soon() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      enhance(document);
    });
  }

  window.faultLinesDebugger = { enhance: enhance, version: 1 };
  if (document.body) enhance(document);
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.nodeType === 1 && (node.matches(".fl-dbg, .fl-dbg-head") || node.querySelector(".fl-dbg, .fl-dbg-head"))) {
          soon();
          return;
        }
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
