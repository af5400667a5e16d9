"""A re-entrant request/response conversation over two pipes, the same on both sides.

    request  ["q", id, op, payload, header]
    reply    ["a", id, value, header]      returned
             ["x", id, exception, header]  raised
             ["u", id, token, header]      unwind: the caller's frames must be unwound (a body
                                           that blocked or crashed in the simulation)

`call` sends a request and waits for its reply; while it waits, the other side may send requests
of its own (the judge asks the jail to run a task body, the body asks for `ray.get`, the judge
runs the simulation, which asks the jail to run another body...). Each is served by `serve` in a
nested frame, and replies come back innermost first: a reply for any other request than the
innermost outstanding one breaks the protocol.

The header carries what rides along with any message: the learner's printed output, handles the
sender no longer holds, the jail's statement count. Hooks fill and read it.

On the judge's side the conversation is bounded: every read waits at most until the deadline,
a message may be at most wire.MAX_MESSAGE bytes, and the jail's stderr is drained into a bounded
tail on the way (so a jail that writes there cannot block on a full pipe).
"""

from __future__ import annotations

import errno
import fcntl
import os
import select
import time
from collections.abc import Callable
from typing import Any

from . import wire

Serve = Callable[[str, Any, dict], tuple[str, Any]]  # (op, payload, header) -> (reply kind, body)
STDERR_TAIL = 16 * 1024
PIPE_BYTES = 1024 * 1024  # Linux's default most for a pipe (/proc/sys/fs/pipe-max-size)


class ChannelBroken(BaseException):
    """The conversation cannot go on: the other side ended, went silent past the deadline, or
    broke the protocol. A BaseException: no `except Exception` in a scenario may hide it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Channel:
    def __init__(
        self,
        rfd: int,
        wfd: int,
        *,
        bounded: bool = False,
        deadline: float | None = None,
        stderr_fd: int | None = None,
    ) -> None:
        self.rfd, self.wfd = rfd, wfd
        self.bounded = bounded  # the judge's side: limits, deadline, non-blocking writes
        self.deadline = deadline  # now() past which a wait fails
        self.stderr_fd = stderr_fd
        self.stderr_tail = b""
        self.serve: Serve = _refuse
        self.outgoing: Callable[[], dict] = dict  # the header to send with the next message
        self.incoming: Callable[[dict], None] = _ignore  # reads a received message's header
        self.depth = 0
        self._ids = 0
        self._stack: list[int] = []
        self._buffer = bytearray()
        self.severed = False
        if bounded:
            os.set_blocking(wfd, False)
            for fd in (rfd, wfd):  # a task's 120 KB value in one write, not two handoffs of 64 KB
                try:
                    fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
                except (OSError, AttributeError):
                    pass

    def sever(self) -> None:
        """In a process the learner's code forked off (os.register_at_fork, the jail's side): this
        copy of the conversation is not its to use. Its ends are closed, so a child can neither
        read the judge's messages meant for its parent nor write into the middle of them."""
        for fd in (self.rfd, self.wfd):
            try:
                os.close(fd)
            except OSError:
                pass
        self.severed = True

    # -- the conversation ------------------------------------------------------------------------
    def call(self, op: str, payload: Any) -> tuple[str, Any]:
        """Send a request; serve the other side until its reply; return (kind, body)."""
        if self.severed:
            raise ChannelBroken("a forked process has no link to the judge")
        self._ids += 1
        rid = self._ids
        self._send(["q", rid, op, payload, self.outgoing()])
        self._stack.append(rid)
        try:
            while True:
                message = self._receive()
                kind = message[0]
                if kind == "q":
                    self._serve_one(message)
                    continue
                if kind not in ("a", "x", "u") or len(message) != 4 or message[1] != rid:
                    raise ChannelBroken("broke the protocol: a reply to no outstanding request")
                return kind, message[2]
        finally:
            self._stack.pop()

    def serve_forever(self) -> None:
        """The jail's main loop: serve requests until the judge closes the pipe."""
        while not self.severed:
            message = self._receive()
            if message[0] != "q":
                raise ChannelBroken("broke the protocol: a reply to no outstanding request")
            self._serve_one(message)

    def _serve_one(self, message: list) -> None:
        if len(message) != 5 or type(message[2]) is not str:
            raise ChannelBroken("broke the protocol: a malformed request")
        _, rid, op, payload, _hdr = message
        self.depth += 1
        try:
            kind, body = self.serve(op, payload, _hdr)
        finally:
            self.depth -= 1
        self._send([kind, rid, body, self.outgoing()])

    # -- frames ----------------------------------------------------------------------------------
    def _send(self, message: list) -> None:
        if self.severed:
            raise ChannelBroken("a forked process has no link to the judge")
        data = memoryview(wire.pack(message))
        while data:
            try:
                n = os.write(self.wfd, data)  # most messages fit the pipe: no wait first
            except BlockingIOError:  # the judge's side only (non-blocking): full, wait for room
                self._wait(write=True)
                continue
            except OSError as e:
                raise ChannelBroken(
                    "closed its end of the pipe" if e.errno == errno.EPIPE else str(e)
                ) from None
            data = data[n:]

    def _receive(self) -> list:
        header = self._take(wire.HEADER.size)
        (size,) = wire.HEADER.unpack(header)
        if self.bounded and size > wire.MAX_MESSAGE:
            raise ChannelBroken(f"sent a message of {size} bytes (at most {wire.MAX_MESSAGE} are read)")
        try:
            message = wire.unpack(self._take(size))
        except wire.WireError as e:
            raise ChannelBroken(f"broke the protocol: {e}") from None
        hdr = message[-1]
        if type(hdr) is not dict:
            raise ChannelBroken("broke the protocol: a message without its header")
        self.incoming(hdr)
        return message

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            if self.bounded:
                self._wait(write=False)
            try:
                chunk = os.read(self.rfd, max(1 << 16, n - len(self._buffer)))
            except BlockingIOError:
                continue
            if not chunk:
                raise ChannelBroken("ended")
            self._buffer += chunk
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def _wait(self, write: bool) -> None:
        """Until the pipe is ready, draining stderr meanwhile; fails past the deadline."""
        while True:
            timeout = None if self.deadline is None else self.deadline - now()
            if timeout is not None and timeout <= 0:
                raise ChannelBroken("ran past its wall-clock limit")
            reads = [self.stderr_fd] if self.stderr_fd is not None else []
            if not write:
                reads.append(self.rfd)
            ready_r, ready_w, _ = select.select(reads, [self.wfd] if write else [], [], timeout)
            if self.stderr_fd is not None and self.stderr_fd in ready_r:
                self._drain_stderr()
            if (write and ready_w) or (not write and self.rfd in ready_r):
                return

    def _drain_stderr(self) -> None:
        assert self.stderr_fd is not None
        try:
            chunk = os.read(self.stderr_fd, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            self.stderr_fd = None  # closed: stop watching it
            return
        self.stderr_tail = (self.stderr_tail + chunk)[-STDERR_TAIL:]


def now() -> float:
    """The machine's monotonic clock. Not time.monotonic: while a simulated cluster is up, miniray
    routes that through the simulation (a journaled interaction of the running body)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def _refuse(op: str, payload: Any, hdr: dict) -> tuple[str, Any]:
    raise ChannelBroken(f"broke the protocol: a request ({op}) this side does not serve")


def _ignore(hdr: dict) -> None:
    pass
