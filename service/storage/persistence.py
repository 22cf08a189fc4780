"""Where the event store lives: database URLs as eventsourcing settings, SQLite tuned for WAL."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import get_topic


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

    def put_connection(self, conn: SQLiteConnection) -> None:
        """Return a connection so that it is the next one issued (last in, first out).

        The library's pool issues its idle connections in turn (first in, first out). A
        connection's page cache is valid only while no other connection has written since it
        last read: a server issues one connection at a time to its commands, but once two are
        pooled (a second was needed while one was in use), taking them in turn made each
        command reread the pages the other had written, five reads of the log per command.
        The one most recently returned is the one that wrote last: its cache is current.
        (``bench/matches.py``: 5 reads of the log per command down to 0.3, the server's CPU
        per command down by about 20 µs.)
        """
        with self._put_condition:  # re-entrant: the library's own put takes it too
            super().put_connection(conn)
            if self._pool and self._pool[-1] is conn:
                self._pool.rotate(1)  # issued from the left end: to the front of the queue


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
            # concurrent inserts, reads up to the settled end of the log (see
            # service.storage.postgres;
            # a topic, not an import: psycopg is an optional dependency)
            "APPLICATION_RECORDER_TOPIC": "service.storage.postgres:SettledLogRecorder",
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


def create_private_files(*paths: Path) -> None:
    """Create each missing file readable by this user only (0600), like ``secret.key``.

    The stores hold personal data; SQLite gives its ``-wal`` and ``-shm`` files the mode of
    their database file, so they are private too. Existing files keep their mode.
    """
    for path in paths:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def sqlite_path(database_url: str) -> Path | None:
    """The file of an SQLite event store (None for PostgreSQL or an in-memory store)."""
    parts = urlsplit(database_url)
    name = unquote(parts.path.removeprefix("/"))
    return Path(name) if parts.scheme == "sqlite" and name and name != ":memory:" else None


def store_name(url: str) -> str:
    """The event store's URL without credentials: what the views were built from."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
