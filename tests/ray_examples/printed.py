"""The lines an example printed, comparable across backends (no Ray log lines, ids masked).

Kept free of subprocess and other host-only imports: the Pyodide parity run uses it too.
"""

from __future__ import annotations

import re

_LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d |\[\d{4}-|\*\*\*|\(raylet\)|/|\s*File \"|Traceback|\s+\^)")
_NORMALISE = [
    (re.compile(r"\x1b\[[0-9;]*m"), ""),  # Ray colours its task names
    (re.compile(r"pid=\d+"), "pid=N"),
    (re.compile(r"ip=[\d.]+"), "ip=IP"),
    (re.compile(r"\b[0-9a-f]{16,}\b"), "<id>"),
    (re.compile(r"\bminiray\b"), "ray"),
    (re.compile(r" at 0x[0-9a-f]+"), ""),
]


def printed_lines(output: str, marker: str = "") -> list[str]:
    """What the script printed, without Ray's own log lines and with pids and ids masked."""
    out = []
    for line in output.splitlines():
        if (marker and line.startswith(marker)) or _LOG_LINE.match(line) or not line.strip():
            continue
        for pattern, repl in _NORMALISE:
            line = pattern.sub(repl, line)
        out.append(line.rstrip())
    return out
