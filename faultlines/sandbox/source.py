"""A submission's file, read only as what it says it is: a regular file, of a reasonable size.

A `.py` that is a symbolic link would be graded as the file it points to (another student's, the
reference solution), and a FIFO or a device would hang or flood the reader. The file is opened
without following a link (O_NOFOLLOW) and without blocking, then checked to be a regular file on
the open descriptor itself, so nothing can swap it between the check and the read.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

SYMLINK = "a symbolic link, not graded"
SPECIAL = "not a regular file, not graded"
MAX_BYTES = 16 * 1024**2


class NotASubmission(OSError):
    """The path is not a regular file the grader may read as a student's code (one line why)."""


def refusal(path: Path) -> str | None:
    """Why `path` is not graded (a link, a FIFO, a device...), without following it; or None."""
    try:
        mode = path.lstat().st_mode
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if stat.S_ISLNK(mode):
        return SYMLINK
    if not stat.S_ISREG(mode):
        return SPECIAL
    return None


def read(path: Path) -> str:
    """The file's text (UTF-8); NotASubmission if it is not a regular file, or too large."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise NotASubmission(SYMLINK) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotASubmission(SPECIAL)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise NotASubmission(f"larger than {MAX_BYTES // 1024**2} MB, not graded")
    return data.decode("utf-8")
