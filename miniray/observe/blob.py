"""A stand-in for a large block of data: its size is what the object store sees, not its bytes.

`sim.Blob(2 * 10**9)` is a 2 GB object to the store (spilling, fill %, read cost) while the
host holds a few bytes, so a lesson can fill a 30 GB store in a browser tab. It works the way a
numpy array does: the store reads its `nbytes`. It has no `len()`: Pyodide is 32-bit, where
len() of 2 GB overflows, so read `blob.nbytes`.
"""

from __future__ import annotations


class Blob:
    __slots__ = ("nbytes", "tag")

    def __init__(self, nbytes: int, tag: str = ""):
        if not isinstance(nbytes, int) or nbytes < 0:
            raise ValueError(
                f"Blob(nbytes) takes a byte count (a non-negative int), got {nbytes!r}; "
                "write 2 * 10**9 for 2 GB."
            )
        self.nbytes = nbytes
        self.tag = tag

    def __reduce__(self):
        return (Blob, (self.nbytes, self.tag))

    def __eq__(self, other) -> bool:
        return isinstance(other, Blob) and (other.nbytes, other.tag) == (self.nbytes, self.tag)

    def __hash__(self) -> int:
        return hash((self.nbytes, self.tag))

    def __repr__(self) -> str:
        return f"Blob({self.nbytes}{', ' + repr(self.tag) if self.tag else ''})"
