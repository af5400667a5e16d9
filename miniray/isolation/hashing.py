"""`hash()` salted per simulated worker process, as each Ray worker's interpreter salts its own.

Python salts the hash of str and bytes once per interpreter (PYTHONHASHSEED), and every Ray
worker is an interpreter of its own: `hash("order-7")` in a task's first attempt and in its retry
on another worker differ, and neither equals the driver's. miniray runs every simulated process
in one interpreter, so learner code copied into a worker (`footprint`) finds the name `hash`
bound to that process's salted hash while its body runs (`space.ProcessSpace`); the driver and
every other module keep the interpreter's own.

The salt is a pure function of the run's seed and the process's pid (`process_salt`), so a run
replays byte for byte, and the value is the same in CPython and Pyodide (the interpreter's own is
32 bits wide in Pyodide). What still cannot differ: the iteration order of a set or dict of
strings (the interpreter hashes those with its own salt), `id()`, and the hash of other values
(ints, floats, frozensets, an object's default hash), which a fresh interpreter gives the same.
"""

from __future__ import annotations

import builtins
import hashlib
from collections.abc import Callable
from typing import Any

_BUILTIN_HASH = builtins.hash
_MASK = (1 << 64) - 1
# CPython's tuple hash (xxHash's primes and rotation), over this process's hash of each item.
_P1, _P2, _P5 = 11400714785074694791, 14029467366897019727, 2870177450012600261


def process_salt(seed: int, pid: int) -> int:
    """The salt of simulated process `pid` in a run with `seed`: what its interpreter would draw.
    (SplitMix64 of the two: every simulated worker gets one, so it must be cheap; the keyed
    BLAKE2b in `salted_hash` does the hashing.)"""
    x = (seed * 0x9E3779B97F4A7C15 + pid) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return (x ^ (x >> 31)) >> 1


def _signed(value: int) -> int:
    value &= _MASK
    return value - (1 << 64) if value >> 63 else value


def salted_hash(salt: int) -> Callable[[Any], int]:
    """A `hash` for one process: str, bytes and tuples of them hashed with its salt (64 bits
    wide everywhere); anything else hashed as the interpreter does."""
    key = salt.to_bytes(8, "big")

    def salted(data: bytes) -> int:
        if not data:
            return 0  # as Python's: the empty string hashes to 0 in every process
        value = _signed(int.from_bytes(hashlib.blake2b(data, key=key, digest_size=8).digest(), "little"))
        return -2 if value == -1 else value  # -1 means "error" to the interpreter: never a hash

    def hash(value: Any, /) -> int:  # noqa: A001 - it stands in for the builtin, under its name
        kind = type(value)
        if kind is str:
            return salted(_as_stored(value))
        if kind is bytes:
            return salted(value)
        if kind is tuple:
            acc = _P5
            for item in value:
                acc = (acc + (hash(item) & _MASK) * _P2) & _MASK
                acc = ((acc << 31) | (acc >> 33)) & _MASK
                acc = (acc * _P1) & _MASK
            acc = (acc + (len(value) ^ (_P5 ^ 3527539))) & _MASK
            return 1546275796 if acc == _MASK else _signed(acc)
        return _BUILTIN_HASH(value)

    return hash


def _as_stored(text: str) -> bytes:
    """The bytes CPython hashes for a str (its compact form: 1, 2 or 4 bytes a character), so that
    hash("abc") == hash(b"abc") in a worker, as in any interpreter."""
    if text.isascii():
        return text.encode("ascii")
    widest = max(map(ord, text))
    if widest < 256:
        return text.encode("latin-1")
    return text.encode("utf-16-le" if widest < 65536 else "utf-32-le", "surrogatepass")
