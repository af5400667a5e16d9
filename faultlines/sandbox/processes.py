"""Each simulated worker process's own copy of the learner's state, kept in the jail.

In one process, miniray gives every simulated worker its own copy of the learner's module-level,
closure and class-attribute state (miniray.isolation: footprints, exports, process spaces). With
the judge and the jail apart, that state lives in the jail, so the copying happens here, with
miniray's own pure isolation module, driven by what the judge sends with each call made inside a
task body: the attempt's key, its worker's pid and which run of the attempt it is. What a
function reaches is miniray's one walk of learner state (miniray/isolation/footprint.py says its
rules), the same the engine and the notebook grader ask.

- An export (a function's or class's slots and their values) is taken at its first `.remote()`
  in the run: here when the jail submits it, else at its first body (submitted by the judge: an
  actor class the scenario starts, or the scenario's own task that calls the learner's functions,
  whose footprint in one process is the submission's namespace it closes over).
- A body runs with its process's values swapped into the slots, and a re-run of an attempt
  starts from the values its first run started with, as miniray.execution does.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

SHARED_PACKAGES = ("miniray", "faultlines")  # instances of their classes are handles, never copied


class Processes:
    """One graded run's worker memories (a fresh load starts a new one)."""

    def __init__(self, module: str, namespace: dict[str, Any]) -> None:
        # The real miniray.isolation, from the mounted source: pure Python, no simulation.
        from miniray.isolation import Exports

        self.namespace = namespace
        self.exports = Exports(
            lambda name: name == module or name.startswith(module + "."),
            lambda name: name.split(".", 1)[0] in SHARED_PACKAGES,
        )
        self.spaces: dict[int, Any] = {}  # pid -> miniray.isolation.ProcessSpace
        self.starts: dict[str, tuple[int, list]] = {}  # attempt key -> (run, values at its start)
        self._whole: dict[str, types.SimpleNamespace] = {}

    def export(self, target: Any) -> Any:
        return self.exports.of(target)

    def scenario_task(self, task: str) -> types.SimpleNamespace:
        """What a scenario's own task reaches of the learner's state: the submission's functions
        and classes (in one process, its closure holds the submission's namespace)."""
        found = self._whole.get(task)
        if found is None:
            found = self._whole[task] = types.SimpleNamespace(
                **{k: v for k, v in self.namespace.items() if isinstance(v, (types.FunctionType, type))}
            )
        return found

    @contextmanager
    def running(self, target: Any, hdr: dict) -> Iterator[None]:
        """Run with the calling attempt's process values in place (no attempt: the driver's own)."""
        pid, key, run = hdr.get("pid"), hdr.get("key"), hdr.get("runs")
        if type(pid) is not int or type(key) is not str or type(run) is not int:
            yield
            return
        export = self.exports.of(target)
        if export is None:
            yield
            return
        from miniray.isolation import ProcessSpace

        space = self.spaces.get(pid)
        if space is None:  # its hash salt as in one process: from the run's seed and the pid
            salt = hdr.get("salt")
            space = self.spaces[pid] = ProcessSpace(salt if type(salt) is int else None)
        started = self.starts.get(key)
        if started is None:
            self.starts[key] = (run, space.snapshot(export))
        elif run != started[0]:  # a re-run starts from the attempt's start
            space.restore(export, started[1])
            self.starts[key] = (run, started[1])
        saved = space.enter(export)
        try:
            yield
        finally:
            space.leave(export, saved)
