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
_DEFINITIONS = (types.FunctionType, type, staticmethod, classmethod, property)  # bound: defining code
_ATOMIC = (types.ModuleType, types.BuiltinFunctionType)  # never a slot, never walked
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
    writes to shared state). `slots`: each simulated process's own (what cloudpickle copies);
    `shared`: the rest a run could change, which a run's processes share (see `footprint`),
    found only when asked (`whole=True`)."""

    __slots__ = ("slots", "functions", "shared")

    def __init__(
        self,
        slots: tuple[Slot, ...],
        functions: tuple[types.FunctionType, ...],
        shared: tuple[Slot, ...] = (),
    ):
        self.slots = slots
        self.functions = functions
        self.shared = shared


def footprint(
    root: Any, by_value: Callable[[str], bool], library: Callable[[str], bool], whole: bool = False
) -> Footprint:
    """The one walk of learner state: the engine's exports (each process's own copy), the
    grader's fresh notebook state for every run (faultlines/grader/notebook_state.py: `whole`)
    and the jail's processes (faultlines/sandbox/processes.py) all ask it. The rules, once:

    - Walked: functions and classes copied by value (`by_value`, or defined inside a function),
      their bases, methods, properties, bound methods' functions, a SimpleNamespace's values; of
      another module's function, only the learner functions its closure holds.
    - A process's own slot (`slots`, Ray's cloudpickle copies it): a global the code names that
      exists, or that it assigns (`global x`); the name `hash`; a closure cell holding data; a
      mutable default; a function attribute or a non-dunder class attribute holding data.
    - Shared by a run's processes (`shared`, with `whole`; a fresh run still copies them): what
      Ray would not copy into a worker or exports on its own: miniray's handles and a library's
      instances (services outside the cluster; `library`), and what a remote function or an
      actor class (`__wrapped__`) reaches; and what only a later run could see changed: a name
      the code names that does not exist yet, a cell or function attribute holding code, bound
      methods and namespaces, immutable defaults.
    - Never a slot: modules, builtins, code bound to a global or a class attribute (rebinding
      it is defining code), another module's functions and classes (imported fresh, shared).
    """
    walk = _Walk(by_value, library, whole)
    walk.push(root, False)
    walk.run()
    own = walk.slots[False]
    shared = tuple(s for k, s in walk.slots[True].items() if k not in own)
    return Footprint(tuple(own.values()), tuple(walk.functions), shared)


class _Walk:
    """One walk's state: the stack of (object, reached only through what runs share), what it
    has seen, and the slots found, own (False) and shared (True)."""

    def __init__(self, by_value: Callable[[str], bool], library: Callable[[str], bool], whole: bool):
        self.by_value, self.library, self.whole = by_value, library, whole
        self.slots: dict[bool, dict[tuple, Slot]] = {False: {}, True: {}}
        self.functions: list[types.FunctionType] = []
        self.seen: set[tuple[int, bool]] = set()
        self.stack: list[tuple[Any, bool]] = []

    def push(self, obj: Any, shared: bool) -> None:
        if self.whole or not shared:
            self.stack.append((obj, shared))

    def add(self, slot: Slot, shared: bool) -> None:
        if self.whole or not shared:
            self.slots[shared].setdefault(slot.key, slot)

    def _is_shared(self, value: Any) -> bool:
        return _builtin_shared(value) or self.library(getattr(type(value), "__module__", None) or "")

    def value(self, kind: str, owner: Any, name: str, value: Any, shared: bool, code_slot: bool) -> None:
        """Place one value found in a slot: walk it, and make the slot own, shared or nothing."""
        whole = self.whole
        if shared and not whole:
            return  # the engine's export: only a process's own slots, only what they reach
        if value is MISSING:
            self.add(Slot(kind, owner, name, _per_process(kind, owner)), shared)
        elif _walkable(value):
            self.push(value, shared)
            if whole and (code_slot or not isinstance(value, _DEFINITIONS)):
                self.add(Slot(kind, owner, name, _per_process(kind, owner)), True)
        elif isinstance(value, _ATOMIC):
            return
        elif self._is_shared(value):
            if whole:
                self.add(Slot(kind, owner, name, _per_process(kind, owner)), True)
                self._wrapped(value)
        else:
            self.add(Slot(kind, owner, name, _per_process(kind, owner)), shared)
            if whole:
                self._wrapped(value)

    def _wrapped(self, value: Any) -> None:
        """A remote function's or a decorated object's own code: what runs when it is called."""
        wrapped = getattr(value, "__wrapped__", None)
        if wrapped is not None and not isinstance(value, type):
            self.push(wrapped, True)

    def run(self) -> None:
        while self.stack:
            obj, shared = self.stack.pop()
            if (id(obj), shared) in self.seen:
                continue
            self.seen.add((id(obj), shared))
            if isinstance(obj, types.FunctionType):
                self.function(obj, shared)
            elif isinstance(obj, type):
                self.cls(obj, shared)
            elif isinstance(obj, (types.MethodType, staticmethod, classmethod)):
                self.push(obj.__func__, shared)
            elif isinstance(obj, property):
                for f in (obj.fget, obj.fset, obj.fdel):
                    if f is not None:
                        self.push(f, shared)
            elif isinstance(obj, types.SimpleNamespace):  # a grader's view of a submission's functions
                for name, v in vars(obj).items():
                    if _walkable(v):
                        self.push(v, shared)
                    else:
                        self.value("attr", obj, name, v, True, False)

    def function(self, fn: types.FunctionType, shared: bool) -> None:
        if not _by_value(fn, self.by_value):
            # Another module's function (a grader's scenario, say): not copied, but learner
            # functions it closes over (a submission's namespace) run in this process too.
            for cell in fn.__closure__ or ():
                try:
                    inner = cell.cell_contents
                except ValueError:
                    continue
                if _walkable(inner):
                    self.push(inner, shared)
            return
        if not shared:
            self.functions.append(fn)
        for kind, owner, name, value, own in _function_slots(fn, self.whole):
            self.value(kind, owner, name, value, shared or not own, kind in ("cell", "attr"))

    def cls(self, cls: type, shared: bool) -> None:
        if not _by_value(cls, self.by_value):
            return
        for base in cls.__mro__[1:]:
            self.push(base, shared)
        for name, value in list(vars(cls).items()):
            if _walkable(value):
                self.push(value, shared)
            elif not (name.startswith("__") and name.endswith("__")):
                self.value("attr", cls, name, value, shared, False)


def _function_slots(fn: types.FunctionType, whole: bool) -> Iterator[tuple[str, Any, str, Any, bool]]:
    """(kind, owner, name, value, a process's own?) of each place the function's state may
    live; `footprint` makes a Slot of the ones that hold learner data."""
    g = fn.__globals__
    names = code_names(fn.__code__)
    for name in names:
        if name in g:
            yield "global", g, name, g[name], True
    if "hash" in names and "hash" not in g:  # the builtin, read by name: each process salts its own
        yield "hash", g, "hash", MISSING, True
    stores = facts(fn.__code__).stores
    for name in stores:  # `global x; x = ...` before x exists
        if name not in g:
            yield "global", g, name, MISSING, True
    if whole:  # a name it reads that exists in no run yet: a later run may have made it
        for name in names:
            if name not in g and name not in stores and name != "hash":
                yield "global", g, name, MISSING, False
    for cell in fn.__closure__ or ():
        try:
            yield "cell", cell, "", cell.cell_contents, True
        except ValueError:  # not assigned yet
            yield "cell", cell, "", MISSING, True
    for name in ("__defaults__", "__kwdefaults__"):
        values = getattr(fn, name)
        if values:
            mutable = not all(immutable(v) for v in (values.values() if name == "__kwdefaults__" else values))
            yield "attr", fn, name, values, mutable
    for name, value in fn.__dict__.items():
        if not (name.startswith("__") and name.endswith("__")):
            yield "attr", fn, name, value, True


def _per_process(kind: str, owner: Any) -> bool:
    """A class attribute (one class per process) or the name `hash` (one salt per process)."""
    return kind == "hash" or (kind == "attr" and isinstance(owner, type))


def _by_value(obj: Any, by_value: Callable[[str], bool]) -> bool:
    """Is this function or class copied by value, as cloudpickle decides: its module is one
    (`__main__`, a registered one), or it cannot be imported by name (defined inside a function)."""
    return by_value(getattr(obj, "__module__", None) or "") or "<locals>" in getattr(obj, "__qualname__", "")


def _walkable(value: Any) -> bool:
    return isinstance(value, _CODE_LIKE) or type(value) is types.SimpleNamespace


def _builtin_shared(value: Any) -> bool:
    """Not copied: modules, builtins, and miniray's handles."""
    return isinstance(value, _ATOMIC) or is_handle(value)
