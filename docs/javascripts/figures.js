// Lesson figures (hooks/site_build/lesson_figures.py) on a narrow screen: a figure drawn 672 px wide shows
// its 10 px labels at about 5 px on a phone. When a figure is shown at less than MIN_SCALE of
// its drawn width, a tap opens it at its drawn size in a dialog that scrolls sideways.
(function () {
  "use strict";

  const MIN_SCALE = 0.8; // 10 px labels stay at 8 px or more

  function drawnWidth(img) {
    return Number(img.getAttribute("width")) || img.naturalWidth;
  }

  function tooSmall(img) {
    return img.clientWidth > 0 && img.clientWidth < MIN_SCALE * drawnWidth(img);
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
