"""The event store: one eventsourcing Application for every aggregate, SQLite or PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
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
from domain.events import Aggregate, DomainEvent, Snapshot

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


class EventStore(Application[UUID]):
    """All aggregates of one club in one stream store, with one notification log."""

    name = "bgtd"
    env = {  # noqa: RUF012 - eventsourcing reads this class attribute
        "MAPPER_TOPIC": get_topic(MsgspecMapper),
        "TRANSCODER_TOPIC": get_topic(UnusedTranscoder),
        "IS_SNAPSHOTTING_ENABLED": "y",
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        # Aggregates are immutable Structs: the cache can hand them out without a deep copy.
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }
    snapshot_interval = 100
    """Take a snapshot every this many events, so that long streams stay quick to load."""

    def append(self, *events: DomainEvent, state: Aggregate | None = None) -> int:
        """Store ``events`` atomically; returns the last notification id.

        ``state`` is the aggregate after them, kept in the cache for the next command; without
        it the aggregates' cached states are dropped, so a load never returns an old state.
        An event whose version was taken meanwhile raises ``StaleVersionError``: nothing is
        stored, and the next load reads what the winner stored.
        """
        try:
            # Straight to the event store: Application.save would only add runtime protocol
            # checks and notifications to in-process followers, which this service has none of.
            recordings = self.events.put(list(events))
        except IntegrityError:
            self._forget(events)
            raise StaleVersionError(
                "the aggregate was changed by another command; reload and retry"
            ) from None
        if state is not None and self.repository.cache is not None:
            self.repository.cache.put(state.id, state)
        else:
            self._forget(events)
        return recordings[-1].notification.id if recordings else 0

    def _forget(self, events: Sequence[DomainEvent]) -> None:
        if self.repository.cache is None:
            return
        for aggregate_id in {event.originator_id for event in events}:
            with contextlib.suppress(KeyError):
                self.repository.cache.get(aggregate_id, evict=True)

    def load(
        self, aggregate_id: UUID, evolve: Callable[[A | None, Any], A], version: int | None = None
    ) -> A:
        """The aggregate as of ``version`` (latest when None), from snapshot plus later events."""

        def project(state: A | None, events: Any) -> A | None:
            for event in events:
                if isinstance(event, Snapshot):
                    state = msgspec.json.decode(event.state, type=resolve_topic(event.topic))
                else:
                    state = evolve(state, event)
            return state

        try:
            aggregate = self.repository.get(aggregate_id, version=version, projector_func=project)
        except AggregateNotFoundError:
            raise UnknownAggregateError(f"no record with id {aggregate_id}") from None
        if version is None and self.repository.cache is not None:
            # The repository fast-forwards a cached aggregate but keeps the old object, which
            # only works for mutable aggregates: keep the immutable new state instead, or each
            # load would replay every event since the aggregate was first cached.
            self.repository.cache.put(aggregate_id, aggregate)
        return aggregate

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

    def decode(self, notification: StoredEvent) -> DomainEvent:
        return cast(DomainEvent, self.mapper.to_domain_event(notification))

    def iter_decoded(
        self, after: int, limit: int, wanted: Callable[[str], bool] = lambda _: True
    ) -> Iterator[tuple[int, DomainEvent | None]]:
        """Notification ids in order, each with its event, decoded only if its topic is wanted."""
        for notification in self.notifications(after, limit):
            wanted_event = self.decode(notification) if wanted(notification.topic) else None
            yield notification.id, wanted_event
