"""Every page of the site, scanned with axe-core (WCAG 2.1 A and AA rules) in real Chromium, in
the light and the dark scheme, at a desktop (1280 px) and a phone (390 px) width: no serious or
critical violation. The embedded lab's own JupyterLab interface is not part of the scan (it is
JupyterLab's, in an iframe that is created only when the learner starts the lab). Each walk also
asserts that no page made a request off 127.0.0.1 or logged a console error.
"""

from __future__ import annotations

import pytest
from site_browser import REPO, without_warm_up

pytestmark = pytest.mark.browser

AXE = REPO / "node_modules/axe-core/axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
RUN_AXE_JS = """async (tags) => {
  const result = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").split("\\n").slice(1, 2).join("")),
  }));
}"""


MISSING = "this/page/does/not/exist/"


def _pages(site_dir) -> list[str]:
    pages = sorted(
        p.relative_to(site_dir).as_posix().removesuffix("index.html")
        for p in site_dir.rglob("*.html")
        if p.relative_to(site_dir).parts[0] != "lite"
    )
    return [page for page in pages if page != "404.html"] + [MISSING]


# Every page at a desktop width in light and a phone's in dark in make test; the two other pairs
# (each a minute and more of axe over ~60 pages) in make test-extra.
EXTRA = pytest.mark.slow_extra


@pytest.mark.parametrize(
    ("width", "scheme"),
    [
        (1280, "light"),
        (390, "dark"),
        pytest.param(1280, "dark", marks=EXTRA),
        pytest.param(390, "light", marks=EXTRA),
    ],
)
def test_no_serious_accessibility_violation(new_context, base_url, site_dir, scheme, width):
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: run `make node-deps`")
    context, traffic = new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    without_warm_up(context)  # every page in turn: no Python start in a worker on each
    page = context.new_page()
    found = {}
    missing_page_errors: list[str] = []
    for path in _pages(site_dir):
        before = len(traffic.errors)
        page.goto(base_url + path)
        if path == MISSING:  # its 404 is the point: the browser's console says so
            missing_page_errors = traffic.errors[before:]
            del traffic.errors[before:]
        expected = "slate" if scheme == "dark" else "default"
        assert page.evaluate("document.body.dataset.mdColorScheme") == expected
        page.add_script_tag(path=str(AXE))
        violations = [v for v in page.evaluate(RUN_AXE_JS, WCAG_TAGS) if v["impact"] in BLOCKING]
        if violations:
            found[path] = violations
    assert found == {}, f"axe-core ({scheme}, {width} px): {found}"
    # The same walk is the offline check of every page (the lab's is in test_site_lab): no
    # request left 127.0.0.1 and no console error, while axe ran there long after the load.
    traffic.assert_clean()
    assert all("404" in e for e in missing_page_errors), missing_page_errors
