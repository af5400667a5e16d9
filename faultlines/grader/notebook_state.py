"""A notebook's state, fresh for every graded run, without running a cell again.

check() grades the functions the learner's cells defined, in the notebook's own namespace. A
run must not see what an earlier run left behind (a module-level list it appended to, a class
attribute it counted in, a closure's counter), or a verdict would depend on the order of the
runs. So, once per check(), this finds the *slots* the learner's functions reach (the globals
their code names, their closure cells, mutable default arguments, function attributes, and the
attributes of the classes the cells defined), and copies their values. Every run swaps a fresh
copy of those values in, and puts the learner's own values back when it ends: grading leaves the
notebook as it was.

What it does not reach: an actor class's attributes written by the driver (miniray gives each
simulated worker process its own copy; the driver's side is rarely written), and state in other
modules (shared on Ray too). The CLI needs none of this: it runs the compiled file again for
each run (submission.from_source).
"""

from __future__ import annotations

import copy
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_MISSING: Any = object()
_ATOMIC = (types.ModuleType, types.BuiltinFunctionType, types.MethodWrapperType)


def _names(code: types.CodeType) -> set[str]:
    """The global names a code object (and the code nested in it) may read or write."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def _copy(value: Any) -> Any:
    """A deep copy in which "no value" stays "no value"."""
    return copy.deepcopy(value, {id(_MISSING): _MISSING})


class _Slot:
    """One place learner state lives: a global, a closure cell or an attribute."""

    def __init__(self, kind: str, owner: Any, name: str = ""):
        self.kind, self.owner, self.name = kind, owner, name

    def get(self) -> Any:
        if self.kind == "global":
            return self.owner.get(self.name, _MISSING)
        if self.kind == "cell":
            try:
                return self.owner.cell_contents
            except ValueError:  # a cell not assigned yet
                return _MISSING
        return self.owner.__dict__.get(self.name, _MISSING)

    def set(self, value: Any) -> None:
        if self.kind == "global":
            if value is _MISSING:
                self.owner.pop(self.name, None)
            else:
                self.owner[self.name] = value
        elif self.kind == "cell":
            if value is not _MISSING:
                self.owner.cell_contents = value
            elif self.get() is not _MISSING:
                del self.owner.cell_contents
        elif value is _MISSING:
            if self.name in self.owner.__dict__:
                delattr(self.owner, self.name)
        else:
            setattr(self.owner, self.name, value)


class NotebookState:
    """The learner's slots in `namespace`, reached from the `entries` functions, and a copy of
    their values taken once (at check() time)."""

    def __init__(self, namespace: dict[str, Any], entries: list[str]):
        self.namespace = namespace
        self.module = namespace.get("__name__", "__main__")
        slots = self._walk([namespace[name] for name in entries])
        try:  # one copy of them all, so two names for one list stay one list
            self.slots, self.values = slots, _copy([slot.get() for slot in slots])
        except Exception:  # something cannot be copied (a lock, a generator): it stays shared
            self.slots, self.values = [], []
            for slot in slots:
                try:
                    self.values.append(_copy(slot.get()))
                except Exception:
                    continue
                self.slots.append(slot)

    def _learner_function(self, value: Any) -> bool:
        return isinstance(value, types.FunctionType) and value.__globals__ is self.namespace

    def _learner_class(self, value: Any) -> bool:
        return isinstance(value, type) and value.__module__ == self.module

    def _walk(self, roots: list[Any]) -> list[_Slot]:
        slots: dict[tuple, _Slot] = {}
        seen: set[int] = set()
        stack = list(roots)

        def add(slot: _Slot) -> None:
            slots.setdefault((slot.kind, id(slot.owner), slot.name), slot)

        def visit(value: Any) -> bool:
            """Push code to walk; False for a value that is plain data."""
            wrapped = getattr(value, "__wrapped__", None)  # functools.wraps, a remote function
            if wrapped is not None and not isinstance(value, type):
                stack.append(wrapped)
                return True
            if self._learner_function(value) or self._learner_class(value):
                stack.append(value)
                return True
            if isinstance(value, (staticmethod, classmethod)):
                stack.append(value.__func__)
                return True
            if isinstance(value, property):
                stack.extend(f for f in (value.fget, value.fset, value.fdel) if f is not None)
                return True
            return isinstance(value, (*_ATOMIC, type, types.FunctionType))  # another module's code

        while stack:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if self._learner_function(obj):
                for name in sorted(_names(obj.__code__)):
                    # Every global the code names, present or not: `global n; n = 1` may create one.
                    value = self.namespace.get(name, _MISSING)
                    if name.startswith("__fl_") or (value is not _MISSING and visit(value)):
                        continue
                    add(_Slot("global", self.namespace, name))
                for cell in obj.__closure__ or ():
                    add(_Slot("cell", cell))
                    try:
                        visit(cell.cell_contents)
                    except ValueError:
                        pass
                for name in ("__defaults__", "__kwdefaults__"):
                    if getattr(obj, name):
                        add(_Slot("attr", obj, name))
                for name in list(vars(obj)):
                    if not name.startswith("__"):
                        add(_Slot("attr", obj, name))
            elif self._learner_class(obj):
                for base in obj.__mro__[1:]:
                    visit(base)
                for name, value in list(vars(obj).items()):
                    if not (name.startswith("__") and name.endswith("__")) and not visit(value):
                        add(_Slot("attr", obj, name))
            elif isinstance(obj, types.FunctionType | type):
                continue  # another module's: imported fresh in a worker, shared as on Ray
            else:
                visit(obj)
        return list(slots.values())

    @contextmanager
    def fresh(self) -> Iterator[dict[str, Any]]:
        """The namespace with a fresh copy of the learner's state swapped in, for one run."""
        saved = [slot.get() for slot in self.slots]
        for slot, value in zip(self.slots, _copy(self.values)):
            slot.set(value)
        try:
            yield self.namespace
        finally:
            for slot, value in zip(self.slots, saved):
                slot.set(value)
