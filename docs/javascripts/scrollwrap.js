// A wide table on a phone scrolls sideways inside Material's .md-typeset__scrollwrap. A keyboard
// user must be able to reach and scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable),
// so each wrapper joins the tab order as a labelled region.
(() => {
  const label = () => {
    for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])")) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", "Table (scrolls sideways)");
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", label);
  else label();
})();
