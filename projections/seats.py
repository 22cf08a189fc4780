"""Seats per tournament: "N of 20 seats free", the waitlist and check-ins (rule T-SEAT-1)."""

from __future__ import annotations

import msgspec
import sqlite_utils

from domain.tournament import (
    SEAT_HOLDING,
    WAITING,
    PlayerRegistered,
    RegistrationChange,
    RegistrationStatus,
    RegistrationWaitlisted,
    TournamentScheduled,
    TournamentStarted,
    status_after,
)
from projections.registrations import FollowsRegistrations

# The statuses each counter counts (the others hold no seat and do not wait).
_COUNTED: dict[str, tuple[RegistrationStatus, ...]] = {
    "taken": SEAT_HOLDING,
    "waitlist": WAITING,  # standbys too: checked in on site, still waiting for a seat
    "checked_in": ("checked_in",),
}
WAITED_IN_VAIN = "waited_in_vain"
"""The view's mark of a registration still waiting when its tournament started: from then on
nobody gets a seat through the waitlist (a cancellation is refused, a withdrawal frees no
seat for it, a late entry is a registration of its own), so it counts in no counter. A standby
among them got the buy-in back at the start (rules T-CHECKIN-2, T-REG-3)."""


class SeatCounts(msgspec.Struct, frozen=True, kw_only=True):
    """One tournament's seats: taken and free of its capacity, the waitlist, check-ins."""

    capacity: int
    taken: int
    free: int
    waitlist: int
    checked_in: int


class SeatsProjection(FollowsRegistrations):
    """One row of counters per tournament, kept by following each registration's status."""

    name = "seats"
    tables = ("seats", "seat_registrations")
    version = 6

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS seats (tournament_id TEXT PRIMARY KEY, "
            "capacity INTEGER NOT NULL, taken INTEGER NOT NULL DEFAULT 0, "
            "waitlist INTEGER NOT NULL DEFAULT 0, checked_in INTEGER NOT NULL DEFAULT 0)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS seat_registrations (registration_id TEXT PRIMARY KEY, "
            "tournament_id TEXT NOT NULL, status TEXT NOT NULL)"
        )

    def tournament_scheduled(self, event: TournamentScheduled, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO seats (tournament_id, capacity) VALUES (?, ?)",
            [str(event.originator_id), event.capacity],
        )

    def _added(
        self, event: PlayerRegistered | RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        tournament_id, status = str(event.originator_id), status_after(event)
        db.execute(
            "INSERT INTO seat_registrations (registration_id, tournament_id, status) "
            "VALUES (?, ?, ?)",
            [str(event.registration_id), tournament_id, status],
        )
        _count(db, tournament_id, status, +1)

    def _moved(self, event: RegistrationChange, db: sqlite_utils.Database) -> None:
        status = status_after(event)
        row = db.execute(
            "SELECT tournament_id, status FROM seat_registrations WHERE registration_id = ?",
            [str(event.registration_id)],
        ).fetchone()
        tournament_id, old_status = row
        _count(db, tournament_id, old_status, -1)
        _count(db, tournament_id, status, +1)
        db.execute(
            "UPDATE seat_registrations SET status = ? WHERE registration_id = ?",
            [status, str(event.registration_id)],
        )

    def tournament_started(self, event: TournamentStarted, db: sqlite_utils.Database) -> None:
        # the start closes the waitlist: the standbys it left without a seat were refused and
        # refunded, and nobody registered before it gets a seat afterwards
        tournament_id = str(event.originator_id)
        db.execute(
            "UPDATE seat_registrations SET status = ? "
            f"WHERE tournament_id = ? AND status IN ({', '.join('?' for _ in WAITING)})",
            [WAITED_IN_VAIN, tournament_id, *WAITING],
        )
        db.execute("UPDATE seats SET waitlist = 0 WHERE tournament_id = ?", [tournament_id])


def _count(db: sqlite_utils.Database, tournament_id: str, status: str, step: int) -> None:
    for counter, counted in _COUNTED.items():
        if status in counted:
            db.execute(
                f"UPDATE seats SET {counter} = {counter} + ? WHERE tournament_id = ?",
                [step, tournament_id],
            )


def get_seats(db: sqlite_utils.Database, tournament_id: str) -> SeatCounts | None:
    """The seats of one tournament."""
    return list_seats(db, [tournament_id]).get(tournament_id)


def list_seats(db: sqlite_utils.Database, tournament_ids: list[str]) -> dict[str, SeatCounts]:
    """The seats of several tournaments in one query, by tournament id."""
    if not tournament_ids:
        return {}
    marks = ", ".join("?" for _ in tournament_ids)
    rows = db.execute(
        "SELECT tournament_id, capacity, taken, waitlist, checked_in FROM seats "
        f"WHERE tournament_id IN ({marks})",
        tournament_ids,
    ).fetchall()
    return {
        tournament_id: SeatCounts(
            capacity=capacity,
            taken=taken,
            free=max(capacity - taken, 0),
            waitlist=waitlist,
            checked_in=checked_in,
        )
        for tournament_id, capacity, taken, waitlist, checked_in in rows
    }
