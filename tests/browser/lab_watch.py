"""Watching a lesson's lab panel start, for the issue-24 tests (start feedback, no white flash,
the kernel's status): a log the page keeps of the panel's words and of what each painted frame
showed, read back by the tests. Kept apart from site_browser.py, which drives the lab itself."""

from __future__ import annotations

import re

# Installs window.__flLog on the page: `clicked` (when "Start the lab" was pressed), `firstWords`
# (when the panel's bar first showed words after that), `phases` (each distinct text of the bar's
# words and bytes, in order) and `samples` (per painted frame: whether the cover was shown and its
# colour, whether the lab's frame was shown and the colour at its centre).
WATCH_PANEL_JS = """() => {
  const panel = document.querySelector('.fl-lab');
  const bar = panel.querySelector('.fl-lab__bar');
  const cover = panel.querySelector('.fl-lab__cover');
  const log = window.__flLog = { clicked: null, firstWords: null, phases: [], samples: [], stop: false };
  const read = () => panel.querySelector('.fl-lab__phase').textContent + panel.querySelector('.fl-lab__bytes').textContent;
  panel.querySelector('.fl-lab__start').addEventListener('click', () => { log.clicked = performance.now(); }, { capture: true });
  const note = () => {
    const text = read();
    if (!text) return;
    if (log.firstWords === null && log.clicked !== null && bar.getBoundingClientRect().height > 0) log.firstWords = performance.now();
    if (log.phases[log.phases.length - 1] !== text) log.phases.push(text);
  };
  new MutationObserver(note).observe(panel, { subtree: true, childList: true, characterData: true });
  const background = (el, fallback) => {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      if (colour && !/^rgba\\(.*, 0\\)$|^transparent$/.test(colour)) return colour;
    }
    return fallback;
  };
  const sample = () => {
    const frame = panel.querySelector('iframe.fl-lab__iframe');
    const covered = log.clicked !== null && getComputedStyle(cover).display !== 'none';
    const shown = Boolean(frame) && panel.classList.contains('fl-lab--started') && getComputedStyle(frame).visibility !== 'hidden';
    let inside = null;
    if (shown) {
      const behind = getComputedStyle(frame).backgroundColor;
      try {
        const doc = frame.contentDocument;
        const el = doc && doc.elementFromPoint(frame.clientWidth / 2, frame.clientHeight / 2);
        inside = el ? background(el, behind) : behind;
      } catch (error) {
        inside = behind;
      }
    }
    log.samples.push({ covered, coverColour: covered ? getComputedStyle(cover).backgroundColor : null, shown, inside });
    if (!log.stop) requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""

PHASE_JS = "() => document.querySelector('.fl-lab').dataset.labPhase || ''"
DOWNLOADING = re.compile(r"^Downloading Python: (\d+\.\d) of (\d+\.\d) MB$")


def luminance(css_colour: str) -> float:
    """Relative luminance (0 black .. 1 white) of an `rgb(...)`/`rgba(...)` colour."""
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+(?:\.\d+)?", css_colour)[:3])

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def bright_frames(samples: list[dict]) -> list[dict]:
    """The painted frames, after the click, that showed something light: a dark page's lab must
    show none (the cover in the page's colour, then the notebook in JupyterLab's dark theme)."""
    bright = []
    for sample in samples:
        colours = [c for c in (sample["coverColour"], sample["inside"]) if c]
        if any(luminance(c) > 0.4 for c in colours):
            bright.append(sample)
    return bright


def downloads(phases: list[str]) -> list[tuple[float, float]]:
    """The (loaded, total) of each "Downloading Python: x of y MB" the bar showed."""
    return [(float(m.group(1)), float(m.group(2))) for p in phases if (m := DOWNLOADING.match(p))]
