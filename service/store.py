"""The event store: one eventsourcing Application for every aggregate, SQLite or PostgreSQL."""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar, cast
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import (
    IntegrityError,
    Mapper,
    Notification,
    StoredEvent,
    Transcoder,
)
from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import get_topic, resolve_topic

from domain.errors import ConflictError, NotFoundError
from domain.events import Aggregate, DomainEvent

A = TypeVar("A", bound=Aggregate)

_encoder = msgspec.json.Encoder()


class MsgspecMapper(Mapper[UUID]):
    """Stores each event as the JSON of its msgspec Struct, decoded back to the exact type."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = _encoder.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        state = stored_event.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        return msgspec.json.decode(state, type=resolve_topic(stored_event.topic))


class UnusedTranscoder(Transcoder):
    """The mapper encodes Structs itself; eventsourcing still wants a transcoder object."""

    def encode(self, obj: Any) -> bytes:
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError


def evolve_each(
    evolve: Callable[[A | None, Any], A], state: A | None, events: Iterable[Any]
) -> list[A]:
    """The state after each of ``events`` (for snapshots at their exact versions)."""
    states = []
    for event in events:
        state = evolve(state, event)
        states.append(state)
    return states


class StaleVersionError(ConflictError):
    """Another command changed the aggregate first (optimistic concurrency)."""

    type_slug = "stale-version"


class UnknownAggregateError(NotFoundError):
    """No events exist for this id (or none up to the requested version)."""


class DurableWalConnectionPool(SQLiteConnectionPool):
    """SQLite connections in WAL mode with ``synchronous=NORMAL``.

    A commit then appends to the write-ahead log without an fsync (the log is synced at each
    checkpoint): about 20 times faster per command than the default FULL. A crash of the
    process loses nothing; a power cut may lose the last commits, never the file's consistency.
    """

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        if not self.is_sqlite_memory_mode:
            connection.cursor().execute("PRAGMA synchronous=NORMAL")
        return connection


class TunedSQLiteFactory(SQLiteFactory):
    """eventsourcing's SQLite module with ``DurableWalConnectionPool`` connections."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        default = self.datastore.pool
        self.datastore.pool = DurableWalConnectionPool(
            db_name=default.db_name, lock_timeout=default.lock_timeout
        )
        default.close()


def persistence_environment(database_url: str) -> dict[str, str]:
    """eventsourcing settings for ``sqlite:///path`` or ``postgresql://user@host:port/db``."""
    parts = urlsplit(database_url)
    if parts.scheme == "sqlite":
        return {
            "PERSISTENCE_MODULE": get_topic(TunedSQLiteFactory),
            "SQLITE_DBNAME": unquote(parts.path.removeprefix("/")) or ":memory:",
            "SQLITE_LOCK_TIMEOUT": "30",
            # One process owns an SQLite store, so its cache is never behind the store: a load
            # needs no query for newer events. (A second process would be safe, all appends
            # being checked, but would see 409s where its cache is behind.)
            "AGGREGATE_CACHE_FASTFORWARD": "n",
        }
    if parts.scheme in {"postgresql", "postgres"}:
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(parts.path.removeprefix("/")) or "bgtd",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_POOL_SIZE": "10",
            "POSTGRES_MAX_OVERFLOW": "10",
            "POSTGRES_CONNECT_TIMEOUT": "5",
            "POSTGRES_SCHEMA": parse_qs(parts.query).get("schema", ["public"])[0],
        }
    msg = f"unsupported database URL scheme {parts.scheme!r} (use sqlite:/// or postgresql://)"
    raise ValueError(msg)


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """An aggregate's state at a version, so that long streams load without a full replay.

    A storage artefact, not a domain fact: it lives in the snapshots table, never in the log.
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    topic: str
    state: bytes


class StateCache:
    """The latest states this process knows, by aggregate id; never older than what it stored.

    Each entry holds a version and the state at it, or no state when only the version is known
    (after an append whose resulting state the caller did not give, or a lost race). A state
    is kept only if it is at least as new as the entry: a slow load can never put back a state
    that an append has already superseded.
    """

    def __init__(self, maxsize: int) -> None:
        self._entries: OrderedDict[UUID, tuple[int, Aggregate | None]] = OrderedDict()
        self._maxsize = maxsize
        self._lock = threading.Lock()

    def get(self, aggregate_id: UUID) -> Aggregate | None:
        with self._lock:
            entry = self._entries.get(aggregate_id)
            if entry is None:
                return None
            self._entries.move_to_end(aggregate_id)
            return entry[1]

    def offer(self, state: Aggregate) -> None:
        self._record(state.id, state.version, state)

    def supersede(self, aggregate_id: UUID, version: int) -> None:
        """The store holds ``version`` or later: drop any older state."""
        self._record(aggregate_id, version, None)

    def _record(self, aggregate_id: UUID, version: int, state: Aggregate | None) -> None:
        with self._lock:
            entry = self._entries.get(aggregate_id)
            if entry is not None and (entry[0] > version or (entry[0] == version and entry[1])):
                return
            self._entries[aggregate_id] = (version, state)
            self._entries.move_to_end(aggregate_id)
            while len(self._entries) > self._maxsize:
                self._entries.popitem(last=False)


class EventStore(Application[UUID]):
    """All aggregates of one club in one stream store, with one notification log."""

    name = "bgtd"
    env = {  # noqa: RUF012 - eventsourcing reads this class attribute
        "MAPPER_TOPIC": get_topic(MsgspecMapper),
        "TRANSCODER_TOPIC": get_topic(UnusedTranscoder),
        "IS_SNAPSHOTTING_ENABLED": "y",
    }
    snapshot_interval = 100
    """Take a snapshot every this many events, so that long streams stay quick to load."""
    cache_size = 2000
    """Aggregates kept in memory: each table's match and the tournaments of the season."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self.states = StateCache(self.cache_size)
        # A store that other processes write to (PostgreSQL) is asked for newer events on each
        # load; an SQLite store belongs to this process, so its cached states are the latest.
        self.is_shared = not self.env.get("PERSISTENCE_MODULE", "").endswith("SQLiteFactory")

    def append(self, *events: DomainEvent, state: Aggregate | None = None) -> int:
        """Store ``events`` atomically; returns the last notification id.

        ``state`` is the aggregate after them, cached for the next command. An event whose
        version was taken meanwhile raises ``StaleVersionError``: nothing is stored, and the
        next load reads what the winner stored.
        """
        try:
            # Straight to the event store: Application.save would only add runtime protocol
            # checks and notifications to in-process followers, which this service has none of.
            recordings = self.events.put(list(events))
        except IntegrityError:
            for event in events:
                self.states.supersede(event.originator_id, event.originator_version)
            raise StaleVersionError(
                "the aggregate was changed by another command; reload and retry"
            ) from None
        for event in events:
            self.states.supersede(event.originator_id, event.originator_version)
        if state is not None:
            self.states.offer(state)
        return recordings[-1].notification.id if recordings else 0

    def load(
        self, aggregate_id: UUID, evolve: Callable[[A | None, Any], A], version: int | None = None
    ) -> A:
        """The aggregate as of ``version`` (latest when None), from snapshot plus later events."""

        def project(state: A | None, events: Iterable[Any]) -> A | None:
            for event in events:
                if isinstance(event, Snapshot):
                    state = msgspec.json.decode(event.state, type=resolve_topic(event.topic))
                else:
                    state = evolve(state, event)
            return state

        if version is None:
            cached = cast("A | None", self.states.get(aggregate_id))
            if cached is not None and not self.is_shared:
                return cached
            if cached is not None:
                newer = self.events.get(aggregate_id, gt=cached.version)
                latest = project(cached, newer)
                if latest is not None:
                    self.states.offer(latest)
                    return latest
        try:
            aggregate = self.repository.get(aggregate_id, version=version, projector_func=project)
        except AggregateNotFoundError:
            raise UnknownAggregateError(f"no record with id {aggregate_id}") from None
        if version is None:
            self.states.offer(aggregate)
        return aggregate

    def load_as(
        self,
        aggregate_id: UUID,
        evolve: Callable[[A | None, Any], A],
        kind: type[A],
        not_found: Callable[[], NotFoundError],
        version: int | None = None,
        *,
        unknown_as_not_found: bool = True,
    ) -> A:
        """The ``kind`` aggregate, or ``not_found()`` when the id names another kind of aggregate.

        An unknown id raises ``not_found()`` too, or with ``unknown_as_not_found=False`` the
        store's ``UnknownAggregateError``.
        """
        try:
            state: object = self.load(aggregate_id, evolve, version)
        except UnknownAggregateError:
            if not unknown_as_not_found:
                raise
            state = None
        # The cache holds states by id only: another aggregate's id may come back as its state.
        if not isinstance(state, kind):
            raise not_found()
        return state

    def append_states(self, events: Sequence[DomainEvent], states: Sequence[A]) -> A:
        """Append ``events`` with ``states``, the state after each of them; return the last.

        The cache keeps the last state for the next command (no reload), and each state whose
        version is due gets its snapshot, also when a multi-event command passes the snapshot
        version on its way.
        """
        state = states[-1]
        self.append(*events, state=state)
        for each in states:
            self.snapshot_if_due(each, events[-1].timestamp)
        return state

    def snapshot_if_due(self, aggregate: Aggregate, timestamp: datetime) -> None:
        """Keep a snapshot every ``snapshot_interval`` events (idempotent per version)."""
        if aggregate.version % self.snapshot_interval or self.snapshots is None:
            return
        snapshot = Snapshot(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=timestamp,
            topic=get_topic(type(aggregate)),
            state=_encoder.encode(aggregate),
        )
        with contextlib.suppress(IntegrityError):  # another process took it first
            self.snapshots.put([snapshot])

    def stream(self, aggregate_id: UUID, until_version: int | None = None) -> list[Any]:
        """The aggregate's events in order, up to ``until_version``."""
        return list(self.events.get(aggregate_id, lte=until_version))

    def notifications(self, after: int, limit: int) -> Sequence[Notification]:
        """Stored events in commit order after notification id ``after``."""
        return self.recorder.select_notifications(start=after + 1, limit=limit)

    def latest_notification_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def decode(self, notification: StoredEvent) -> DomainEvent:
        return cast(DomainEvent, self.mapper.to_domain_event(notification))

    def iter_decoded(
        self, after: int, limit: int, wanted: Callable[[str], bool] = lambda _: True
    ) -> Iterator[tuple[int, DomainEvent | None]]:
        """Notification ids in order, each with its event, decoded only if its topic is wanted."""
        for notification in self.notifications(after, limit):
            wanted_event = self.decode(notification) if wanted(notification.topic) else None
            yield notification.id, wanted_event
