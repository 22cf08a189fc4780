"""Which process runs the jobs: on PostgreSQL the holder of an advisory lock, on SQLite the
one process that owns the store. The lock only saves work: the events decide every job."""

from __future__ import annotations

import contextlib
import hashlib
import logging
from typing import Any
from urllib.parse import urlsplit

from service.storage.persistence import persistence_environment

log = logging.getLogger(__name__)


class Leadership:
    """``is_leader()`` takes the lock if it is free and keeps it while this process lives.

    PostgreSQL frees a session's advisory lock when its connection ends, so when the holder
    dies another process takes over at its next try.
    """

    def __init__(self, database_url: str | None) -> None:
        self._url = database_url
        self._connection: Any = None
        parts = urlsplit(database_url or "")
        self.is_shared = parts.scheme in {"postgresql", "postgres"}
        # the store's own connection settings (its defaults for what the URL leaves out: the
        # user postgres, the database bgtd), not libpq's defaults from the environment
        self._connect: dict[str, Any] = {}
        store = f"{parts.path} public"
        if self.is_shared:
            env = persistence_environment(database_url or "")
            # the database and schema as the store reads them: every spelling of its URL
            # (the default database left out, a percent-encoded name) takes the one lock
            store = f"/{env['POSTGRES_DBNAME']} {env['POSTGRES_SCHEMA']}"
            self._connect = {
                "host": env["POSTGRES_HOST"],
                "port": env["POSTGRES_PORT"],
                "dbname": env["POSTGRES_DBNAME"],
                "user": env["POSTGRES_USER"],
                "password": env["POSTGRES_PASSWORD"],
            }
        # one lock per store: schemas of one database are separate stores
        digest = hashlib.sha256(f"bgtd scheduler {store}".encode()).digest()
        self.key = int.from_bytes(digest[:8], "big", signed=True)

    def is_leader(self) -> bool:
        if not self.is_shared:
            return True
        import psycopg

        if self._connection is not None:
            try:
                self._connection.execute("SELECT 1")
                return True
            except psycopg.Error:
                log.warning("lost the scheduler lock's connection; electing again")
                self.release()
        try:
            connection = psycopg.connect(autocommit=True, connect_timeout=5, **self._connect)
        except psycopg.Error:
            log.warning("cannot reach PostgreSQL to elect the job runner")
            return False
        row = connection.execute("SELECT pg_try_advisory_lock(%s)", [self.key]).fetchone()
        if row and row[0]:
            self._connection = connection
            log.info("this process runs the scheduled jobs")
            return True
        connection.close()
        return False

    def release(self) -> None:
        """Give the lock up. Closing the session frees it too, but the server does that after
        the client has gone, so another process asking at once could still find it held: the
        lock is unlocked first, where the connection still answers."""
        if self._connection is not None:
            import psycopg

            # a lost connection: its session's end frees the lock
            with contextlib.suppress(psycopg.Error):
                self._connection.execute("SELECT pg_advisory_unlock(%s)", [self.key])
            try:
                self._connection.close()
            finally:
                self._connection = None
