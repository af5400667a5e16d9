"""What a backend printed, kept word for word for the lessons to quote ("Ray's own words").

A scenario stores such text under a key starting with "_said" (shown, never compared: the
comparison skips every "_" key), so two real-Ray runs may word it differently without making the
recording unstable. What changes from run to run or machine to machine is normalised first, so
the quoted text says nothing about the machine that recorded it and a re-recording changes the
page only where Ray changed its words:

* colour codes go; a pid becomes <pid>, an IPv4 address <ip>, a port <port>, a time <time>;
* Ray's hex ids (node, worker, lease, object, actor, job ids) become <id>;
* a path keeps its last part ("lesson02_quote_outage.py"), and a file of Ray's keeps the part
  from its package on ("ray/_private/worker.py").

`DriverLog` collects the lines the driver prints while it is open: on Ray, the "(raylet)" and
"(task pid=...)" lines its log monitor sends to the driver; on miniray, a task's prints with the
same "(task pid=...)" prefix. Plain script: runs in real Ray's venv without this repository.
"""

import re
import sys
import threading

_RULES = [
    (re.compile(r"\x1b\[[0-9;]*m"), ""),
    (re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?"), "<time>"),
    (re.compile(r"session_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d+_\d+"), "session_<time>"),
    (re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])"), "<ip>"),
    (re.compile(r"\b(pid[=:] ?|PID: )\d+"), r"\1<pid>"),
    (re.compile(r"(<ip>\s+\|\s+)\d+"), r"\1<pid>"),  # the PID column of `ray memory`
    (re.compile(r"(\b[Pp]ort:? ?|(?<=<ip>):)\d{2,5}\b"), r"\1<port>"),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b"), "<id>"),  # a hex id, not a long number
    (re.compile(r"(?<=\()[0-9a-f]{8}(?=\))"), "<id>"),  # an actor's repr: Feed(54d6d5da)
    (re.compile(r"\b0x[0-9a-f]+\b"), "<address>"),
    (
        re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
        "<uuid>",
    ),  # an object's repr: <Feed object at 0x7f...>
    (re.compile(r"(?<![\w.])/\S*?/site-packages/"), ""),
    (re.compile(r"(?<![\w.<])/(?:[^\s\"'/:]+/)+(?=[^\s\"'/:]+)"), ""),
    (re.compile(r"[ \t]+$", re.MULTILINE), ""),
]


def normalise(text):
    """The text with what differs between runs and machines replaced (see the module's doc)."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text.strip("\n")


def error(exc):
    """An exception as the last line of a traceback prints it: its class, then its message."""
    return normalise(f"{type(exc).__name__}: {exc}")


class DriverLog:
    """Tee the driver's stdout and stderr while open; `lines(...)` are the ones printed so far."""

    def __init__(self):
        self._lines = []
        self._partial = ""
        self._lock = threading.Lock()
        self._streams = None

    def __enter__(self):
        self._streams = (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = _Tee(self, sys.stdout), _Tee(self, sys.stderr)
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self._streams
        return False

    def _write(self, text):
        with self._lock:
            parts = (self._partial + text).split("\n")
            self._partial = parts.pop()
            self._lines.extend(parts)

    def lines(self, *needles):
        """Normalised lines printed so far that contain every needle (all of them without any)."""
        with self._lock:
            found = [normalise(line) for line in self._lines]
        return [line for line in found if all(n in line for n in needles)]

    def text(self, *needles, limit=12):
        return "\n".join(self.lines(*needles)[:limit])


class _Tee:
    def __init__(self, log, stream):
        self._log, self._stream = log, stream

    def write(self, text):
        self._log._write(text)
        return self._stream.write(text)

    def flush(self):
        self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def miniray_log(*kinds, after=0):
    """miniray's words for a run: its event log lines of these kinds (`task.fail`, `node.died`...)
    from line `after` on (`log_length()` before the program starts), read while the cluster is up.
    Ray keeps no such log; the driver prints its raylet's lines instead (`driver_lines`)."""
    from miniray import sim

    lines = [line.split() for line in sim.log_text().splitlines()[after:]]
    return normalise("\n".join(" ".join(words) for words in lines if words[1:2] and words[1] in kinds))


def log_length(ray):
    """How many lines miniray's event log has now (0 on Ray, which keeps no such log)."""
    from _observe import is_miniray

    if not is_miniray(ray):
        return 0
    from miniray import sim

    return len(sim.log_text().splitlines())


def driver_lines(ray, log, *needles, count=1, limit_s=30.0):
    """Real Ray: the driver's printed lines holding every needle, once `count` of them have
    arrived (Ray's log monitor sends them a moment after the event). miniray prints none.

    Ray's driver leaves out a line that repeats an earlier one but for its numbers ("There are 2
    retries remaining" after "3 retries"), so a second retry of the same task prints nothing."""
    from _observe import is_miniray, wait_until

    if not is_miniray(ray):
        wait_until(ray, lambda: len(log.lines(*needles)) >= count, limit_s=limit_s)
    return "\n".join(log.lines(*needles))
