"""An attempt's journal: every call its body made to the cluster, in order, with its answer.

A body that blocks is unwound and run again from the start (miniray/execution.py); on the re-run
each call already in the journal is answered from it. An entry records what was asked (`op`,
such as "get" or "submit clean"), where in the learner's code (`site`, "file.py:12": the first
frame outside miniray and outside any module registered as library code with
`miniray.sim.library_code`), and the answer. A re-run must ask the same operations in the same
order; one that asks something else at a journaled position is nondeterministic, and is named as
such instead of being handed the other operation's answer.
"""

from __future__ import annotations

import os
import sys
from typing import Any


class JournalEntry:
    __slots__ = ("op", "site", "ok", "value")

    def __init__(self, op: str, site: str, ok: bool, value: Any):
        self.op = op
        self.site = site
        self.ok = ok  # False: `value` is the exception the call raised
        self.value = value

    def __repr__(self) -> str:
        return f"<JournalEntry {self.op} at {self.site or '?'}>"


class Nondeterministic(BaseException):
    """Raised inside a re-run body that asked a different operation than the journal holds.
    A BaseException, so the learner's `except Exception` cannot swallow it on its way out."""


def mismatch_message(key: str, position: int, recorded: JournalEntry, asked: str, site: str) -> str:
    where = f" at {recorded.site}" if recorded.site else ""
    now = f" (now at {site})" if site and site != recorded.site else ""
    return (
        f"nondeterministic body: attempt {key} ran again from the start and, at its step {position}, "
        f"asked `{asked}`{now} where its first run asked `{recorded.op}`{where}. A task or actor "
        "method must make the same calls, in the same order, each time it runs: keep random "
        "choices, wall-clock reads and iteration over sets out of the decisions it makes, or take "
        "them from the arguments."
    )


def learner_site(library: frozenset[str], prefixes: tuple[str, ...], root: Any = None) -> str:
    """`file:line` of the innermost frame that is the learner's, not miniray's or a library's.

    `library` holds module names, `prefixes` the same names with a dot (their submodules). The
    walk stops at the body's own root (`root`, the code object that called it): past it are the
    driver's frames, which did not make this call. With no learner frame in between, the first
    frame outside miniray is named (a grader's scenario code calling the cluster itself)."""
    frame = sys._getframe(2)
    fallback = ""
    while frame is not None and frame.f_code is not root:
        if frame.f_code.co_filename not in _MINIRAY_FILES:  # most frames on the way are miniray's
            name = frame.f_globals.get("__name__", "")
            if name not in library and not name.startswith(prefixes):
                return f"{frame.f_code.co_filename}:{frame.f_lineno}"
            if not fallback and name != "miniray" and not name.startswith("miniray."):
                fallback = f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return fallback


# miniray's own source files, found once: a frame from one of them is never the learner's. (A
# frame's co_filename is the path the module was imported by; a different spelling of it just
# takes the slower test by module name.)
_MINIRAY_FILES = frozenset(
    os.path.join(folder, name)
    for folder, _, names in os.walk(os.path.dirname(__file__))
    for name in names
    if name.endswith(".py")
)
