"""The browser that drives the built site, for its tests (tests/browser) and its benchmark
(bench/site_load.py): Debian's Chromium, with the flags this machine needs, and how to tell
that the lab's notebook is ready to run."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
# Flags for a root, headless, offline machine: without the networking ones Chromium keeps
# trying Google's hosts, which this network refuses.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# True once the lab's current notebook has its kernel session (the app is exposed on window).
SESSION_READY_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return Boolean(panel && panel.context && panel.context.isReady && panel.sessionContext
    && panel.sessionContext.isReady && panel.sessionContext.session);
}"""
