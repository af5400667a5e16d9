"""What learner state a function reaches: the slots each simulated worker process copies.

Ray pickles a function defined in `__main__` by value (cloudpickle), together with the globals
its code names, its closure's cells, its default arguments and its `__dict__`; the classes it
names come along by value with their class attributes. A worker process unpickles that and runs
on its own copy, so nothing it writes reaches the driver or another process. miniray runs every
process in one interpreter, so instead it finds those *slots* (a global's binding, a closure cell,
a class attribute, a function attribute) and gives each process its own values for them
(`space.ProcessSpace`), swapped in while that process's body runs.

Only code in a module copied by value (`__main__`, a graded submission, the course's stories: see
`miniray.sim.copy_by_value`) has slots. Modules, functions and classes from other modules are
Ray's "imported fresh in the worker": miniray shares them, and `shared_state` warns where learner
code writes to them. miniray's own handles (refs, actor handles, remote functions, services) are
never slots: Ray serializes them as references to the same thing.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from typing import Any

from .shared_state import facts

MISSING: Any = object()  # a slot with no value now (a global deleted, a cell not yet assigned)

_CODE_LIKE = (types.FunctionType, type, types.MethodType, staticmethod, classmethod, property)
_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, range, type(Ellipsis))


class Slot:
    """One place learner state lives. `per_process`: a class attribute, which every function of
    the process sees alike (cloudpickle rebuilds one class per process), or the name `hash`, which
    a module that never binds it reads from builtins (kind "hash": the process's own salted hash,
    miniray/isolation/hashing.py); the others belong to one export, as each `cloudpickle.dumps`
    builds its own globals."""

    __slots__ = ("kind", "owner", "name", "per_process", "key")

    def __init__(self, kind: str, owner: Any, name: str, per_process: bool = False):
        self.kind = kind  # "global" | "cell" | "attr" | "hash" (a global the process fills in)
        self.owner = owner  # the globals dict, the cell, or the class / function
        self.name = name
        self.per_process = per_process
        self.key = (kind, id(owner), name)

    def get(self) -> Any:
        if self.kind == "global" or self.kind == "hash":
            return self.owner.get(self.name, MISSING)
        if self.kind == "cell":
            try:
                return self.owner.cell_contents
            except ValueError:  # an empty cell: the variable is not assigned yet
                return MISSING
        return self.owner.__dict__.get(self.name, MISSING)

    def set(self, value: Any) -> None:
        kind, owner, name = self.kind, self.owner, self.name
        if kind == "global" or kind == "hash":
            if value is MISSING:
                owner.pop(name, None)
            else:
                owner[name] = value
        elif kind == "cell":
            if value is MISSING:
                try:
                    del owner.cell_contents
                except ValueError:
                    pass
            else:
                owner.cell_contents = value
        elif value is MISSING:
            if name in owner.__dict__:
                delattr(owner, name)
        else:
            setattr(owner, name, value)

    def label(self) -> str:
        if self.kind == "hash":
            return f"hash() in {self.owner.get('__name__', '?')}, salted per process"
        if self.kind == "global":
            return f"global {self.name!r} of {self.owner.get('__name__', '?')}"
        if self.kind == "cell":
            return "a closure variable"
        owner = getattr(self.owner, "__qualname__", repr(self.owner))
        return f"{'class attribute' if self.per_process else 'attribute'} {owner}.{self.name}"


# Names each code object (and the code nested in it) reads or writes as globals. A pure cache:
# code objects are immutable, and a graded run compiles the same source again, so entries repeat.
_NAMES: dict[types.CodeType, frozenset[str]] = {}
_NAMES_CACHE_SIZE = 4096


def code_names(code: types.CodeType) -> frozenset[str]:
    """`co_names` of the code and its nested code: a superset of its globals (attribute names
    too), as cloudpickle takes; a name that is not a global of the function is simply not found."""
    names = _NAMES.get(code)
    if names is None:
        found = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                found |= code_names(const)
        names = frozenset(found)
        if len(_NAMES) >= _NAMES_CACHE_SIZE:
            _NAMES.clear()
        _NAMES[code] = names
    return names


def is_handle(value: Any) -> bool:
    """miniray's own objects, shared by every process: refs, actor handles, remote functions."""
    return getattr(type(value), "__miniray_shared__", False) and not isinstance(value, type)


def immutable(value: Any) -> bool:
    kind = type(value)
    if kind in _IMMUTABLE:
        return True
    if kind is tuple or kind is frozenset:
        return all(immutable(v) for v in value)
    return False


class Footprint:
    """The slots a function or class reaches, and the learner functions it may run (scanned for
    writes to shared state)."""

    __slots__ = ("slots", "functions")

    def __init__(self, slots: tuple[Slot, ...], functions: tuple[types.FunctionType, ...]):
        self.slots = slots
        self.functions = functions


def footprint(root: Any, by_value: Callable[[str], bool], library: Callable[[str], bool]) -> Footprint:
    """Walk from `root` through the functions and classes it can reach; collect the slots of
    those defined in modules copied by value. Instances of a library's classes (a grader's
    simulated checkpoint store, say) are shared like miniray's handles: they stand for services
    outside the cluster."""

    def _shared(value: Any) -> bool:
        return _builtin_shared(value) or library(getattr(type(value), "__module__", None) or "")

    slots: dict[tuple, Slot] = {}
    functions: list[types.FunctionType] = []
    seen: set[int] = set()
    stack: list[Any] = [root]

    def add(slot: Slot) -> None:
        slots.setdefault(slot.key, slot)

    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, types.FunctionType):
            if not _by_value(obj, by_value):
                # Another module's function (a grader's scenario, say): not copied, but learner
                # functions it closes over (a submission's namespace) run in this process too.
                for cell in obj.__closure__ or ():
                    try:
                        inner = cell.cell_contents
                    except ValueError:
                        continue
                    if _walkable(inner):
                        stack.append(inner)
                continue
            functions.append(obj)
            for kind, owner, name, value in _function_slots(obj):
                if _walkable(value):  # a SimpleNamespace too: a grader's view of a submission
                    stack.append(value)
                elif value is MISSING or not _shared(value):
                    # MISSING: a `global`/`nonlocal` the body assigns later is its own too
                    add(Slot(kind, owner, name, per_process=kind == "hash"))
        elif isinstance(obj, type):
            if not _by_value(obj, by_value):
                continue
            for base in obj.__mro__[1:]:
                stack.append(base)
            for name, value in list(vars(obj).items()):
                if _walkable(value):
                    stack.append(value)
                elif not (name.startswith("__") and name.endswith("__")) and not _shared(value):
                    add(Slot("attr", obj, name, per_process=True))
        elif isinstance(obj, types.MethodType):
            stack.append(obj.__func__)
        elif isinstance(obj, (staticmethod, classmethod)):
            stack.append(obj.__func__)
        elif isinstance(obj, property):
            stack.extend(f for f in (obj.fget, obj.fset, obj.fdel) if f is not None)
        elif isinstance(obj, types.SimpleNamespace):  # a grader's view of a submission's functions
            stack.extend(v for v in vars(obj).values() if _walkable(v))
    return Footprint(tuple(slots.values()), tuple(functions))


def _function_slots(fn: types.FunctionType) -> Iterator[tuple[str, Any, str, Any]]:
    """(kind, owner, name, value) of each place the function's state may live; the caller makes a
    Slot of the ones that hold learner data (most are modules and functions: no Slot for them)."""
    g = fn.__globals__
    names = code_names(fn.__code__)
    for name in names:
        if name in g:
            yield "global", g, name, g[name]
    if "hash" in names and "hash" not in g:  # the builtin, read by name: each process salts its own
        yield "hash", g, "hash", MISSING
    for name in facts(fn.__code__).stores:  # `global x; x = ...` before x exists
        if name not in g:
            yield "global", g, name, MISSING
    for cell in fn.__closure__ or ():
        try:
            yield "cell", cell, "", cell.cell_contents
        except ValueError:  # not assigned yet
            yield "cell", cell, "", MISSING
    if fn.__defaults__ and not immutable(fn.__defaults__):
        yield "attr", fn, "__defaults__", fn.__defaults__
    if fn.__kwdefaults__ and not all(immutable(v) for v in fn.__kwdefaults__.values()):
        yield "attr", fn, "__kwdefaults__", fn.__kwdefaults__
    for name, value in fn.__dict__.items():
        if not (name.startswith("__") and name.endswith("__")):
            yield "attr", fn, name, value


def _by_value(obj: Any, by_value: Callable[[str], bool]) -> bool:
    """Is this function or class copied by value, as cloudpickle decides: its module is one
    (`__main__`, a registered one), or it cannot be imported by name (defined inside a function)."""
    return by_value(getattr(obj, "__module__", None) or "") or "<locals>" in getattr(obj, "__qualname__", "")


def _walkable(value: Any) -> bool:
    return isinstance(value, _CODE_LIKE) or type(value) is types.SimpleNamespace


def _builtin_shared(value: Any) -> bool:
    """Not copied: modules, builtins, and miniray's handles."""
    return isinstance(value, (types.ModuleType, types.BuiltinFunctionType)) or is_handle(value)
