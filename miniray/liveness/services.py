"""Simulated external services that task bodies call: a database, a blob store, a lease service.

They exist to make one fact visible: the framework controls its own output (the return value,
which a superseded attempt cannot overwrite) and nothing else. An insert, a rename or a lease is
an effect in the world, done by whichever attempt ran it. So every effect is recorded in
`Services.effects` (and the runtime's event log, kind "effect") stamped with virtual time and
the attempt that made it ("f#1/2"; "driver" outside a task), including the ones that failed.

Every call made inside a body goes through the body's journal (`context.interact`): when a body
is replayed after blocking, its earlier calls are answered from the journal instead of being
made again (see miniray/execution.py). A *retry* is a new attempt with an empty journal, so it
does repeat them: that is the duplicate the lessons show.

Defences modelled:
- unique keys: `db.insert` of an existing key raises DuplicateKeyError; `db.upsert` is idempotent;
- exclusive commit: `blobs.rename(src, dst)` fails if dst exists, so the first attempt to finish
  claims the destination and the loser discards its private output (`blobs.commit`);
- fencing: `leases.acquire` hands out a token that grows with every grant; a store given
  `token=` remembers the highest token it has seen per lease and rejects older ones
  (StaleTokenError). The store only knows tokens it has seen, so a new holder should write with
  its token before the old one can (Kleppmann's fencing; the lease service does not call stores).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import context
from ..copying import shared
from ..events import Kind


class ServiceError(Exception):
    """Base class of the simulated services' errors (all terminal: retrying repeats them)."""


class DuplicateKeyError(ServiceError):
    pass


class StaleTokenError(ServiceError):
    pass


class LeaseHeldError(ServiceError):
    pass


class DestinationExistsError(ServiceError, FileExistsError):
    pass


@dataclass(frozen=True)
class FencingToken:
    lease: str
    value: int
    holder: str
    expires: float

    def __str__(self) -> str:
        return f"{self.lease}:{self.value}"


@dataclass
class Effect:
    time: float
    attempt: str
    service: str
    op: str
    key: str
    outcome: str  # "ok" or the error class name
    token: str = ""
    detail: dict = field(default_factory=dict)

    def line(self) -> str:
        tok = f" token={self.token}" if self.token else ""
        return (
            f"{self.time:10.3f} {self.attempt:<12} {self.service}.{self.op} {self.key} -> {self.outcome}{tok}"
        )


def _runtime():
    # Effects are stamped with virtual time, so there must be a clock.
    return context.require("using the simulated services")


@shared
class Services:
    """One world of external services sharing an effect log. Create it in the driver."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []
        self.db = Database(self)
        self.blobs = BlobStore(self)
        self.leases = Leases(self)

    # Every service operation runs through here: journaled in a body, stamped, logged.
    def call(
        self,
        service: str,
        op: str,
        key: str,
        fn: Callable[[], Any],
        token: FencingToken | None = None,
        record: bool = True,
    ) -> Any:
        rt = _runtime()

        def live() -> Any:
            attempt = rt._current[-1].key if rt._current else "driver"
            tok = str(token) if token is not None else ""
            try:
                value = fn()
            except ServiceError as e:
                if record:
                    self._log(rt, attempt, service, op, key, type(e).__name__, tok)
                raise
            if record:
                if isinstance(value, FencingToken):  # a grant: log the token it handed out
                    tok = str(value)
                self._log(rt, attempt, service, op, key, "ok", tok)
            return value

        return context.interact(rt, live, f"{service}.{op}")

    def _log(self, rt, attempt: str, service: str, op: str, key: str, outcome: str, token: str) -> None:
        now = rt.now()
        self.effects.append(Effect(now, attempt, service, op, key, outcome, token))
        rt.emit(Kind.EFFECT, attempt=attempt, service=service, op=op, key=key, outcome=outcome, token=token)

    # -- reading the log (driver side, not journaled) ----------------------------------------------
    def of(
        self,
        service: str | None = None,
        op: str | None = None,
        key: str | None = None,
        outcome: str | None = None,
    ) -> list[Effect]:
        return [
            e
            for e in self.effects
            if (service is None or e.service == service)
            and (op is None or e.op == op)
            and (key is None or e.key == key)
            and (outcome is None or e.outcome == outcome)
        ]

    def attempts(self, **match: Any) -> list[str]:
        return [e.attempt for e in self.of(**match)]

    def text(self) -> str:
        return "\n".join(e.line() for e in self.effects) + ("\n" if self.effects else "")


class _Fenced:
    """Store-side fencing: remember the highest token seen per lease, refuse anything older."""

    def __init__(self) -> None:
        self.highest: dict[str, int] = {}

    def check(self, token: FencingToken | None, what: str) -> None:
        if token is None:
            return
        seen = self.highest.get(token.lease, 0)
        if token.value < seen:
            raise StaleTokenError(
                f"{what}: fencing token {token} is older than {token.lease}:{seen}, which this store "
                f"has already seen; the lease passed to a newer holder. The stale writer must stop "
                "(acquire the lease again rather than retrying with the old token)."
            )
        self.highest[token.lease] = token.value


@shared
class Database(_Fenced):
    """Tables of key -> value. insert enforces unique keys; upsert overwrites."""

    def __init__(self, services: Services):
        super().__init__()
        self.svc = services
        self.tables: dict[str, dict[str, Any]] = {}

    def insert(self, table: str, key: str, value: Any, token: FencingToken | None = None) -> None:
        def run() -> None:
            self.check(token, f"insert {table}/{key}")
            rows = self.tables.setdefault(table, {})
            if key in rows:
                raise DuplicateKeyError(
                    f"duplicate key {key!r} in table {table!r}: an earlier attempt already inserted it. "
                    "Make the write idempotent (upsert, or insert with an idempotency key and treat "
                    "a duplicate as success)."
                )
            rows[key] = value

        self.svc.call("db", "insert", f"{table}/{key}", run, token)

    def upsert(self, table: str, key: str, value: Any, token: FencingToken | None = None) -> None:
        def run() -> None:
            self.check(token, f"upsert {table}/{key}")
            self.tables.setdefault(table, {})[key] = value

        self.svc.call("db", "upsert", f"{table}/{key}", run, token)

    def get(self, table: str, key: str, default: Any = None) -> Any:
        """A read: journaled (a replay sees the same answer) but not an effect, so not logged."""
        return self.svc.call(
            "db", "get", f"{table}/{key}", lambda: self.tables.get(table, {}).get(key, default), record=False
        )

    def rows(self, table: str) -> dict[str, Any]:
        """The table's contents, for the driver to inspect (not journaled)."""
        return dict(self.tables.get(table, {}))


@shared
class BlobStore(_Fenced):
    """Paths -> bytes. rename is atomic and exclusive: it never replaces an existing destination.

    `name` is what its calls are logged as ("blob.put"): a store a task is handed under another
    name (an exercise's `out`) can be logged under that one, so the log says what the code says."""

    def __init__(self, services: Services, name: str = "blob"):
        super().__init__()
        self.svc = services
        self.name = name
        self.files: dict[str, Any] = {}
        self.writers: dict[str, str] = {}  # path -> attempt that wrote it (or renamed it there)

    def _attempt(self) -> str:
        rt = _runtime()
        return rt._current[-1].key if rt._current else "driver"

    def put(self, path: str, data: Any, token: FencingToken | None = None) -> None:
        def run() -> None:
            self.check(token, f"put {path}")
            self.files[path] = data
            self.writers[path] = self._attempt()

        self.svc.call(self.name, "put", path, run, token)

    def rename(self, src: str, dst: str, token: FencingToken | None = None) -> None:
        def run() -> None:
            self.check(token, f"rename {src} -> {dst}")
            if src not in self.files:
                raise ServiceError(f"rename: source {src!r} does not exist; put() it first.")
            if dst in self.files:
                raise DestinationExistsError(
                    f"rename {src} -> {dst}: the destination exists, written by {self.writers[dst]}. "
                    "Another attempt committed first; discard this attempt's output."
                )
            self.files[dst] = self.files.pop(src)
            self.writers[dst] = self._attempt()
            self.writers.pop(src, None)

        self.svc.call(self.name, "rename", f"{src}->{dst}", run, token)

    def delete(self, path: str) -> None:
        def run() -> None:
            self.files.pop(path, None)
            self.writers.pop(path, None)

        self.svc.call(self.name, "delete", path, run)

    def commit(self, src: str, dst: str, token: FencingToken | None = None) -> bool:
        """Exclusive commit: True if this attempt claimed `dst`; False if it lost (src discarded)."""
        try:
            self.rename(src, dst, token)
            return True
        except DestinationExistsError:
            self.delete(src)
            return False

    def read(self, path: str) -> Any:
        return self.svc.call(self.name, "read", path, lambda: self.files.get(path), record=False)


@shared
class Leases:
    """Time-limited leases on names; each grant gets a token one higher than the last."""

    def __init__(self, services: Services):
        self.svc = services
        self.current: dict[str, FencingToken] = {}
        self.counter: dict[str, int] = {}

    def acquire(self, name: str, ttl_s: float = 10.0) -> FencingToken:
        rt = _runtime()

        def run() -> FencingToken:
            now = rt.now()
            holder = rt._current[-1].key if rt._current else "driver"
            held = self.current.get(name)
            if held is not None and held.expires > now and held.holder != holder:
                raise LeaseHeldError(
                    f"lease {name!r} is held by {held.holder} until t={held.expires:g}; wait for it to "
                    "expire (a holder that stops renewing loses it) or use a shorter ttl_s."
                )
            if held is not None and held.expires > now and held.holder == holder:
                value = held.value  # a renewal by the holder keeps its token, extends the lease
            else:
                value = self.counter.get(name, 0) + 1  # a new grant: one higher than any before
                self.counter[name] = value
            token = FencingToken(name, value, holder, now + float(ttl_s))
            self.current[name] = token
            return token

        return self.svc.call("lease", "acquire", name, run)

    def holder(self, name: str) -> FencingToken | None:
        rt = _runtime()
        held = self.current.get(name)
        return held if held is not None and held.expires > rt.now() else None
