"""The values that cross between the judge and the jail, and how: JSON, never pickle.

Unpickling bytes the jail wrote would run the jail's code in the judge, so nothing here does.
Plain data crosses by value: None, bool, int, float, str (JSON's own), and lists, tuples, dicts,
sets, frozensets, bytes and bytearrays (each a JSON array whose first item names it). Everything
else crosses as a tagged array the sides define for themselves (`Handles` in judge.py and
inside.py): an opaque handle to an object that stays where it is, an exception rebuilt from its
class name and message, or one of a few records both sides know by name (scheduling strategies).

A subclass of a plain type crosses as the plain type (a namedtuple as a tuple, a str subclass as
its text), so the judge never runs a method the learner wrote to compare or print a value.

Frames are a 4-byte big-endian length and UTF-8 JSON. The judge reads at most MAX_MESSAGE bytes
per message from the jail; a longer one, malformed JSON or a shape the protocol does not have is
a WireError, and the judge ends the jail.

The judge decodes a message from the jail within a Budget: at most MAX_ITEMS values, and only
until the grading's wall-clock deadline (OutOfTime past it). A set's members and a dict's keys
are hashed before the set or dict is built: more than MAX_SAME_HASH of them sharing one hash (ints
chosen to collide, so that building it takes minutes) is refused. Honest values never come near
that: distinct ints and floats share a hash only past 2**61, and strings' hashes are salted.
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 100  # nesting of one value: deeper is refused, never a RecursionError in the judge
MAX_MESSAGE = 64 * 1024**2  # bytes in one message from the jail
MAX_ITEMS = 2_000_000  # values in one message from the jail
MAX_SAME_HASH = 32  # members of one set, or keys of one dict, with the same hash
CLOCK_EVERY = 8192  # values decoded between two looks at the clock
HEADER = struct.Struct(">I")
PLAIN_TAGS = frozenset("ltdsfby")


class WireError(Exception):
    """A value or a message the protocol cannot carry (or a sender that broke it)."""


class OutOfTime(WireError):
    """The grading's wall-clock deadline passed while the judge was decoding."""


class Budget:
    """What decoding one message may spend: values, and wall-clock time up to `deadline`."""

    def __init__(self, deadline: float | None, clock: Callable[[], float], items: int = MAX_ITEMS) -> None:
        self.deadline, self.clock, self.left = deadline, clock, items
        self._until_look = CLOCK_EVERY

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise WireError(f"a message of more than {MAX_ITEMS} values")
        self._until_look -= n
        if self._until_look <= 0:
            self._until_look = CLOCK_EVERY
            if self.deadline is not None and self.clock() > self.deadline:
                raise OutOfTime("ran past its wall-clock limit")


Export = Callable[[Any], list]  # a non-plain object -> its tagged array
Resolve = Callable[[list, int], Any]  # a tagged array that is not plain data -> the object


def encode(value: Any, export: Export, depth: int = 0) -> Any:
    t = type(value)
    if t is str or t is int or t is float or t is bool or value is None:
        return value
    if depth > MAX_DEPTH:
        raise WireError(f"a value nested more than {MAX_DEPTH} deep (does it contain itself?)")
    d = depth + 1
    if t is list:
        return ["l", *[encode(v, export, d) for v in value]]
    if t is tuple:
        return ["t", *[encode(v, export, d) for v in value]]
    if t is dict:
        out: list = ["d"]
        for k, v in value.items():
            out.append(encode(k, export, d))
            out.append(encode(v, export, d))
        return out
    if t is bytes:
        return ["b", base64.b64encode(value).decode("ascii")]
    if t is set or t is frozenset:
        return ["s" if t is set else "f", *[encode(v, export, d) for v in value]]
    if t is bytearray:
        return ["y", base64.b64encode(value).decode("ascii")]
    return _subclass(value, export, depth)


def _subclass(value: Any, export: Export, depth: int) -> Any:
    """A subclass of a plain type, as the plain type (its own methods are never called)."""
    if isinstance(value, bool):
        return bool.__bool__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, tuple):
        return encode(tuple(tuple.__iter__(value)), export, depth)
    if isinstance(value, list):
        return encode(list(list.__iter__(value)), export, depth)
    if isinstance(value, dict):
        return encode(dict(dict.items(value)), export, depth)
    if isinstance(value, (set, frozenset)):
        return encode(
            set(set.__iter__(value) if isinstance(value, set) else frozenset.__iter__(value)), export, depth
        )
    if isinstance(value, (bytes, bytearray)):
        return encode(bytes(value), export, depth)
    return export(value)


def decode(value: Any, resolve: Resolve, depth: int = 0, budget: Budget | None = None) -> Any:
    t = type(value)
    if t is not list:
        if t is dict:
            raise WireError("a JSON object where the protocol has none")
        return value
    if not value or type(value[0]) is not str:
        raise WireError("an array without its tag")
    if depth > MAX_DEPTH:
        raise WireError(f"a value nested more than {MAX_DEPTH} deep")
    if budget is not None:
        budget.spend(len(value))
    tag = value[0]
    d = depth + 1
    if tag not in PLAIN_TAGS:
        return resolve(value, d)
    try:
        if tag in "ltsf":
            items = [decode(v, resolve, d, budget) for v in value[1:]]
            if tag == "l":
                return items
            if tag == "t":
                return tuple(items)
            _hash_safe(items)
            return set(items) if tag == "s" else frozenset(items)
        if tag == "d":
            items = value[1:]
            if len(items) % 2:
                raise WireError("a dict with a key and no value")
            decoded = [decode(v, resolve, d, budget) for v in items]  # in order: key, value, ...
            _hash_safe(decoded[0::2])
            return dict(zip(decoded[0::2], decoded[1::2]))
        raw = value[1] if len(value) == 2 and type(value[1]) is str else None
        if raw is None:
            raise WireError("bytes without their text")
        data = base64.b64decode(raw, validate=True)
        return data if tag == "b" else bytearray(data)
    except TypeError as e:  # an unhashable key or set member
        raise WireError(f"not a valid value: {e}") from None
    except ValueError as e:  # bad base64
        raise WireError(f"not valid bytes: {e}") from None


def _hash_safe(members: list) -> None:
    """Refuse members built to collide: counted by hash first (a dict of hash values, which
    never collide among themselves), so building the set or dict stays linear."""
    if len(members) <= MAX_SAME_HASH:
        return
    counts: dict[int, int] = {}
    for m in members:
        h = hash(m)
        n = counts.get(h, 0) + 1
        if n > MAX_SAME_HASH:
            raise WireError(f"more than {MAX_SAME_HASH} members of one set or dict share a hash")
        counts[h] = n


def pack(message: list) -> bytes:
    try:
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    except ValueError as e:  # an int too long to write as text, say
        raise WireError(f"a value JSON cannot carry ({e})") from None
    data = text.encode("utf-8", "surrogatepass")
    return HEADER.pack(len(data)) + data


def unpack(data: bytes) -> list:
    try:
        message = json.loads(data.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as e:
        raise WireError(f"a message that is not JSON ({type(e).__name__})") from None
    if type(message) is not list or len(message) < 2 or type(message[0]) is not str:
        raise WireError("a message without a kind")
    return message
