"""One standalone, offline HTML page of the debugger, for a TA to attach to feedback
(`python -m faultlines replay TOKEN --html FILE`).

The page has no Python, so "Remove fault" cannot re-run anything: every schedule reachable by
removing faults is run here, now, and the page carries each as a variant the button switches
to. Moving a fault needs the lab, and the page says so. Styles, script and data are inlined:
the page makes no request at all.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from . import frontend, render, whatif
from .compare import Passing
from .session import Snapshot, Source, passing_run

# The lab's theme variables the debugger's stylesheet reads, for each of the reader's schemes
# (after the stylesheet: the dark scheme's colours override its light defaults).
THEME = """
:root { color-scheme: light dark; --jp-ui-font-color0: #111; --jp-ui-font-color1: #333;
  --jp-layout-color0: #fff; --jp-layout-color1: #f4f4f4; --jp-layout-color2: #e6e6e6;
  --jp-border-color1: #767676; --jp-border-color2: #bbb; --jp-brand-color1: #1565c0; }
@media (prefers-color-scheme: dark) {
  :root { --jp-ui-font-color0: #eee; --jp-ui-font-color1: #ccc; --jp-layout-color0: #111;
    --jp-layout-color1: #1d1d1d; --jp-layout-color2: #2b2b2b; --jp-border-color1: #999;
    --jp-border-color2: #555; --jp-brand-color1: #64b5f6; }
  .fl-debugger { --fl-dbg-bad: #ff8a80; --fl-dbg-good: #7ee2a0; --fl-dbg-mark: rgba(86, 180, 233, 0.22);
    --fl-dbg-ghost: #56b4e9; }
}
body { margin: 0; background: var(--jp-layout-color0); color: var(--jp-ui-font-color0);
  font: 15px/1.45 system-ui, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 1em; box-sizing: border-box; }
h1 { font-size: 1.4em; }
main code { overflow-wrap: anywhere; }
"""


def _controls(snap: Snapshot, keys: dict[tuple[str, ...], str]) -> str:
    buttons = []
    for index, token in enumerate(snap.schedule):
        target = keys.get(whatif.without(snap.schedule, index))
        if target is not None:
            buttons.append(
                f'<button type="button" data-fl-variant="{target}">Remove fault {escape(token)}</button>'
            )
    original = keys.get(("__original__",))
    if original is not None and keys.get(snap.schedule) != original:
        buttons.append(f'<button type="button" data-fl-variant="{original}">Back to the failing run</button>')
    note = (
        '<p class="fl-dbg-note">Each button shows the same run with that fault removed, run when '
        "this page was made. Moving a fault to another step or time needs the lab: replay the token "
        "there.</p>"
    )
    if not buttons:
        return note
    return f'<div class="fl-dbg-whatif"><b>What if:</b> {"".join(buttons)}</div>{note}'


def _body(snap: Snapshot, passing: Passing | None, keys: dict[tuple[str, ...], str]) -> str:
    return render.head(snap) + _controls(snap, keys) + render.view(snap, passing)


def build(source: Source, snap: Snapshot, heading: str, intro: str = "") -> str:
    """The whole page: the failing run, and each schedule reachable by removing faults."""
    passing = passing_run(source, snap)
    variants: dict[tuple[str, ...], Snapshot] = {snap.schedule: snap}
    if source.can_rerun:
        for schedule in whatif.removals(snap.schedule)[1:]:
            variants[schedule] = source.run(schedule)
    keys = {schedule: f"v{i}" for i, schedule in enumerate(variants)}
    keys[("__original__",)] = keys[snap.schedule]
    templates = "".join(
        f'<template data-fl-variant-key="{keys[schedule]}">{_body(shown, passing, keys)}</template>'
        for schedule, shown in variants.items()
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(heading)}</title><style>{frontend.style()}{THEME}</style></head>"
        f"<body><main><h1>{escape(heading)}</h1>{intro}"
        '<div class="fl-debugger" role="region" aria-label="Debugger" data-fl-variants="1">'
        f'<div class="fl-debugger-body">{_body(snap, passing, keys)}</div></div>'
        f"{templates}</main><script>{frontend.script()}</script></body></html>"
    )


def write(path: Path, source: Source, snap: Snapshot, heading: str, intro: str = "") -> Path:
    path.write_text(build(source, snap, heading, intro), encoding="utf-8")
    return path
