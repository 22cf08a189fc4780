"""The player tokens the service has handed out, by their hash: of registrations and of matches.

Tells a bearer token that nobody holds (a typo: 401) from one that is somebody's but lacks the
right (403), and whose registration a personal link's token is (the player's sign-in). Only
hashes, as the events keep them: a dump of the views shows no token.
"""

from __future__ import annotations

from uuid import UUID

import sqlite_utils

from domain.match import MatchStarted
from domain.tournament import PlayerRegistered, RegistrationWaitlisted
from projections.runner import Projection


class PlayerTokensProjection(Projection):
    """One row per player token hash (a registration's token also plays its matches)."""

    name = "player_tokens"
    tables = ("player_tokens", "registration_tokens")
    version = 2

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute("CREATE TABLE IF NOT EXISTS player_tokens (token_hash TEXT PRIMARY KEY)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS registration_tokens (token_hash TEXT PRIMARY KEY, "
            "tournament_id TEXT NOT NULL, registration_id TEXT NOT NULL)"
        )

    def match_started(self, event: MatchStarted, db: sqlite_utils.Database) -> None:
        _add(db, event.token_hash_a, event.token_hash_b)

    def player_registered(self, event: PlayerRegistered, db: sqlite_utils.Database) -> None:
        _add(db, event.token_hash)
        _add_registration(db, event)

    def registration_waitlisted(
        self, event: RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        _add(db, event.token_hash)
        _add_registration(db, event)


def _add(db: sqlite_utils.Database, *hashes: str) -> None:
    for token_hash in hashes:
        db.execute("INSERT OR IGNORE INTO player_tokens (token_hash) VALUES (?)", [token_hash])


def _add_registration(
    db: sqlite_utils.Database, event: PlayerRegistered | RegistrationWaitlisted
) -> None:
    db.execute(
        "INSERT OR IGNORE INTO registration_tokens (token_hash, tournament_id, registration_id) "
        "VALUES (?, ?, ?)",
        [event.token_hash, str(event.originator_id), str(event.registration_id)],
    )


def holds(db: sqlite_utils.Database, token_hash: str) -> bool:
    """Whether a player holds the token of this hash."""
    row = db.execute("SELECT 1 FROM player_tokens WHERE token_hash = ?", [token_hash]).fetchone()
    return row is not None


def registration_of(db: sqlite_utils.Database, token_hash: str) -> tuple[UUID, UUID] | None:
    """The tournament and the registration whose player token has this hash, if any."""
    row = db.execute(
        "SELECT tournament_id, registration_id FROM registration_tokens WHERE token_hash = ?",
        [token_hash],
    ).fetchone()
    return (UUID(row[0]), UUID(row[1])) if row is not None else None
