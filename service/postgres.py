"""The PostgreSQL event store's insert: commit order kept, the table lock held for one statement.

eventsourcing keeps the notification log in commit order by taking an EXCLUSIVE lock on the
events table before each insert (a reader tailing the log must never pass an id that a slower
transaction fills in later). Its insert is a client-side transaction: ``BEGIN; LOCK TABLE;
NOTIFY; INSERT`` in one round trip, then ``COMMIT`` in another. Between the two the lock is held
while the server waits for the client, and the client is a Python process whose thread must
first get the interpreter lock back from the threads serving other requests: with two server
processes on one store, sampling ``pg_stat_activity`` showed about five sessions at a time
waiting for the table lock, held by a session "idle in transaction" waiting for its client.

Here the lock and the insert are one server-side function, called as one statement in
autocommit mode: PostgreSQL takes the lock, inserts, commits and releases the lock without a
round trip to the client in between. The lock still orders every insert (ids are drawn under
it, and a transaction becomes visible before its lock is released), so readers still never
skip an event; it is only held for the insert and the commit's WAL flush.

The function sends no ``NOTIFY``: nothing in this service listens (the views and the live feed
poll the log), and a transaction that notifies takes a lock of the whole cluster at commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier


class CommitOrderedRecorder(PostgresApplicationRecorder):
    """The library's recorder with its insert as one server-side statement (see the module)."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self.insert_function_name = f"{events_table_name}_insert_in_commit_order"
        self.check_identifier_length(self.insert_function_name)
        schema = Identifier(self.datastore.schema)
        function = Identifier(self.insert_function_name)
        table = Identifier(self.events_table_name)
        self.sql_create_statements.append(
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
                "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
                "BEGIN "
                "SET LOCAL lock_timeout = '{lock_timeout}s'; "
                # before any id is drawn: ids are handed out in commit order
                "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
                "RETURN QUERY INSERT INTO {schema}.{table} "
                "(originator_id, originator_version, topic, state) "
                "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
                "RETURNING notification_id; "
                "END; $BODY$"
            ).format(
                schema=schema,
                function=function,
                table=table,
                event=Identifier(self.stored_event_type_name),
                lock_timeout=self.datastore.lock_timeout,
            )
        )
        self.insert_in_commit_order = SQL("SELECT * FROM {schema}.{function}(%s)").format(
            schema=schema, function=function
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int]:
        if not stored_events:
            return []
        rows = [
            self.construct_pg_stored_event(
                event.originator_id, event.originator_version, event.topic, event.state
            )
            for event in stored_events
        ]
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            # autocommit (the pool's connections are): one statement, one transaction
            cursor.execute(self.insert_in_commit_order, (rows,), prepare=True)
            return [row[self.insert_function_name] for row in cursor.fetchall()]
