"""The event store: one eventsourcing Application for every aggregate, SQLite or PostgreSQL.

Events are stored as msgspec JSON by the mapper and the transcoder eventsourcing is
configured with (``MsgspecMapper``), the shape of eventsourcing's ``examples/aggregate9``: the
mapper encodes each event Struct itself, so the transcoder is never asked to. Personal fields
are sealed under each person's key on the way in and unsealed on the way out
(``service.storage.personal``): the domain sees plain fields, the store holds none.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import ModuleType
from typing import Any, Generic, TypeVar, cast
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, Mapper, Notification, StoredEvent, Transcoder
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder
from eventsourcing.utils import get_topic, register_topic, resolve_topic

from domain.errors import ConflictError, NotFoundError
from domain.events import Aggregate, DomainEvent, evolve_each
from domain.evidence import dispute, video
from domain.people import director, erasure
from domain.people.erasure import PersonErased
from domain.seasons import season
from projections.runner import EventSource, Wanted
from service.storage.personal import PersonalCodec, PersonKeys

A = TypeVar("A", bound=Aggregate)

encoder = msgspec.json.Encoder()
"""One JSON encoder for events and snapshot states."""


class MsgspecMapper(Mapper[UUID]):
    """Stores each event as the JSON of its msgspec Struct, decoded back to the exact type."""

    personal: PersonalCodec | None = None
    """Set by the event store (it owns the key table); without it nothing is sealed."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if self.personal is not None:
            state = self.personal.encode(domain_event)
        else:
            state = encoder.encode(domain_event)
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
        kind = resolve_topic(stored_event.topic)
        if self.personal is not None:
            return self.personal.decode(state, kind)
        return msgspec.json.decode(state, type=kind)


class UnusedTranscoder(Transcoder):
    """The mapper encodes Structs itself; eventsourcing still wants a transcoder object."""

    def encode(self, obj: Any) -> bytes:
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Change(Generic[A]):
    """One aggregate's part of a command: its new events and the state after each of them.

    The store appends the events of all changes of a command in one transaction, caches each
    aggregate's last state and snapshots every state whose version is due.
    """

    before: A | None
    events: tuple[DomainEvent, ...] = ()
    states: tuple[A, ...] = ()

    @classmethod
    def of(
        cls, evolve: Callable[[A | None, Any], A], before: A | None, events: Iterable[Any]
    ) -> Change[A]:
        """``events`` applied to ``before`` (None for a new aggregate)."""
        new = tuple(events)
        return cls(before, new, tuple(evolve_each(evolve, before, new)))

    def then(self, evolve: Callable[[A | None, Any], A], events: Iterable[Any]) -> Change[A]:
        """This change followed by more events of the same aggregate."""
        more = tuple(events)
        after = self.states[-1] if self.states else self.before
        return Change(
            self.before, self.events + more, self.states + tuple(evolve_each(evolve, after, more))
        )

    @property
    def state(self) -> A:
        """The state after the change (the state before it when nothing was decided)."""
        if self.states:
            return self.states[-1]
        assert self.before is not None, "a change of a new aggregate has events"
        return self.before

    @property
    def changes(self) -> tuple[Change[A]]:
        """A change of one aggregate is a whole decision (see ``service.shared.commands``)."""
        return (self,)


class StaleVersionError(ConflictError):
    """Another command changed the aggregate first (optimistic concurrency)."""

    type_slug = "stale-version"


class UnknownAggregateError(NotFoundError):
    """No events exist for this id (or none up to the requested version)."""


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """An aggregate's state at a version, so that long streams load without a full replay.

    A storage artefact, not a domain fact: it lives in the snapshots table, never in the log.
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    topic: str
    state: bytes


SERVER_ID = UUID("0b9d1f0e-7c39-4a57-9d0c-5e2f0a3b7c11")
"""The store's own record (not the club's data): kept in the snapshots table under this id."""


class ServerRecord(msgspec.Struct, frozen=True, kw_only=True):
    """Facts about the store itself, recorded at its first start: never in the log."""

    originator_id: UUID
    originator_version: int
    secret_fingerprint: str


# Stores written before the storage package existed name these records by their old module:
# the snapshots table keeps each record's topic, so the old topics still resolve.
register_topic("service.store:Snapshot", Snapshot)
register_topic("service.store:ServerRecord", ServerRecord)


def register_moved_records(old_module: str, module: ModuleType) -> None:
    """Resolve ``old_module:Name`` to each event and aggregate class ``module`` defines.

    A stored event or snapshot names its class by module (``module:ClassName``): a module that
    moves leaves its old topics in every store written before, and they must still load.
    """
    for kind in vars(module).values():
        if (
            isinstance(kind, type)
            and issubclass(kind, (DomainEvent, Aggregate))
            and kind.__module__ == module.__name__
        ):
            register_topic(f"{old_module}:{kind.__qualname__}", kind)


# The domain's small aggregates lived at its root before they were grouped by concept.
MOVED_RECORDS: Mapping[str, ModuleType] = {
    "domain.people": erasure,
    "domain.director": director,
    "domain.dispute": dispute,
    "domain.video": video,
    "domain.season": season,
}
for _old_module, _module in MOVED_RECORDS.items():
    register_moved_records(_old_module, _module)


class StateCache:
    """The latest states this process knows, by aggregate id; never older than what it stored.

    Each entry holds the latest version this process knows of and the newest state it holds,
    which is behind that version after an append whose resulting state the caller did not give,
    or after a lost race: ``get`` answers only a state at the known version, and ``base`` the
    state held, for a load to bring forward with the events after it. An offered state older
    than the one held is ignored: a slow load can never put back a state that an append has
    already superseded.
    """

    def __init__(self, maxsize: int) -> None:
        self._entries: OrderedDict[UUID, tuple[int, Aggregate | None]] = OrderedDict()
        self._maxsize = maxsize
        self._lock = threading.Lock()

    def get(self, aggregate_id: UUID) -> Aggregate | None:
        """The state at the latest version this process knows of, or None."""
        known, held = self._entry(aggregate_id)
        return held if held is not None and held.version == known else None

    def base(self, aggregate_id: UUID) -> Aggregate | None:
        """The newest state held (it may be behind the store), or None."""
        return self._entry(aggregate_id)[1]

    def _entry(self, aggregate_id: UUID) -> tuple[int, Aggregate | None]:
        with self._lock:
            entry = self._entries.get(aggregate_id)
            if entry is None:
                return 0, None
            self._entries.move_to_end(aggregate_id)
            return entry

    def offer(self, state: Aggregate) -> None:
        self._record(state.id, state.version, state)

    def clear(self) -> None:
        """Forget every state (a person was erased: cached states may hold their name)."""
        with self._lock:
            self._entries.clear()

    def forget(self, aggregate_id: UUID) -> None:
        with self._lock:
            self._entries.pop(aggregate_id, None)

    def supersede(self, aggregate_id: UUID, version: int) -> None:
        """The store holds ``version`` or later: the state held is behind it."""
        self._record(aggregate_id, version, None)

    def _record(self, aggregate_id: UUID, version: int, state: Aggregate | None) -> None:
        with self._lock:
            known, held = self._entries.get(aggregate_id, (version, None))
            if state is not None and (held is None or held.version < state.version):
                held = state
            self._entries[aggregate_id] = (max(known, version), held)
            self._entries.move_to_end(aggregate_id)
            while len(self._entries) > self._maxsize:
                self._entries.popitem(last=False)


@dataclass(slots=True)
class Guess:
    """The aggregates a command's attempt read from this process's cache, unconfirmed."""

    ids: set[UUID] = field(default_factory=set)

    @property
    def trusted(self) -> bool:
        return bool(self.ids)


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
        self._guess: contextvars.ContextVar[Guess | None] = contextvars.ContextVar(
            "guess", default=None
        )
        self._erasures_handled: set[tuple[UUID, int]] = set()
        self.latest_erasure: datetime | None = None
        """When the latest erasure this process has learnt of was made (also one it learnt
        of before its listeners were registered: while starting)."""
        self.erasures_forgotten = 0
        """How often this process dropped its cached states for an erasure: a state decoded,
        or decided on one read, before the latest of them is not cached after it."""
        self.erasure_listeners: list[Callable[[UUID], None]] = []
        """Called with the player id whenever this process learns of an erasure (e.g. the
        API's stored idempotent answers, which may hold the person's data)."""
        # A store that other processes write to (PostgreSQL) is asked for newer events on each
        # load; an SQLite store belongs to this process, so its cached states are the latest.
        self.is_shared = not self.env.get("PERSISTENCE_MODULE", "").endswith("SQLiteFactory")
        # Each person's data key lives in the store's own database, shared by its processes;
        # events and snapshots are sealed and unsealed with it (service.storage.personal).
        self.keys = PersonKeys(self.recorder.datastore, postgres=self.is_shared)  # type: ignore[attr-defined]
        self.personal = PersonalCodec(self.keys)
        cast(MsgspecMapper, self.mapper).personal = self.personal

    def append(self, *events: DomainEvent, state: Aggregate | None = None) -> int:
        """Store ``events`` atomically; returns the last notification id.

        ``state`` is the aggregate after them, cached for the next command. An event whose
        version was taken meanwhile raises ``StaleVersionError``: nothing is stored, and the
        next load reads what the winner stored.
        """
        withheld = self.personal.withheld
        try:
            # Straight to the recorder: Application.save would only add runtime protocol
            # checks and notifications to in-process followers, which this service has none
            # of, and the library's event store would wrap each event with its notification
            # in two objects nobody reads (about 7 microseconds per match command).
            stored = [self.mapper.to_stored_event(event) for event in events]
            notification_ids = self.recorder.insert_events(stored)
        except IntegrityError:
            for event in events:
                self.states.supersede(event.originator_id, event.originator_version)
            raise StaleVersionError(
                "the aggregate was changed by another command; reload and retry"
            ) from None
        for event in events:
            if self.personal.withheld == withheld:
                self.states.supersede(event.originator_id, event.originator_version)
            else:
                # a person was erased meanwhile: states decoded before may hold their data,
                # so the next load reads the store (which withholds it) instead
                self.states.forget(event.originator_id)
        if state is not None and self.personal.withheld == withheld:
            self.states.offer(state)
        return notification_ids[-1] if notification_ids else 0

    def load(
        self, aggregate_id: UUID, evolve: Callable[[A | None, Any], A], version: int | None = None
    ) -> A:
        """The aggregate as of ``version`` (latest when None), from snapshot plus later events."""

        def project(state: A | None, events: Iterable[Any]) -> A | None:
            for event in events:
                if isinstance(event, Snapshot):
                    state = self.personal.decode(event.state, resolve_topic(event.topic))
                else:
                    state = evolve(state, event)
            return state

        forgotten = self.erasures_forgotten
        if version is None:
            current = cast("A | None", self.states.get(aggregate_id))
            if current is not None and not self.is_shared:
                return current
            if current is not None and (guess := self._guess.get()) is not None:
                guess.ids.add(aggregate_id)
                return current
            base = current or cast("A | None", self.states.base(aggregate_id))
            if base is not None:
                latest = project(base, self.events.get(aggregate_id, gt=base.version))
                if latest is not None:
                    self._keep(latest, forgotten)
                    return latest
        try:
            aggregate = self.repository.get(aggregate_id, version=version, projector_func=project)
        except AggregateNotFoundError:
            raise UnknownAggregateError(f"no record with id {aggregate_id}") from None
        if version is None:
            self._keep(aggregate, forgotten)
        return aggregate

    def _keep(self, loaded: Aggregate, forgotten: int) -> None:
        """Cache a loaded state, unless an erasure forgot the cached states while it was
        decoded (``forgotten``: ``erasures_forgotten`` before): it may show the person."""
        if forgotten == self.erasures_forgotten:
            self.states.offer(loaded)
        else:
            self.states.forget(loaded.id)

    @contextlib.contextmanager
    def guessing(self, guess: Guess) -> Iterator[Guess]:
        """Within: a load of a shared store answers the state this process holds without
        asking the database for newer events, and the guess records that it did.

        For the first attempt of a command (``service.shared.commands``): a state another process
        has moved past makes its save fail on the version it took, and the attempt is made
        again on what the store holds. Loads of an SQLite store always answer what this
        process holds (it is the only writer), and make no guess.
        """
        token = self._guess.set(guess)
        try:
            yield guess
        finally:
            self._guess.reset(token)

    def load_as(
        self,
        aggregate_id: UUID,
        evolve: Callable[[A | None, Any], A],
        kind: type[A],
        not_found: Callable[[], NotFoundError],
        version: int | None = None,
        *,
        recorded: bool = False,
    ) -> A:
        """The ``kind`` aggregate; ``not_found()`` for another kind's id, and for an id with no
        events unless ``recorded`` asks to tell it apart (``UnknownAggregateError``)."""
        try:
            state = self.load(aggregate_id, evolve, version)
        except UnknownAggregateError:
            if recorded:
                raise
            raise not_found() from None
        return _of_kind(state, kind, not_found)

    def save_changes(self, changes: Iterable[Change[Any]], *, read_at: int | None = None) -> int:
        """Append the events of all ``changes`` atomically; returns the last notification id.

        Either every aggregate's events are stored or none (``StaleVersionError`` when another
        command took one of their versions first). The cache then keeps each aggregate's last
        state for the next command (no reload), and each state whose version is due gets its
        snapshot, also when a multi-event change passes the snapshot version on its way.
        ``read_at``: ``erasures_forgotten`` when the command began to read its states.
        """
        decided = [change for change in changes if change.events]
        if not decided:
            return 0
        withheld = self.personal.withheld
        last = self.append(*(event for change in decided for event in change.events))
        for change in decided:
            # a state holding a person's data that the store withheld, or decided on states
            # read before an erasure, is not kept: the next load reads what was stored
            if self.personal.withheld == withheld and read_at in (None, self.erasures_forgotten):
                self.states.offer(change.state)
            else:
                self.states.forget(change.state.id)
            for each in change.states:
                self.snapshot_if_due(each, change.events[-1].timestamp)
        return last

    def snapshot_if_due(self, aggregate: Aggregate, timestamp: datetime) -> None:
        """Keep a snapshot every ``snapshot_interval`` events (idempotent per version)."""
        if aggregate.version % self.snapshot_interval or self.snapshots is None:
            return
        snapshot = Snapshot(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=timestamp,
            topic=get_topic(type(aggregate)),
            state=self.personal.encode(aggregate),  # a match's names sealed as in its events
        )
        with contextlib.suppress(IntegrityError):  # another process took it first
            self.snapshots.put([snapshot])
        # Loads read only the latest snapshot; a load at an earlier version replays events.
        self._delete_snapshots_before(aggregate.id, aggregate.version)

    def _delete_snapshots_before(self, aggregate_id: UUID, version: int) -> None:
        assert self.snapshots is not None
        recorder: Any = self.snapshots.recorder
        table = recorder.events_table_name
        if isinstance(recorder, SQLiteAggregateRecorder):
            with recorder.datastore.transaction(commit=True) as cursor:
                cursor.execute(
                    f"DELETE FROM {table} WHERE originator_id=? AND originator_version<?",
                    (aggregate_id.hex, version),
                )
            return
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "DELETE FROM {schema}.{table} WHERE originator_id = %s AND originator_version < %s"
        ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(table))
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, (aggregate_id, version))

    def record_fingerprint(self, fingerprint: str) -> str:
        """The secret's fingerprint recorded at the store's first start (``fingerprint`` when
        this is the first start: then it is recorded; of two first starts at once, one wins)."""
        assert self.snapshots is not None, "snapshotting is always on"
        record = ServerRecord(
            originator_id=SERVER_ID, originator_version=1, secret_fingerprint=fingerprint
        )
        with contextlib.suppress(IntegrityError):
            self.snapshots.put([record])
        stored = self.snapshots.get(SERVER_ID, lte=1)
        return cast(ServerRecord, next(iter(stored))).secret_fingerprint

    def recorded_fingerprint(self) -> str | None:
        """The secret's fingerprint if the store has started before (None: never)."""
        assert self.snapshots is not None, "snapshotting is always on"
        stored = list(self.snapshots.get(SERVER_ID, lte=1))
        return cast(ServerRecord, stored[0]).secret_fingerprint if stored else None

    def stream(self, aggregate_id: UUID, until_version: int | None = None) -> list[Any]:
        """The aggregate's events in order, up to ``until_version``."""
        return list(self.events.get(aggregate_id, lte=until_version))

    def notifications(self, after: int, limit: int) -> Sequence[Notification]:
        """Stored events in commit order after notification id ``after``."""
        return self.recorder.select_notifications(start=after + 1, limit=limit)

    def latest_notification_id(self) -> int:
        return self.recorder.max_notification_id() or 0

    def decode(self, notification: StoredEvent) -> DomainEvent:
        event = cast(DomainEvent, self.mapper.to_domain_event(notification))
        if isinstance(event, PersonErased):
            self._learn_of(event)
        return event

    def _learn_of(self, erasure: PersonErased) -> None:
        """Another process (or this one) erased the person: their key goes, if the erasing
        process died before deleting it, and nothing this process keeps may show their data
        any longer. Once per erasure: a rebuild of the views reads it again."""
        handled = (erasure.originator_id, erasure.originator_version)
        if self.latest_erasure is None or erasure.timestamp > self.latest_erasure:
            self.latest_erasure = erasure.timestamp
        if handled in self._erasures_handled:
            return
        self.keys.shred_named(erasure.originator_id, erasure.key_fingerprint, erasure.timestamp)
        self.forget_person(erasure.originator_id)
        self._erasures_handled.add(handled)

    def forget_person(self, player_id: UUID) -> None:
        """Drop what this process keeps of an erased person: their key, every cached state (a
        match's state holds its players' names) and what ``erasure_listeners`` keep."""
        self.keys.forget(player_id, erased=True)
        self.erasures_forgotten += 1  # before the clear: a load decoding now keeps nothing
        self.states.clear()
        for listener in list(self.erasure_listeners):
            listener(player_id)

    def iter_decoded(
        self, after: int, limit: int, wanted: Callable[[str], bool] = lambda _: True
    ) -> Iterator[tuple[int, DomainEvent | None]]:
        """Notification ids in order, each with its event, decoded only if its topic is wanted."""
        if isinstance(self.recorder, SQLiteApplicationRecorder):
            # Most of the log is match play that no view reads: on SQLite its rows come as
            # plain tuples, without the library's Notification and UUID objects (which took
            # half of a rebuild's time), and only wanted rows become stored events.
            with self.recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(
                    "SELECT rowid, topic, originator_id, originator_version, state FROM "
                    f"{self.recorder.events_table_name} WHERE rowid > ? ORDER BY rowid LIMIT ?",
                    [after, limit],
                )
                rows = cursor.fetchall()
            by_topic: dict[str, bool] = {}
            for notification_id, topic, originator_id, version, state in rows:
                is_wanted = by_topic.get(topic)
                if is_wanted is None:
                    is_wanted = by_topic[topic] = wanted(topic)
                if is_wanted:
                    stored = StoredEvent(UUID(originator_id), version, topic, state)
                    yield notification_id, self.decode(stored)
                else:
                    yield notification_id, None
            return
        for notification in self.notifications(after, limit):
            wanted_event = self.decode(notification) if wanted(notification.topic) else None
            yield notification.id, wanted_event


def _of_kind(state: object, kind: type[A], not_found: Callable[[], NotFoundError]) -> A:
    # The cache holds states by id only: another aggregate's id may come back as its state.
    if not isinstance(state, kind):
        raise not_found()
    return state


class StoreEventSource(EventSource):
    """Reads the event store's notification log for the projections."""

    def __init__(self, store: EventStore, name: str) -> None:
        self._store = store
        self.name = name

    def read(
        self, after: int, limit: int, wanted: Wanted
    ) -> Sequence[tuple[int, DomainEvent | None]]:
        return list(self._store.iter_decoded(after, limit, wanted))

    def latest(self) -> int:
        return self._store.latest_notification_id()
