"""Share links: a failing run as a link to the site's replay page, which opens it in the playground.

    https://<the site>/exercises/replay/#s=<base64url of {"exercise", "token", "code"} as JSON>

The link is absolute, built from the site's base URL, which the lab's kernel reads from its own
address (`site_base`): JupyterLab resolves a relative link in an output against its file drive
("Path exercises/replay does not exist"), and a relative link copied into a new tab or sent to
a phone points nowhere.

The fragment carries the replay token (which names the exercise's version) and the code the run
was found on, so the notebook the page makes replays that schedule on that code. It is a
fragment, not a query: it never reaches the server. The replay page (docs/javascripts/
exercises.js) decodes the same format; a link made for another version of the exercise says so
there, and again if its notebook is replayed, instead of replaying something else.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

from . import tokens

PAGE = "exercises/replay/"  # the replay page, from the site's root
LAB = "/lite/"  # where the site serves its JupyterLite lab, under the site's root
FRAGMENT_KEY = "s"


def site_base(address: str) -> str | None:
    """The site's root URL, from an address in its lab: the kernel's own script
    (<root>lite/extensions/.../worker.js) or a lab page (<root>lite/lab/index.html). None when the
    address is not under a lab (a local Jupyter has no replay page)."""
    head, sep, _ = address.partition("#")[0].partition("?")[0].partition(LAB)
    if not sep or "://" not in head:
        return None
    return head + "/"


def kernel_site_base() -> str | None:
    """The site's root as seen from the running kernel, in the site's lab (Pyodide); else None."""
    try:
        # The kernel runs in a web worker; its address is the kernel's script under <root>lite/.
        # (`js.location` raises "Illegal invocation" in the lab's worker: ask JavaScript itself.)
        from pyodide.code import run_js  # type: ignore[import-not-found]

        return site_base(str(run_js("self.location.href")))
    except Exception:  # not in Pyodide, or not in a browser (Node has no location)
        return None


class ShareError(ValueError):
    """A share link that cannot be opened; str(self) is one line saying why."""


@dataclass(frozen=True)
class SharedRun:
    exercise: str
    token: str
    code: str

    def fragment(self) -> str:
        payload = json.dumps(
            {"exercise": self.exercise, "token": self.token, "code": self.code},
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return base64.urlsafe_b64encode(payload.encode("utf-8")).decode("ascii").rstrip("=")

    def link(self, base: str = "", page: str = PAGE) -> str:
        """The link to the replay page of the site at `base` (its root URL, ending in "/");
        `page=""` gives the fragment alone, for a page address already at hand."""
        return f"{base}{page}#{FRAGMENT_KEY}={self.fragment()}"

    def version(self) -> int:
        return tokens.decode(self.token).version


def decode(text: str) -> SharedRun:
    """A whole link, its fragment ("#s=..."), or the bare payload."""
    packed = text.strip()
    if "#" in packed:
        packed = packed.split("#", 1)[1]
    for part in packed.split("&"):
        if part.startswith(FRAGMENT_KEY + "="):
            packed = part[len(FRAGMENT_KEY) + 1 :]
            break
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError) as e:
        raise ShareError(f"this share link is damaged ({e}); copy the whole link again") from None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), str) for k in ("exercise", "token", "code")
    ):
        raise ShareError(
            "this share link does not hold a failing run (it needs an exercise, a token and code)"
        )
    run = SharedRun(data["exercise"], data["token"], data["code"])
    try:
        token = tokens.decode(run.token)
    except tokens.TokenError as e:
        raise ShareError(f"this share link's {e}") from None
    if token.exercise != run.exercise:
        raise ShareError(f"this share link names {run.exercise} but its token is for {token.exercise}")
    return run


def stale(run: SharedRun, current_version: int) -> str | None:
    """None if the link replays on this version of its exercise, else one line saying why not."""
    made = run.version()
    if made == current_version:
        return None
    return (
        f"this link was made for version {made} of {run.exercise}, which is now version {current_version}: "
        f"it would replay a different run. Ask for a new link (check() on the current version makes one)."
    )
