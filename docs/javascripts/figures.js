// Lesson figures (hooks/site_build/lesson_figures.py) on a narrow screen: a figure shown narrower than
// it was drawn shrinks its labels with it (about 9 px on a 390 px phone). When its smallest text
// (data-smallest-text-px, at the drawn width) would show under READABLE_PX, the figure offers an
// enlarged view (a tap on it, or its "Enlarge" button): a dialog that shows it with its smallest
// text at ENLARGED_PX or more, scrolling sideways. Each figure has one image per colour scheme;
// only the shown one has a width.
(function () {
  "use strict";

  const READABLE_PX = 11;
  const ENLARGED_PX = 12;
  const FALLBACK_SMALLEST_PX = 10; // a figure without the attribute

  function drawnWidth(img) {
    return Number(img.getAttribute("width")) || img.naturalWidth;
  }

  function smallestAtDrawnWidth(img) {
    const smallest = Number(img.dataset.smallestTextPx);
    return smallest > 0 ? smallest : FALLBACK_SMALLEST_PX;
  }

  function tooSmall(img) {
    return img.clientWidth > 0 && img.clientWidth * smallestAtDrawnWidth(img) < READABLE_PX * drawnWidth(img);
  }

  // At its drawn width, or wider where that still shows text under ENLARGED_PX.
  function enlargedWidth(img) {
    return Math.ceil(drawnWidth(img) * Math.max(1, ENLARGED_PX / smallestAtDrawnWidth(img)));
  }

  function dialogFor(img) {
    const dialog = document.createElement("dialog");
    dialog.className = "fl-figure-dialog md-typeset"; // Material styles .md-button only in .md-typeset
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
    large.style.width = enlargedWidth(img) + "px";
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

  // A button under the figure says it can be enlarged (a tap on an image is not a thing a
  // reader knows to try); one per figure, for whichever scheme's image is shown.
  function enlargeButton(img) {
    const figure = img.closest(".fl-figure");
    let button = figure.querySelector(".fl-figure__enlarge");
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "fl-figure__enlarge";
      button.textContent = "Enlarge the figure";
      button.hidden = true;
      button.addEventListener("click", () => {
        const shown = [...figure.querySelectorAll("img")].find((candidate) => candidate.clientWidth > 0);
        if (shown) enlarge(shown);
      });
      figure.insertBefore(button, figure.querySelector("figcaption"));
    }
    return button;
  }

  function setUp(img) {
    const button = enlargeButton(img);
    const mark = () => {
      const small = tooSmall(img);
      if (img.clientWidth > 0) button.hidden = !small;
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
