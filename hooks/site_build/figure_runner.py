"""Child process that renders one figure script to SVG: `python figure_runner.py SCRIPT OUT.svg`.

Runs in its own CPython (started by lesson_figures.render) so matplotlib's global state never
leaks between figures or into MkDocs, and so the tests can render with the site venv's
matplotlib from the dev venv, which does not have it. Prints {"alt", "caption", "width_in",
"height_in"} as JSON on stdout; on any error prints the traceback and exits 1.
"""

from __future__ import annotations

import io
import json
import re
import runpy
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402  (after the backend is chosen)

# Byte-identical output on every build: matplotlib's defaults rather than a user's
# matplotlibrc, element ids hashed from a fixed salt rather than random ones, and no creation
# date or creator line. Text stays <text> (selectable, and a fraction of the bytes of outlines).
RC = {"svg.hashsalt": "fault-lines", "svg.fonttype": "none"}
NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
# matplotlib names the SVG 1.1 DTD on w3.org. Browsers never fetch it, but a validating XML
# parser might, and SVG 2 has no DTD: drop it so the file names no other origin at all.
DOCTYPE = re.compile(rb"<!DOCTYPE svg[^>]*>\s*")


def main(script: str, out: str) -> None:
    matplotlib.rcdefaults()
    matplotlib.rcParams.update(RC)
    made = runpy.run_path(script, run_name="__figure__")
    if not callable(made.get("figure")):
        raise TypeError("the script defines no figure() function")
    result = made["figure"]()
    if not (isinstance(result, tuple) and len(result) == 3):
        raise TypeError("figure() must return (Figure, alt text, caption)")
    fig, alt, caption = result
    if not isinstance(fig, Figure):
        raise TypeError(f"figure() returned {type(fig).__name__}, not a matplotlib Figure")
    for what, text in (("alt text", alt), ("caption", caption)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"figure() returned an empty {what}: every figure needs one")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata=NO_METADATA)
    Path(out).write_bytes(DOCTYPE.sub(b"", buffer.getvalue(), count=1))
    width, height = fig.get_size_inches()
    meta = {"alt": alt, "caption": caption, "width_in": float(width), "height_in": float(height)}
    json.dump(meta, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
