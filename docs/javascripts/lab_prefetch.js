// Lab panels (hooks/site_build/lab_panel.py): the kernel's files are fetched before the learner presses
// "Start the lab", so that the click finds them in the browser's cache.
(function () {
  "use strict";

  // Fetch the kernel's files (lite/prefetch.json, most of a cold start's download) once the
  // page is idle and a lab's button is in view, so that the click finds them in the cache.
  let prefetched = false;

  function prefetchLab(panel) {
    if (prefetched || (navigator.connection && navigator.connection.saveData)) return;
    prefetched = true;
    const lite = new URL(panel.dataset.lite, window.location.href);
    fetch(new URL("prefetch.json", lite))
      .then((response) => (response.ok ? response.json() : []))
      .then((paths) => {
        for (const path of paths) {
          const link = document.createElement("link");
          link.rel = "prefetch";
          link.href = new URL(path, lite).href;
          document.head.appendChild(link);
        }
      })
      .catch((error) => console.warn("lab prefetch skipped:", error));
  }

  function prefetchWhenInView(panel) {
    const button = panel.querySelector(".fl-lab__start");
    const whenIdle = window.requestIdleCallback || ((callback) => setTimeout(callback, 200));
    if (!window.IntersectionObserver) {
      whenIdle(() => prefetchLab(panel));
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      whenIdle(() => prefetchLab(panel));
    });
    observer.observe(button);
  }

  document.querySelectorAll(".fl-lab").forEach(prefetchWhenInView);
})();
