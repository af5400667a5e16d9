"""Text from a submission, made safe to show on a terminal, in HTML and in a CSV cell.

A learner's exception message, a value's repr or a file name can hold anything a Python string
can: lone surrogates (UTF-8 cannot write them, so a report or CSV writer raises on them, and a
whole class's summary.csv is lost), control characters (ESC starts an ANSI sequence that recolours
or rewrites a terminal; CR goes back to the line's start, so what comes after overwrites what came
first: a forged "10/10"), and Unicode's invisible direction marks (text shown in another order
than it is). `visible` writes each as an escape a reader sees (`\\x1b`, `\\r`, `\\ud800`,
`\\u202e`) and leaves every other character, newlines and tabs included, as it is: on ordinary
text it changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)
_NAMED = {"\r": "\\r", "\x0b": "\\v", "\x0c": "\\f"}


def _escape(match: re.Match[str]) -> str:
    c = match.group()
    if c in _NAMED:
        return _NAMED[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: str) -> str:
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def visible_data(value: Any) -> Any:
    """Every string in plain data (a report's dict), visible; the rest as it is."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, list):
        return [visible_data(v) for v in value]
    if isinstance(value, dict):
        return {visible_data(k): visible_data(v) for k, v in value.items()}
    return value
