"""Sessions ended by their sign-out, until they would have expired anyway.

A session cookie is a signed value (``service.people.signing``): the signature alone would keep a
copied cookie working after its holder signed out. Every sign-out therefore records the
session's nonce here, and every check of a session asks whether it ended. The record lives where
the idempotency keys live: beside an SQLite store in a small file of the data directory (it
survives a restart), on PostgreSQL in a table of the store's schema (shared by every process
of the store). A record is kept only until the session's own expiry; later ones purge it.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from service.storage.events import EventStore
from service.storage.persistence import create_private_files

if TYPE_CHECKING:
    from eventsourcing.postgres import PostgresDatastore

TABLE = "ended_sessions"


class EndedSessions(Protocol):
    def end(self, session: str, expires: int, now: int) -> None:
        """Record ``session`` (its kind and nonce) as ended; it would expire at ``expires``
        (Unix seconds). Records expired by ``now`` are purged."""

    def has_ended(self, session: str) -> bool: ...

    def close(self) -> None: ...


class SqliteEndedSessions:
    """The ended sessions of a process that owns its SQLite event store, in a file (0600)."""

    def __init__(self, path: Path) -> None:
        create_private_files(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (session TEXT PRIMARY KEY, expires INTEGER)"
        )

    def end(self, session: str, expires: int, now: int) -> None:
        with self._lock:
            self._db.execute(f"DELETE FROM {TABLE} WHERE expires <= ?", [now])
            self._db.execute(f"INSERT OR IGNORE INTO {TABLE} VALUES (?, ?)", [session, expires])

    def has_ended(self, session: str) -> bool:
        with self._lock:
            found = self._db.execute(f"SELECT 1 FROM {TABLE} WHERE session = ?", [session])
            return found.fetchone() is not None

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresEndedSessions:
    """The ended sessions in a table of the event store's PostgreSQL schema, shared by every
    process of the store."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        from psycopg.sql import SQL, Identifier

        self._datastore = datastore
        table = Identifier(datastore.schema, TABLE)

        def render(statement: str) -> str:
            return SQL(statement).format(table=table).as_string()

        with datastore.get_connection() as connection:
            connection.execute(
                render(
                    "CREATE TABLE IF NOT EXISTS {table} (session TEXT PRIMARY KEY, expires BIGINT)"
                )
            )
        self._purge = render("DELETE FROM {table} WHERE expires <= %s")
        self._insert = render("INSERT INTO {table} VALUES (%s, %s) ON CONFLICT DO NOTHING")
        self._select = render("SELECT 1 FROM {table} WHERE session = %s")

    def end(self, session: str, expires: int, now: int) -> None:
        with self._datastore.get_connection() as connection:
            connection.execute(self._purge, [now])
            connection.execute(self._insert, [session, expires])

    def has_ended(self, session: str) -> bool:
        with self._datastore.get_connection() as connection:
            return connection.execute(self._select, [session]).fetchone() is not None

    def close(self) -> None:
        """Nothing to close: the pool is the event store's."""


def open_ended_sessions(store: EventStore, path: Path) -> EndedSessions:
    """In the event store's PostgreSQL schema, or in the file ``path`` beside an SQLite store."""
    if not store.is_shared:
        return SqliteEndedSessions(path)
    datastore = store.recorder.datastore  # type: ignore[attr-defined]
    return PostgresEndedSessions(datastore)
