// Lesson figures (hooks/site_build/lesson_figures.py) on a narrow screen: a figure shown narrower than
// it was drawn shrinks its labels with it. When its smallest text (data-smallest-text-px, at the
// drawn width) would show under MIN_TEXT_PX, a tap opens it at its drawn size in a dialog that
// scrolls sideways. Each figure has one image per colour scheme; only the shown one has a width.
(function () {
  "use strict";

  const MIN_TEXT_PX = 8;
  const FALLBACK_SCALE = 0.8; // a figure without the attribute: 10 px labels stay at 8 px

  function drawnWidth(img) {
    return Number(img.getAttribute("width")) || img.naturalWidth;
  }

  function minScale(img) {
    const smallest = Number(img.dataset.smallestTextPx);
    return smallest > 0 ? MIN_TEXT_PX / smallest : FALLBACK_SCALE;
  }

  function tooSmall(img) {
    return img.clientWidth > 0 && img.clientWidth < minScale(img) * drawnWidth(img);
  }

  function dialogFor(img) {
    const dialog = document.createElement("dialog");
    dialog.className = "fl-figure-dialog";
    dialog.setAttribute("aria-label", "Enlarged figure");
    const close = document.createElement("button");
    close.type = "button";
    close.className = "md-button md-button--primary fl-figure-dialog__close";
    close.textContent = "Close";
    close.addEventListener("click", () => dialog.close());
    const scroller = document.createElement("div");
    scroller.className = "fl-figure-dialog__scroller";
    const large = img.cloneNode();
    large.removeAttribute("loading");
    large.style.width = drawnWidth(img) + "px";
    large.style.maxWidth = "none";
    scroller.appendChild(large);
    dialog.append(close, scroller);
    dialog.addEventListener("close", () => dialog.remove());
    return dialog;
  }

  function enlarge(img) {
    if (!tooSmall(img)) return;
    const dialog = dialogFor(img);
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  function setUp(img) {
    const mark = () => {
      const small = tooSmall(img);
      img.classList.toggle("fl-figure--enlargeable", small);
      if (small) {
        img.setAttribute("role", "button");
        img.setAttribute("tabindex", "0");
        img.setAttribute("title", "Tap to enlarge");
      } else {
        img.removeAttribute("role");
        img.removeAttribute("tabindex");
        img.removeAttribute("title");
      }
    };
    img.addEventListener("click", () => enlarge(img));
    img.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        enlarge(img);
      }
    });
    if (window.ResizeObserver) new ResizeObserver(mark).observe(img);
    img.addEventListener("load", mark);
    mark();
  }

  document.querySelectorAll(".fl-figure img").forEach(setUp);
})();
