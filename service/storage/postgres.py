"""The PostgreSQL notification log: writers insert side by side, readers stop at the settled end.

A reader tails the log by position: it asks for ids after the last one it saw. Ids come from a
sequence when a row is inserted, so a transaction may commit id n+1 while id n is still in
flight; a reader polling in between would move past n for good. eventsourcing prevents that on
the writers' side: each insert takes an EXCLUSIVE lock on the events table until its commit,
and that insert is a client-side transaction (``BEGIN; LOCK TABLE; NOTIFY; INSERT`` in one
round trip, ``COMMIT`` in another). Every command of every process then waits in one queue,
for the commit's WAL flush and for the client round trip in between, whose Python thread must
first get the interpreter lock back from the threads serving other requests. With two server
processes on one store, sampling ``pg_stat_activity`` found about five sessions at a time
waiting for that lock, its holder "idle in transaction" waiting for its client.

Here the readers pay instead, and only when they meet a hole. Each insert holds a shared
advisory lock of the log from before its ids are drawn until its commit; writers do not wait
for each other, and their commits share WAL flushes. A reader asks for the ids after its
position (a settled one: 0, or one this recorder gave it). If the ids it finds follow the
position without a hole, they are committed and nothing can come between them: they are the
answer. A hole (an insert in flight, or the ids of a rolled-back insert) makes the reader ask
for the settled end: the same lock taken exclusively (tried a few times before queueing for
it, since a queued reader holds up new inserts), which waits for the inserts in flight, and
the largest id committed then. Every id up to it is settled
(committed, or rolled back and never to appear) and the read goes no further. Both sides are
one statement in autocommit mode (the insert takes its lock in a materialized CTE that every
inserted row joins, so no row, and no id, exists before the lock is held; the settled end is a
server-side function), so no lock is ever held across a round trip to a client. (An advisory
lock rather than a table lock: every table lock that stops inserts also conflicts with
autovacuum and ANALYZE.) ``max_notification_id`` is the
settled end too, so that a reader starting from "now" starts from a settled position.

Nothing is sent with ``NOTIFY``: nothing in this service listens (the views and the live feed
poll the log), and a transaction that notifies takes a lock of the whole cluster at commit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, Notification, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier


class SettledLogRecorder(PostgresApplicationRecorder):
    """The library's recorder with concurrent inserts and reads up to the settled end."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self.settled_end_function = f"{events_table_name}_settled_end"
        self.check_identifier_length(self.settled_end_function)
        schema = Identifier(self.datastore.schema)
        table = Identifier(self.events_table_name)
        # one lock per log: the schemas of one database are separate stores
        digest = hashlib.sha256(f"bgtd log {self.datastore.schema}.{events_table_name}".encode())
        log_lock = int.from_bytes(digest.digest()[:8], "big", signed=True)
        self.sql_create_statements += [
            # the first version inserted through a function taking an array of rows
            SQL("DROP FUNCTION IF EXISTS {schema}.{function}({schema}.{event}[])").format(
                schema=schema,
                function=Identifier(f"{events_table_name}_insert"),
                event=Identifier(self.stored_event_type_name),
            ),
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{function}() RETURNS bigint "
                "LANGUAGE plpgsql AS $BODY$ "
                "BEGIN "
                # first without queueing (a waiting reader holds up new inserts), a few times
                "FOR attempt IN 1..20 LOOP "
                "IF pg_try_advisory_xact_lock({log_lock}) THEN "
                "RETURN (SELECT max(notification_id) FROM {schema}.{table}); "
                "END IF; "
                "PERFORM pg_sleep(0.0005); "
                "END LOOP; "
                # then in the queue: waits for the inserts in flight, keeps new ones out
                "PERFORM pg_advisory_xact_lock({log_lock}); "
                "RETURN (SELECT max(notification_id) FROM {schema}.{table}); "
                "END; $BODY$"
            ).format(
                schema=schema,
                function=Identifier(self.settled_end_function),
                table=table,
                log_lock=log_lock,
            ),
        ]
        # Rendered once (psycopg would render a composed statement on every call): the shared
        # lock is taken before any row, and so before any id, is drawn; every value is a
        # parameter of its own, which psycopg dumps in C.
        self._insert_prefix = (
            SQL(
                "WITH log AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared({log_lock})) "
                "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
                "SELECT event.* FROM log, (VALUES "
            )
            .format(schema=schema, table=table, log_lock=log_lock)
            .as_string()
        )
        self._inserts: dict[int, str] = {}
        self.call_settled_end = (
            SQL("SELECT {schema}.{function}() AS settled_end")
            .format(schema=schema, function=Identifier(self.settled_end_function))
            .as_string()
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int]:
        """One statement, its own transaction (the pool's connections are in autocommit
        mode); returns the notification ids."""
        if not stored_events:
            return []
        parameters = [
            value
            for event in stored_events
            for value in (event.originator_id, event.originator_version, event.topic, event.state)
        ]
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self._insert(len(stored_events)), parameters, prepare=True)
            return [row["notification_id"] for row in cursor.fetchall()]

    def _insert(self, count: int) -> str:
        """The statement inserting ``count`` events (one per number of events a command has)."""
        statement = self._inserts.get(count)
        if statement is None:
            rows = ", ".join(["(%s, %s, %s, %s)"] * count)
            statement = f"{self._insert_prefix}{rows}) AS event RETURNING notification_id"
            self._inserts[count] = statement
        return statement

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def max_notification_id(self) -> int | None:
        """The settled end of the log: no id at or below it will ever appear later."""
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self.call_settled_end, prepare=True)
            row = cursor.fetchone()
            return None if row is None else row["settled_end"]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """The library's read, never past the settled end.

        Readers ask for the ids after a settled position (0, or one this recorder gave them).
        When the rows that follow it have no hole, they are committed and nothing can come
        between them: they are the answer, without asking for the settled end. A hole (an
        insert in flight, or the ids of a rolled-back insert) makes the read ask for the
        settled end and read again up to it.
        """
        if topics or start is None:
            return self._select(start, limit, stop, topics, inclusive_of_start, settled=True)
        first = start if inclusive_of_start else start + 1
        rows = self._select(first, limit, stop, (), inclusive_of_start=True, settled=False)
        if not rows or rows[-1].id - rows[0].id == len(rows) - 1 == rows[-1].id - first:
            return rows
        return self._select(first, limit, stop, (), inclusive_of_start=True, settled=True)

    def _select(
        self,
        start: int | None,
        limit: int,
        stop: int | None,
        topics: Sequence[str],
        inclusive_of_start: bool,
        *,
        settled: bool,
    ) -> Sequence[Notification]:
        """The library's read; ``settled``: stopped at the settled end."""
        if settled:
            end = self.max_notification_id()
            if end is None:
                return []
            stop = end if stop is None else min(stop, end)
        notifications: Sequence[Notification] = super().select_notifications(
            start, limit, stop, topics, inclusive_of_start=inclusive_of_start
        )
        return notifications
