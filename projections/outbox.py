"""The outbox (rule P-MAIL-1): one mail row per event that mails somebody.

A projection like the others: its rows and its position in the log are written in one
transaction, so each event yields its mails exactly once, also when the process dies between
the event and the send. A sender (``service/mail/outbox.py``) delivers the pending rows and marks
them sent. A row keeps what the mail says as facts (``params``), never a token: the sender
derives the links' tokens with the server key when it writes the mail.

Rows have stable ids derived from their event. Which of them went out or were given up is
recorded in the ledger shared by every process of the store
(``service/storage/mail_ledger.py``); the rows here follow it (``settle``), so a rebuilt outbox
or another process's outbox shows them sent or failed. Each row keeps its event's log position
(``position``): mails of events stored before the outbox existed on the store are given up
(``give_up_stored_before``)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

import msgspec
import sqlite_utils

from domain.events import DomainEvent
from domain.people.erasure import PersonErased
from domain.registration_request import RegistrationRequested
from domain.tournament import (
    CancellationClosed,
    LateWithdrawalRecorded,
    NoShowReleased,
    PlayerRegistered,
    RegistrationCancelled,
    RegistrationWaitlisted,
    StandbyNotSeated,
    TournamentScheduled,
    WaitlistPromoted,
)
from projections.runner import Projection

MailKind = Literal[
    "confirmation_link",
    "already_registered",
    "registration_confirmed",
    "waitlist_promoted",
    "cancellation_confirmed",
    "payout_scheme",
]
MailStatus = Literal["pending", "sent", "failed"]
_ROW_NAMESPACE = UUID("2f5c1a9e-8d47-4b0e-a6f3-3c9d7e21b584")
LEGACY_SENT_TABLE = "outbox_sent"
"""Where a process kept its sent mails' ids before the shared ledger: moved there once."""
ERASED = "the person was erased"
"""Why an erased person's mails are not sent (their address is gone); also replaces the last
error of their mails (a refusal by the mail server names the address)."""
BEFORE_OUTBOX = "not sent: its event was stored before the outbox existed"


class MailRow(msgspec.Struct, frozen=True, kw_only=True):
    """One mail of the outbox with its delivery state; instants in UTC."""

    id: str
    kind: MailKind
    recipient: str
    language: str
    player_id: UUID | None
    tournament_id: UUID | None
    subject_id: UUID
    """The request (confirmation link) or the registration the mail is about."""
    params: dict[str, Any]
    source_id: UUID
    source_version: int
    """The event the mail comes from."""
    position: int | None
    """The event's position in the log (None for rows written before positions were kept)."""
    created_at: datetime
    status: MailStatus
    attempts: int
    next_attempt_at: datetime | None
    last_error: str | None
    sent_at: datetime | None


def _instant(value: datetime) -> str:
    return value.astimezone(UTC).isoformat()


class OutboxProjection(Projection):
    """Mails to send, and what they need to know: tournaments and registrations' addresses."""

    name = "outbox"
    tables = ("outbox", "outbox_people", "outbox_tournaments")
    version = 1
    wants_notification_id = True

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, kind TEXT NOT NULL, "
            "recipient TEXT NOT NULL, language TEXT NOT NULL, player_id TEXT, "
            "tournament_id TEXT, subject_id TEXT NOT NULL, params TEXT NOT NULL, "
            "source_id TEXT NOT NULL, source_version INTEGER NOT NULL, "
            "created_at TEXT NOT NULL, status TEXT NOT NULL, "
            "attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT, last_error TEXT, "
            "sent_at TEXT, position INTEGER)"
        )
        columns = {column[1] for column in db.execute("PRAGMA table_info(outbox)")}
        if "position" not in columns:  # a views file of a version without positions
            db.execute("ALTER TABLE outbox ADD COLUMN position INTEGER")
        db.execute("CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS outbox_people (registration_id TEXT PRIMARY KEY, "
            "tournament_id TEXT NOT NULL, player_id TEXT NOT NULL, email TEXT NOT NULL, "
            "first_name TEXT NOT NULL, language TEXT NOT NULL, status TEXT NOT NULL)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS outbox_tournaments (id TEXT PRIMARY KEY, "
            "facts TEXT NOT NULL)"
        )

    # Tournaments and registrations ----------------------------------------------------------

    def tournament_scheduled(self, event: TournamentScheduled, db: sqlite_utils.Database) -> None:
        facts = {
            "tournament": event.name,
            "play_date": event.play_date.isoformat(),
            "venue": event.venue,
            "time_zone": event.time_zone,
            "cancellation_until": _instant(event.cancellation_until),
            "starts_at": _instant(event.starts_at),
            "buy_in_cents": event.buy_in_cents,
            "pot_share_cents": event.pot_share_cents,
            "payout_percent": list(event.payout_percent),
        }
        db.execute(
            "INSERT OR REPLACE INTO outbox_tournaments (id, facts) VALUES (?, ?)",
            [str(event.originator_id), json.dumps(facts)],
        )

    def registration_requested(
        self, event: RegistrationRequested, db: sqlite_utils.Database
    ) -> None:
        # rule P-MAIL-1: the link, or (already registered) a note without one
        self._add(
            db,
            event,
            kind="already_registered" if event.duplicate else "confirmation_link",
            recipient=event.email,
            language=event.language,
            player_id=event.player_id,
            tournament_id=event.tournament_id,
            subject_id=event.originator_id,
            params={"first_name": event.first_name, "confirm_by": _instant(event.confirm_by)},
        )

    def player_registered(self, event: PlayerRegistered, db: sqlite_utils.Database) -> None:
        self._registered(event, "registered", db)

    def registration_waitlisted(
        self, event: RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        self._registered(event, "waitlisted", db)

    def _registered(
        self,
        event: PlayerRegistered | RegistrationWaitlisted,
        status: str,
        db: sqlite_utils.Database,
    ) -> None:
        db.execute(
            "INSERT OR REPLACE INTO outbox_people (registration_id, tournament_id, player_id, "
            "email, first_name, language, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                str(event.registration_id),
                str(event.originator_id),
                str(event.player_id),
                event.email,
                event.first_name,
                event.language,
                status,
            ],
        )
        self._mail_person(db, event, "registration_confirmed", event.registration_id, status)

    def waitlist_promoted(self, event: WaitlistPromoted, db: sqlite_utils.Database) -> None:
        self._set_status(db, event.registration_id, "registered")
        if not event.checked_in:  # a standby seated at the start is at the venue already
            self._mail_person(db, event, "waitlist_promoted", event.registration_id)

    def registration_cancelled(
        self, event: RegistrationCancelled, db: sqlite_utils.Database
    ) -> None:
        self._set_status(db, event.registration_id, "cancelled")
        self._mail_person(db, event, "cancellation_confirmed", event.registration_id)

    def late_withdrawal_recorded(
        self, event: LateWithdrawalRecorded, db: sqlite_utils.Database
    ) -> None:
        self._set_status(db, event.registration_id, "withdrawn")

    def no_show_released(self, event: NoShowReleased, db: sqlite_utils.Database) -> None:
        self._set_status(db, event.registration_id, "no_show")

    def standby_not_seated(self, event: StandbyNotSeated, db: sqlite_utils.Database) -> None:
        self._set_status(db, event.registration_id, "not_seated")

    def cancellation_closed(self, event: CancellationClosed, db: sqlite_utils.Database) -> None:
        """rule T-BUYIN-1: the payout scheme is announced once the field is settled."""
        rows = db.execute(
            "SELECT registration_id FROM outbox_people WHERE tournament_id = ? "
            "AND status IN ('registered', 'waitlisted') ORDER BY rowid",
            [str(event.originator_id)],
        ).fetchall()
        for (registration_id,) in rows:
            self._mail_person(db, event, "payout_scheme", UUID(registration_id))

    def person_erased(self, event: PersonErased, db: sqlite_utils.Database) -> None:
        """The person's address and name leave the outbox; their unsent mails are given up
        (a rebuild, whose events read erased, gives the same rows)."""
        self.compaction_due = True  # no old bytes of the address stay in the file
        player_id = str(event.originator_id)
        db.execute(
            "UPDATE outbox_people SET email = '', first_name = ? WHERE player_id = ?",
            [event.pseudonym, player_id],
        )
        rows = db.execute(
            "SELECT id, params FROM outbox WHERE player_id = ?", [player_id]
        ).fetchall()
        for mail_id, params in rows:
            erased_params = {**json.loads(params), "first_name": event.pseudonym}
            db.execute(
                "UPDATE outbox SET recipient = '', params = ? WHERE id = ?",
                [json.dumps(erased_params), mail_id],
            )
        db.execute(
            "UPDATE outbox SET status = 'failed', last_error = ?, next_attempt_at = NULL "
            "WHERE player_id = ? AND status = 'pending'",
            [ERASED, player_id],
        )
        # a server's refusal quotes the address (SMTPRecipientsRefused)
        db.execute(
            "UPDATE outbox SET last_error = ? WHERE player_id = ? AND last_error IS NOT NULL",
            [ERASED, player_id],
        )

    # Rows -----------------------------------------------------------------------------------

    def _set_status(self, db: sqlite_utils.Database, registration_id: UUID, status: str) -> None:
        db.execute(
            "UPDATE outbox_people SET status = ? WHERE registration_id = ?",
            [status, str(registration_id)],
        )

    def _mail_person(
        self,
        db: sqlite_utils.Database,
        event: DomainEvent,
        kind: MailKind,
        registration_id: UUID,
        status: str | None = None,
    ) -> None:
        person = db.execute(
            "SELECT email, first_name, language, player_id, status FROM outbox_people "
            "WHERE registration_id = ?",
            [str(registration_id)],
        ).fetchone()
        if person is None:
            return
        email, first_name, language, player_id, current = person
        self._add(
            db,
            event,
            kind=kind,
            recipient=email,
            language=language,
            player_id=UUID(player_id),
            tournament_id=event.originator_id,
            subject_id=registration_id,
            params={"first_name": first_name, "status": status or current},
        )

    def _add(
        self,
        db: sqlite_utils.Database,
        event: DomainEvent,
        *,
        kind: MailKind,
        recipient: str,
        language: str,
        player_id: UUID | None,
        tournament_id: UUID,
        subject_id: UUID,
        params: dict[str, Any],
    ) -> None:
        tournament = db.execute(
            "SELECT facts FROM outbox_tournaments WHERE id = ?", [str(tournament_id)]
        ).fetchone()
        if tournament is not None:
            params = {**json.loads(tournament[0]), **params}
        row_id = str(
            uuid.uuid5(
                _ROW_NAMESPACE,
                f"{event.originator_id}:{event.originator_version}:{kind}:{subject_id}",
            )
        )
        # an erased person's events read without an address: nothing to send them; whether
        # the mail went out already is the shared ledger's to say (``settle``)
        status = "pending" if recipient else "failed"
        db.execute(
            "INSERT OR IGNORE INTO outbox (id, kind, recipient, language, player_id, "
            "tournament_id, subject_id, params, source_id, source_version, created_at, status, "
            "attempts, next_attempt_at, last_error, sent_at, position) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, ?)",
            [
                row_id,
                kind,
                recipient,
                language,
                str(player_id) if player_id else None,
                str(tournament_id),
                str(subject_id),
                json.dumps(params),
                str(event.originator_id),
                event.originator_version,
                _instant(event.timestamp),
                status,
                _instant(event.timestamp) if status == "pending" else None,
                None if recipient else ERASED,
                self.notification_id or None,
            ],
        )


def due_mails(db: sqlite_utils.Database, now: datetime, limit: int = 50) -> list[MailRow]:
    """Pending mails whose next attempt is due, oldest first."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? "
        "ORDER BY created_at, id LIMIT ?",
        [_instant(now), limit],
    ).fetchall()
    return [_mail_row(row) for row in rows]


def erased_mail_ids(db: sqlite_utils.Database) -> list[str]:
    """The mails of erased persons (their recipient is gone)."""
    return [row[0] for row in db.execute("SELECT id FROM outbox WHERE recipient = ''")]


def list_mails(db: sqlite_utils.Database, status: str | None = None) -> list[MailRow]:
    """Every mail, newest first (a director's view of the outbox)."""
    where, arguments = ("WHERE status = ?", [status]) if status else ("", [])
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM outbox {where} ORDER BY created_at DESC, id", arguments
    ).fetchall()
    return [_mail_row(row) for row in rows]


def mail_by_id(db: sqlite_utils.Database, mail_id: str) -> MailRow | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM outbox WHERE id = ?", [mail_id]).fetchone()
    return _mail_row(row) if row else None


def pending_ids(db: sqlite_utils.Database) -> list[str]:
    return [row[0] for row in db.execute("SELECT id FROM outbox WHERE status = 'pending'")]


def settle(
    db: sqlite_utils.Database, outcomes: Iterable[tuple[str, datetime | None, str | None]]
) -> None:
    """Pending rows that the shared ledger knows as sent (``sent_at``) or given up (a reason):
    another process sent them, or they were decided before the views were rebuilt."""
    for mail_id, sent_at, failed_reason in outcomes:
        if sent_at is not None:
            db.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, next_attempt_at = NULL, "
                "last_error = NULL WHERE id = ? AND status = 'pending'",
                [_instant(sent_at), mail_id],
            )
        else:
            db.execute(
                "UPDATE outbox SET status = 'failed', next_attempt_at = NULL, "
                "last_error = COALESCE(last_error, ?) WHERE id = ? AND status = 'pending'",
                [failed_reason, mail_id],
            )


def give_up_stored_before(db: sqlite_utils.Database, origin: int) -> None:
    """Mails of events at or below the log position ``origin`` (stored before the outbox
    existed on this store) are never sent: their registrants did not expect them, and their
    links would not work (tokens were random then)."""
    db.execute(
        "UPDATE outbox SET status = 'failed', next_attempt_at = NULL, last_error = ? "
        "WHERE status = 'pending' AND position <= ?",
        [BEFORE_OUTBOX, origin],
    )


def legacy_sent(db: sqlite_utils.Database) -> list[tuple[str, str]] | None:
    """The ids and instants of the legacy per-process sent table; None when there is none
    (these views never ran an outbox without the shared ledger)."""
    if not db[LEGACY_SENT_TABLE].exists():
        return None
    return [(row[0], row[1]) for row in db.execute(f"SELECT id, sent_at FROM {LEGACY_SENT_TABLE}")]


def drop_legacy_sent(db: sqlite_utils.Database) -> None:
    db.execute(f"DROP TABLE IF EXISTS {LEGACY_SENT_TABLE}")


def mark_sent(db: sqlite_utils.Database, mail_id: str, now: datetime) -> None:
    """The mail went out (the shared ledger says so first: see ``service/mail/outbox.py``)."""
    db.execute(
        "UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, "
        "next_attempt_at = NULL, last_error = NULL WHERE id = ?",
        [_instant(now), mail_id],
    )


def mark_failed(
    db: sqlite_utils.Database, mail_id: str, error: str, retry_at: datetime | None
) -> None:
    """A failed attempt: retried at ``retry_at``, or given up (``failed``) when None. The row
    of a person erased meanwhile keeps ``ERASED``: the error may quote their address."""
    db.execute(
        "UPDATE outbox SET attempts = attempts + 1, "
        "next_attempt_at = CASE WHEN recipient = '' THEN NULL ELSE ? END, "
        "status = CASE WHEN recipient = '' THEN 'failed' ELSE ? END, "
        "last_error = CASE WHEN recipient = '' THEN ? ELSE ? END WHERE id = ?",
        [
            _instant(retry_at) if retry_at else None,
            "pending" if retry_at else "failed",
            ERASED,
            error[:500],
            mail_id,
        ],
    )


_COLUMNS = (
    "id, kind, recipient, language, player_id, tournament_id, subject_id, params, source_id, "
    "source_version, created_at, status, attempts, next_attempt_at, last_error, sent_at, "
    "position"
)


def _mail_row(row: tuple[Any, ...]) -> MailRow:
    return MailRow(
        id=row[0],
        kind=row[1],
        recipient=row[2],
        language=row[3],
        player_id=UUID(row[4]) if row[4] else None,
        tournament_id=UUID(row[5]) if row[5] else None,
        subject_id=UUID(row[6]),
        params=json.loads(row[7]),
        source_id=UUID(row[8]),
        source_version=row[9],
        created_at=datetime.fromisoformat(row[10]),
        status=row[11],
        attempts=row[12],
        next_attempt_at=datetime.fromisoformat(row[13]) if row[13] else None,
        last_error=row[14],
        sent_at=datetime.fromisoformat(row[15]) if row[15] else None,
        position=row[16],
    )
