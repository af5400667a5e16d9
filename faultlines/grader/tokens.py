"""Versioned replay tokens: exercise, its version, the code's hash, the scenario and schedule.

    FL1.fault05.v1.3f9a0c21be.two-orders.<base64url of the schedule as JSON>
A token made for another version of the exercise says so instead of replaying something else;
one made on other code still replays (that is what "does it break your code too?" needs), and
the replay says the code differs.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from .schedule import Schedule, validate

PREFIX = "FL1"


class TokenError(ValueError):
    """A token that cannot be replayed; str(self) is one line saying why."""


@dataclass(frozen=True)
class Token:
    exercise: str
    version: int
    code_hash: str
    scenario: str
    schedule: Schedule

    def encode(self) -> str:
        body = json.dumps(list(self.schedule), separators=(",", ":")).encode()
        packed = base64.urlsafe_b64encode(body).decode().rstrip("=")
        return f"{PREFIX}.{self.exercise}.v{self.version}.{self.code_hash}.{self.scenario}.{packed}"


def decode(text: str) -> Token:
    parts = text.strip().split(".")
    if len(parts) != 6 or parts[0] != PREFIX:
        raise TokenError(f"not a replay token: {text.strip()[:60]!r} (tokens start with {PREFIX}.)")
    _, exercise, version, code_hash, scenario, packed = parts
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        schedule = tuple(validate(str(t)) for t in json.loads(raw))
        number = int(version.removeprefix("v"))
    except (ValueError, TypeError) as e:
        raise TokenError(f"replay token is damaged ({e}); copy it again from the report") from None
    return Token(exercise, number, code_hash, scenario, schedule)


def check_version(token: Token, current: int) -> None:
    if token.version != current:
        raise TokenError(
            f"this token was made for version {token.version} of {token.exercise}, which is now version "
            f"{current}: it would replay a different run. Run check() again for a fresh token."
        )
