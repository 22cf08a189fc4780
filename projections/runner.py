"""Follows the event store's notification log and keeps the read models up to date.

Each projection's rows and its position in the log are written in one SQLite transaction, so
every event is applied exactly once, a restart resumes where it stopped, and a rebuild is
"drop the tables, reset the position, catch up".
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import sqlite_utils

from domain.events import DomainEvent

BATCH_SIZE = 5000
T = TypeVar("T")


Wanted = Callable[[str], bool]
"""Whether an event topic (``module:ClassName``) is handled by any projection."""

Handler = Callable[[Any, sqlite_utils.Database], None]

Progress = Callable[[int, int], None]
"""Told ``(notification ids read, last id of the log)`` after each batch of a catch-up."""


class EventSource:
    """What a projection runner reads: ``(notification id, event)`` pairs after a position.

    Events whose topic is not ``wanted`` come as ``None``: their ids still move the position,
    but nobody pays for decoding them (most of the log is match play that no view shows).
    """

    name = ""
    """Names the event store, so that views built from another store are never mixed in."""

    def read(
        self, after: int, limit: int, wanted: Wanted
    ) -> Sequence[tuple[int, DomainEvent | None]]:
        raise NotImplementedError

    def latest(self) -> int:
        """The last notification id in the log (0 when empty)."""
        raise NotImplementedError


class Projection:
    """A read model: its tables and one handler per event type it cares about.

    Handlers are methods named after the event in snake case: ``PlayerRegistered`` is handled
    by ``player_registered(self, event, db)``. Events without a handler are skipped.
    """

    name: ClassVar[str]
    tables: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[int] = 1
    """Raise it when tables or handlers change: the view is then rebuilt from the log."""
    wants_notification_id: ClassVar[bool] = False
    """Whether the handlers read ``notification_id`` (the runner then sets it)."""
    notification_id: int = 0
    """The log position of the event being handled, for a projection that ``wants`` it."""
    compaction_due: bool = False
    """Set by a handler whose change must leave no old bytes in the file (a person's erasure
    replaced their name): the catch-up then ends with ``Views.compact``."""

    def create_tables(self, db: sqlite_utils.Database) -> None:
        """Create the projection's tables if they do not exist yet."""

    def end_batch(self, db: sqlite_utils.Database) -> None:
        """Finish work the handlers deferred, at the end of each batch, in its transaction and
        before the position is saved (e.g. a tournament's standings once per batch instead of
        once per result). It must be idempotent: after a failed batch it may redo work whose
        rows were rolled back, from the rows that stayed."""

    def handle(self, event: DomainEvent, db: sqlite_utils.Database) -> None:
        handler = self._handler(type(event).__name__)
        if handler is not None:
            handler(event, db)

    def handles(self, event_name: str) -> bool:
        return self._handler(event_name) is not None

    def _handler(self, event_name: str) -> Handler | None:
        name = _handler_name(event_name)
        if name in _NOT_HANDLERS:  # an event named Tables or Handle is no reason to call them
            return None
        handler: Handler | None = getattr(self, name, None)
        return handler


@cache
def _handler_name(event_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event_name).lower()


_NOT_HANDLERS = frozenset(dir(Projection))


class Views:
    """The read-model database and the projections that fill it.

    Several processes may share one views file: positions are read and written inside one
    write transaction, so a batch is applied by exactly one of them.
    """

    def __init__(self, path: Path | str, source: EventSource, projections: Sequence[Projection]):
        self._connection = sqlite3.connect(
            str(path), check_same_thread=False, isolation_level=None, timeout=30
        )
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA synchronous=NORMAL")
        self.db = sqlite_utils.Database(self._connection)
        self._source = source
        self.projections = list(projections)
        self._lock = threading.RLock()
        self._wanted: dict[str, bool] = {}
        self._dispatch: dict[type[DomainEvent], list[Handler]] = {}
        self._positioned = [p for p in self.projections if p.wants_notification_id]
        with self._lock, self._transaction():
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS view_positions "
                "(name TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL)"
            )
            self.db.execute("CREATE TABLE IF NOT EXISTS view_source (name TEXT NOT NULL)")
            self._forget_foreign_views()
            for projection in self.projections:
                projection.create_tables(self.db)

    def _forget_foreign_views(self) -> None:
        """Drop views of another store, of older projection code, or ahead of the log."""
        known = self.db.execute("SELECT name FROM view_source").fetchone()
        latest = self._source.latest()
        for projection in self.projections:
            row = self.db.execute(
                "SELECT position, version FROM view_positions WHERE name = ?", [projection.name]
            ).fetchone()
            if row is None:
                continue
            position, version = row
            if (
                (known and known[0] != self._source.name)
                or version != projection.version
                or (position > latest)
            ):
                self._drop(projection)
        self.db.execute("DELETE FROM view_source")
        self.db.execute("INSERT INTO view_source (name) VALUES (?)", [self._source.name])

    def _drop(self, projection: Projection) -> None:
        for table in projection.tables:
            self.db.execute(f"DROP TABLE IF EXISTS [{table}]")
        self.db.execute("DELETE FROM view_positions WHERE name = ?", [projection.name])

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[sqlite_utils.Database]:
        """The database for queries, not interleaved with an update."""
        with self._lock:
            yield self.db

    @contextmanager
    def writing(self) -> Iterator[sqlite_utils.Database]:
        """The database for a change outside the handlers (a mail marked sent): one
        transaction, not interleaved with an update."""
        with self._lock, self._transaction():
            yield self.db

    def find(self, read: Callable[[sqlite_utils.Database], T | None]) -> T | None:
        """``read`` the views; on a miss catch up once (another process may have just written
        what was asked for)."""
        with self.reading() as db:
            found = read(db)
        if found is None:
            self.catch_up()
            with self.reading() as db:
                found = read(db)
        return found

    def positions(self) -> dict[str, int]:
        """Every view's position (0: none applied yet), in one statement: a catch-up asks
        before each batch."""
        held = dict(self.db.execute("SELECT name, position FROM view_positions").fetchall())
        return {p.name: int(held.get(p.name, 0)) for p in self.projections}

    def catch_up(self, progress: Progress | None = None) -> int:
        """Apply every event not yet applied; returns the number of events read.

        ``progress(done, total)`` is called after each batch: notification ids read so far
        and the last one in the log when the catch-up began.
        """
        read = 0
        total = self._source.latest() if progress else 0
        with self._lock:
            while True:
                with self._transaction():
                    positions = self.positions()
                    start = min(positions.values(), default=0)
                    batch = self._source.read(start, BATCH_SIZE, self._is_wanted)
                    self._apply(batch, positions)
                if not batch:
                    self._compact_if_due()
                    return read
                read += len(batch)
                if progress:
                    progress(batch[-1][0], max(total, batch[-1][0]))

    def _is_wanted(self, topic: str) -> bool:
        wanted = self._wanted.get(topic)
        if wanted is None:
            event_name = topic.rpartition(":")[2]
            wanted = self._wanted[topic] = any(p.handles(event_name) for p in self.projections)
        return wanted

    def _apply(
        self, batch: Sequence[tuple[int, DomainEvent | None]], positions: dict[str, int]
    ) -> None:
        """Inside the caller's transaction: the rows and the positions change together."""
        if not batch:
            return
        behind = [(p, positions[p.name]) for p in self.projections]
        start = min(position for _, position in behind)
        if all(position == start for _, position in behind):
            # the usual case (live, or all views rebuilt): every view takes every event
            for notification_id, event in batch:
                if event is not None:
                    for projection in self._positioned:
                        projection.notification_id = notification_id
                    for handler in self._handlers(type(event)):
                        handler(event, self.db)
        else:
            for notification_id, event in batch:
                if event is not None:
                    for projection, position in behind:
                        if notification_id > position:
                            projection.notification_id = notification_id
                            projection.handle(event, self.db)
        last = batch[-1][0]
        for projection, position in behind:
            if position < last:
                projection.end_batch(self.db)
                self.db.execute(
                    "INSERT INTO view_positions (name, position, version) VALUES (?, ?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET position = excluded.position",
                    [projection.name, last, projection.version],
                )

    def shows(self, event: DomainEvent) -> bool:
        """Whether a view handles ``event`` (one no view handles leaves the views as they are)."""
        return bool(self._handlers(type(event)))

    def _handlers(self, kind: type[DomainEvent]) -> list[Handler]:
        handlers = self._dispatch.get(kind)
        if handlers is None:
            found = (p._handler(kind.__name__) for p in self.projections)
            handlers = self._dispatch[kind] = [h for h in found if h is not None]
        return handlers

    def rebuild(self, *names: str, progress: Progress | None = None) -> None:
        """Drop the named projections' tables (every projection's when none is named) and
        replay the whole log into them, in one pass."""
        with self._lock:
            chosen = [p for p in self.projections if not names or p.name in names]
            assert len(chosen) == len(names) or not names, f"unknown view among {names}"
            with self._transaction():
                for projection in chosen:
                    self._drop(projection)
                    projection.create_tables(self.db)
            self.catch_up(progress)

    def _compact_if_due(self) -> None:
        due = [p for p in self.projections if p.compaction_due]
        for projection in due:
            projection.compaction_due = False
        if due:
            self.compact()

    def compact(self) -> None:
        """Rewrite the views file and empty its write-ahead log: rows changed since (a person's
        name replaced by their pseudonym) leave no old bytes in free pages or the log."""
        with self._lock:
            self.db.execute("VACUUM")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._connection.close()
