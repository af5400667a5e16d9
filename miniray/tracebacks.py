"""The traceback text a caller sees for a task's exception: the learner's frames, Ray's layout.

Formatted once per (exception, frames): a grader runs one failing body hundreds of times, and
formatting is most of such a run's cost (Python, 3.11 and more so 3.13+, re-reads and re-parses
each frame's line to place its carets). The text depends only on the key (a code object and its
instruction offset fix the line and the carets), so the cache changes no output.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

# A pure cache (module state, like sys.modules' own): text by key, cleared when full.
_TRACEBACK_TEXT: dict[tuple, str] = {}
_TRACEBACK_CACHE_SIZE = 512


def remote_traceback(e: BaseException) -> str:
    """The traceback as the caller should see it: the user's frames, not miniray's."""
    relayed = getattr(e, "__miniray_traceback__", None)
    if isinstance(relayed, str):  # raised in another process, which formatted the user's frames
        return relayed
    tb = e.__traceback__
    # Drop miniray's own frames before the user's (BodyRun._run, a generator task's wrapper).
    package = os.path.dirname(os.path.abspath(__file__))
    while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename.startswith(package):
        tb = tb.tb_next
    key = _traceback_key(e, tb)
    text = _TRACEBACK_TEXT.get(key) if key is not None else None
    if text is None:
        lines = traceback.format_exception(type(e), e, tb)
        if lines and lines[0].startswith("Traceback"):  # Ray's text starts at the user's first frame
            lines = lines[1:]
        text = "".join(lines)
        if key is not None and _TRACEBACK_CACHE_SIZE:  # a size of 0 turns the cache off (bench)
            if len(_TRACEBACK_TEXT) >= _TRACEBACK_CACHE_SIZE:
                _TRACEBACK_TEXT.clear()
            _TRACEBACK_TEXT[key] = text
    return text


def _traceback_key(e: BaseException, tb: Any) -> tuple | None:
    """What a traceback's text depends on, or None when it depends on more (a chained exception)."""
    if e.__cause__ is not None or (e.__context__ is not None and not e.__suppress_context__):
        return None
    if getattr(e, "__notes__", None):
        return None
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    try:
        message = str(e)
    except Exception:  # a user exception whose __str__ fails: format it the slow way
        return None
    return (type(e), message, tuple(frames))
