"""The debugger's front end (static/debugger.js and .css), wherever a debugger is shown.

- The course site's lab loads both from its own page (hooks/site_build/lite_build.py), once,
  for every output: nothing to send from the kernel.
- A local Jupyter has no such page: the first debugger a kernel shows is preceded by one HTML
  output holding both (JupyterLab runs the script of an output the notebook trusts, as it does
  for outputs of cells run in this session).
- The standalone page (page.py) inlines both.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parent / "static"
_shown = {"local": False}


@cache
def script() -> str:
    return (STATIC / "debugger.js").read_text(encoding="utf-8")


@cache
def style() -> str:
    return (STATIC / "debugger.css").read_text(encoding="utf-8")


def in_site_lab() -> bool:
    """Pyodide: the course site's lab, whose page already loads the front end."""
    return sys.platform == "emscripten"


def ensure(display: Callable[[Any], Any]) -> None:
    """Before the first debugger of a local kernel: display the front end once."""
    if in_site_lab() or _shown["local"]:
        return
    from IPython.display import HTML  # a local Jupyter: IPython is there

    _shown["local"] = True
    display(HTML(f"<style>{style()}</style><script>{script()}</script>"))
