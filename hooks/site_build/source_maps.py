"""The site ships no source maps: they are for the people who build the bundles, not for learners,
and each is as large as its bundle. Material's theme brings four (`assets/**/*.map`), and the
lite build's bundles still name theirs after `no_sourcemaps` dropped the files.

After the build, every `.map` file is deleted and the trailing `//# sourceMappingURL=` (or
`/*# sourceMappingURL=... */`) line that names one is cut from its bundle, so that a browser's
developer tools do not ask for a missing file. Inline (`data:`) maps are left alone: they are
part of their bundle's text.
"""

from __future__ import annotations

import re
from pathlib import Path

BUNDLES = (".js", ".mjs", ".css")
# The last line of a bundle naming a map file: a JS or a CSS comment, maybe with a query.
TRAILER = re.compile(rb"\n?(//|/\*)# sourceMappingURL=(?!data:)[^\s*]+\.map(\?[^\s*]*)?( \*/)?\s*\Z")


def strip(site_dir: Path) -> tuple[int, int]:
    """Delete the site's .map files and the lines naming them; returns (maps deleted, bundles cut)."""
    maps = 0
    for path in sorted(site_dir.rglob("*.map")):
        path.unlink()
        maps += 1
    cut = 0
    for path in sorted(site_dir.rglob("*")):
        if path.suffix not in BUNDLES or not path.is_file():
            continue
        data = path.read_bytes()
        trimmed = TRAILER.sub(b"\n", data[-400:])
        if trimmed != data[-400:]:
            path.write_bytes(data[:-400] + trimmed if len(data) > 400 else trimmed)
            cut += 1
    return maps, cut
