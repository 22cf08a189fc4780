"""Registrations per tournament: the public list (display names) and the director's list."""

# The public list shows display names only ("Anna M."); names, e-mail and age are for directors.

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from uuid import UUID

import msgspec
import sqlite_utils

from domain.events import copied
from domain.people.erasure import PersonErased
from domain.tournament import (
    ACTIVE,
    WAITING,
    LateWithdrawalRecorded,
    PlayerCheckedIn,
    PlayerRegistered,
    PlayerWithdrew,
    RegistrationCancelled,
    RegistrationChange,
    RegistrationStatus,
    RegistrationWaitlisted,
    StandbyCheckedIn,
    StandbyNotSeated,
    display_name,
    status_after,
)
from projections.registrations import FollowsRegistrations

_COLUMNS = (
    "registration_id",
    "tournament_id",
    "player_id",
    "sequence",
    "first_name",
    "last_name",
    "display_name",
    "email",
    "age",
    "birth_date",
    "status",
    "registered_at",
    "updated_at",
    "checked_in_at",
    "buy_in_paid_cents",
    "withdrawal_reason",
    "refund_cents",
)


class ParticipantRow(msgspec.Struct, frozen=True, kw_only=True):
    """Public: a display name such as "Anna M.", never the full name or e-mail."""

    player_id: UUID
    display_name: str
    status: RegistrationStatus
    waitlist_position: int | None


class RegistrationRecord(msgspec.Struct, frozen=True, kw_only=True):
    """Director: a registration with the person's data; instants in UTC. The API lists these
    fields, in this order (the CSV's columns)."""

    registration_id: UUID
    player_id: UUID
    first_name: str
    last_name: str
    display_name: str
    email: str
    age: int | None
    birth_date: date | None
    status: RegistrationStatus
    waitlist_position: int | None
    registered_at: datetime
    updated_at: datetime
    checked_in_at: datetime | None
    buy_in_paid_cents: int | None
    withdrawal_reason: str | None
    refund_cents: int | None
    """The buy-in to hand back to a standby who left or got no seat, or to a late registration
    checked in and cancelled before its admission."""


class RegistrationRow(RegistrationRecord, frozen=True, kw_only=True):
    """The registration with its tournament and its ``sequence`` (the order of arrival), which
    the API leaves out: the path names the tournament, the sequence is the view's own."""

    tournament_id: UUID
    sequence: int


class ParticipantsProjection(FollowsRegistrations):
    """One row per registration with its current status and the person's data."""

    name = "participants"
    tables = ("participants", "people_erased")
    version = 6

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS participants (registration_id TEXT PRIMARY KEY, "
            "tournament_id TEXT NOT NULL, player_id TEXT NOT NULL, sequence INTEGER NOT NULL, "
            "first_name TEXT NOT NULL, last_name TEXT NOT NULL, display_name TEXT NOT NULL, "
            "email TEXT NOT NULL, age INTEGER, birth_date TEXT, status TEXT NOT NULL, "
            "registered_at TEXT NOT NULL, updated_at TEXT NOT NULL, checked_in_at TEXT, "
            "buy_in_paid_cents INTEGER, withdrawal_reason TEXT, refund_cents INTEGER)"
        )
        db.execute(
            "CREATE INDEX IF NOT EXISTS participants_by_tournament "
            "ON participants (tournament_id, sequence)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS participants_by_player ON participants (player_id)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS people_erased (player_id TEXT PRIMARY KEY, "
            "pseudonym TEXT NOT NULL, erased_at TEXT NOT NULL)"
        )

    def person_erased(self, event: PersonErased, db: sqlite_utils.Database) -> None:
        """The person's registrations show the pseudonym and no personal data any more (the
        same as a rebuild shows, whose events then read erased)."""
        self.compaction_due = True  # no old bytes of the name stay in the file
        db.execute(
            "UPDATE participants SET first_name = ?, last_name = '', display_name = ?, "
            "email = '', age = NULL, birth_date = NULL WHERE player_id = ?",
            [event.pseudonym, event.pseudonym, str(event.originator_id)],
        )
        db.execute(
            "INSERT OR IGNORE INTO people_erased (player_id, pseudonym, erased_at) "
            "VALUES (?, ?, ?)",
            [str(event.originator_id), event.pseudonym, event.timestamp.isoformat()],
        )

    def _added(
        self, event: PlayerRegistered | RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        _insert(db, event)

    def _moved(self, event: RegistrationChange, db: sqlite_utils.Database) -> None:
        _set_status(db, event)
        match event:
            case RegistrationCancelled() if event.refund_cents:
                _set_refund(db, event.registration_id, event.refund_cents)
            case StandbyNotSeated():
                _set_refund(db, event.registration_id, event.refund_cents)
            case PlayerWithdrew() | LateWithdrawalRecorded():
                db.execute(
                    "UPDATE participants SET withdrawal_reason = ? WHERE registration_id = ?",
                    [event.reason, str(event.registration_id)],
                )
            case PlayerCheckedIn() | StandbyCheckedIn():
                _set_check_in(db, event)


def _insert(db: sqlite_utils.Database, event: PlayerRegistered | RegistrationWaitlisted) -> None:
    row = {
        "registration_id": str(event.registration_id),
        "tournament_id": str(event.originator_id),
        "player_id": str(event.player_id),
        "sequence": event.originator_version,
        "first_name": event.first_name,
        "last_name": event.last_name,
        "display_name": display_name(event.first_name, event.last_name),
        "email": event.email,
        "age": event.age,
        "birth_date": event.birth_date.isoformat() if event.birth_date else None,
        "status": status_after(event),
        "registered_at": event.timestamp.isoformat(),
        "updated_at": event.timestamp.isoformat(),
    }
    db.execute(
        f"INSERT INTO participants ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
        list(row.values()),
    )


def _set_status(db: sqlite_utils.Database, event: RegistrationChange) -> None:
    db.execute(
        "UPDATE participants SET status = ?, updated_at = ? WHERE registration_id = ?",
        [status_after(event), event.timestamp.isoformat(), str(event.registration_id)],
    )


def _set_check_in(db: sqlite_utils.Database, event: PlayerCheckedIn | StandbyCheckedIn) -> None:
    db.execute(
        "UPDATE participants SET checked_in_at = ?, buy_in_paid_cents = ? "
        "WHERE registration_id = ?",
        [event.timestamp.isoformat(), event.buy_in_paid_cents, str(event.registration_id)],
    )


def _set_refund(db: sqlite_utils.Database, registration_id: Any, refund_cents: int) -> None:
    db.execute(
        "UPDATE participants SET refund_cents = ? WHERE registration_id = ?",
        [refund_cents, str(registration_id)],
    )


def is_registered(db: sqlite_utils.Database, player_id: str) -> bool:
    """Whether any registration names this player id (in any tournament)."""
    row = db.execute("SELECT 1 FROM participants WHERE player_id = ? LIMIT 1", [player_id])
    return row.fetchone() is not None


def erased_people(db: sqlite_utils.Database) -> list[str]:
    """Player ids of every erased person, as the log records them."""
    return [row[0] for row in db.execute("SELECT player_id FROM people_erased ORDER BY player_id")]


def list_participants(db: sqlite_utils.Database, tournament_id: str) -> list[ParticipantRow]:
    """Public: seat holders in order of registration, then the waitlist in its order, each
    as its registration's row without the personal data."""
    return [
        copied(row, ParticipantRow)
        for row in list_registrations(db, tournament_id)
        if row.status in ACTIVE
    ]


def list_registrations(db: sqlite_utils.Database, tournament_id: str) -> list[RegistrationRow]:
    """Director: every registration with personal data, status and waitlist position."""
    cursor = db.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM participants WHERE tournament_id = ? "
        f"ORDER BY status IN ({', '.join('?' for _ in WAITING)}), sequence",
        [tournament_id, *WAITING],
    )
    rows = [dict(zip(_COLUMNS, values, strict=True)) for values in cursor.fetchall()]
    position = 0
    for row in rows:
        if row["status"] in WAITING:
            position += 1
            row["waitlist_position"] = position
        else:
            row["waitlist_position"] = None
    return msgspec.convert(rows, list[RegistrationRow], strict=False)
