"""The outbox's ledger (rule P-MAIL-1): which mails went out, shared by every process of a store.

It lives in the event store's own database (the SQLite events file, or the PostgreSQL schema),
like ``person_keys`` (``service.storage.personal``), not in a process's views: a process that takes
over the sending from another one, or views rebuilt from the log, see what was sent and what
was given up. No address or error text is kept here (an erasure could not reach it): a mail's
id, instants and, for a given-up mail, its reason without the address.

A sender claims each mail before it sends it (one atomic insert): only the claimer sends, then
records ``sent_at``. A claim without ``sent_at`` older than ``CLAIM_TIMEOUT`` is taken as a
crash between the claim and the record and may be taken over: that window gives at least once
(with the same Message-ID), never a second send by a healthy process.

``outbox_origin`` holds the log position at which the outbox began on this store: mails of
events stored before it are never sent (the store was written by a version without outbox).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from service.storage.events import EventStore

LEDGER_TABLE = "outbox_ledger"
ORIGIN_TABLE = "outbox_origin"
CLAIM_TIMEOUT = timedelta(minutes=10)
"""A claim older than this without ``sent_at`` was left by a crash (a send takes at most the
SMTP timeout, 30 s)."""
_CHUNK = 500


class Outcome(NamedTuple):
    """What the ledger knows of a mail that went out or was given up."""

    mail_id: str
    sent_at: datetime | None
    failed_reason: str | None


def _instant(value: datetime) -> str:
    """Fixed width, so that instants compare as text."""
    return value.isoformat(timespec="microseconds")


class MailLedger:
    """The shared record of sent and given-up mails, and the outbox's origin in the log."""

    def __init__(self, store: EventStore) -> None:
        self._datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        self._postgres = store.is_shared
        position = "BIGINT" if self._postgres else "INTEGER"
        self._run(
            f"CREATE TABLE IF NOT EXISTS {LEDGER_TABLE} (mail_id TEXT PRIMARY KEY, "
            "claimed_at TEXT NOT NULL, sent_at TEXT, failed_at TEXT, failed_reason TEXT)"
        )
        self._run(
            f"CREATE TABLE IF NOT EXISTS {ORIGIN_TABLE} (id INTEGER PRIMARY KEY, "
            f"position {position} NOT NULL)"
        )

    def origin(self, position_if_first: int) -> int:
        """The log position the outbox began at: ``position_if_first`` is recorded when no
        process recorded one before (of two first starts at once, the first one wins)."""
        self._run(
            f"INSERT INTO {ORIGIN_TABLE} (id, position) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
            (position_if_first,),
        )
        rows = self._run(f"SELECT position FROM {ORIGIN_TABLE} WHERE id = 1", rows=True)
        return int(rows[0]["position"])

    def claim(self, mail_id: str, now: datetime) -> bool:
        """Whether this process may send the mail now: nobody sent it, gave it up, or holds a
        claim younger than ``CLAIM_TIMEOUT``. Atomic: of two claimers, one wins."""
        rows = self._run(
            f"INSERT INTO {LEDGER_TABLE} (mail_id, claimed_at) VALUES (?, ?) "
            f"ON CONFLICT (mail_id) DO UPDATE SET claimed_at = excluded.claimed_at "
            f"WHERE {LEDGER_TABLE}.sent_at IS NULL AND {LEDGER_TABLE}.failed_at IS NULL "
            f"AND {LEDGER_TABLE}.claimed_at < ? RETURNING mail_id",
            (mail_id, _instant(now), _instant(now - CLAIM_TIMEOUT)),
            rows=True,
        )
        return bool(rows)

    def record_sent(self, mail_id: str, now: datetime) -> None:
        self._run(
            f"UPDATE {LEDGER_TABLE} SET sent_at = ? WHERE mail_id = ? AND sent_at IS NULL",
            (_instant(now), mail_id),
        )

    def release(self, mail_id: str) -> None:
        """A failed attempt that will be retried: the next attempt claims it again."""
        self._run(
            f"DELETE FROM {LEDGER_TABLE} WHERE mail_id = ? AND sent_at IS NULL "
            "AND failed_at IS NULL",
            (mail_id,),
        )

    def give_up(self, mail_id: str, now: datetime, reason: str) -> None:
        """The mail will never be sent (``reason`` names no address)."""
        self._run(
            f"INSERT INTO {LEDGER_TABLE} (mail_id, claimed_at, failed_at, failed_reason) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (mail_id) DO UPDATE SET "
            "failed_at = excluded.failed_at, failed_reason = excluded.failed_reason "
            f"WHERE {LEDGER_TABLE}.sent_at IS NULL",
            (mail_id, _instant(now), _instant(now), reason[:200]),
        )

    def outcomes(self, mail_ids: Sequence[str]) -> list[Outcome]:
        """The sent or given-up mails among ``mail_ids``."""
        found: list[Outcome] = []
        for start in range(0, len(mail_ids), _CHUNK):
            chunk = tuple(mail_ids[start : start + _CHUNK])
            marks = ", ".join("?" * len(chunk))
            rows = self._run(
                f"SELECT mail_id, sent_at, failed_reason FROM {LEDGER_TABLE} "
                f"WHERE mail_id IN ({marks}) AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)",
                chunk,
                rows=True,
            )
            found.extend(
                Outcome(
                    row["mail_id"],
                    datetime.fromisoformat(row["sent_at"]) if row["sent_at"] else None,
                    row["failed_reason"],
                )
                for row in rows
            )
        return found

    def import_sent(self, sent: Sequence[tuple[str, str]]) -> None:
        """Mails a process recorded as sent in its own views (before this ledger existed)."""
        if sent:
            self._run(
                f"INSERT INTO {LEDGER_TABLE} (mail_id, claimed_at, sent_at) VALUES (?, ?, ?) "
                "ON CONFLICT (mail_id) DO NOTHING",
                [(mail_id, sent_at, sent_at) for mail_id, sent_at in sent],
                many=True,
            )

    def _run(
        self, sql: str, params: Any = (), *, rows: bool = False, many: bool = False
    ) -> list[Any]:
        """One statement in its own transaction (``many``: once per parameter tuple); rows as
        mappings by column name (a query takes a reader connection)."""
        write = not sql.startswith("SELECT")
        if self._postgres:
            from psycopg.sql import SQL, Identifier

            # the schema's tables, as in service.storage.personal
            schema = self._datastore.schema
            text = sql.replace("?", "%s")
            for table in (LEDGER_TABLE, ORIGIN_TABLE):
                text = text.replace(f"{table}", "{" + table + "}")
            statement = SQL(text).format(
                **{table: Identifier(schema, table) for table in (LEDGER_TABLE, ORIGIN_TABLE)}
            )
            with self._datastore.transaction(commit=write) as cursor:
                (cursor.executemany if many else cursor.execute)(statement, params)
                return list(cursor.fetchall()) if rows else []
        with self._datastore.transaction(commit=write) as cursor:
            (cursor.executemany if many else cursor.execute)(sql, params)
            return list(cursor.fetchall()) if rows else []
