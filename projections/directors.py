"""The named directors (rule C-DIR-1): who they are, where they act, their token's hash.

The API finds a director by the hash of the bearer token here and names the actor of an event
(``director:<id>``) in the audit stream. Whether a token still works is checked against the
event store as well (a revocation in another process counts at once).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec
import sqlite_utils

from domain.people.director import DirectorAppointed, DirectorRevoked, ScopeKind
from projections.runner import Projection

_COLUMNS = (
    "id, name, scope, season_id, tournament_id, appointed_at, appointed_by, revoked_at, revoked_by"
)


class DirectorRow(msgspec.Struct, frozen=True, kw_only=True):
    """A named director as listed (never with the token or its hash)."""

    id: UUID
    name: str
    scope: ScopeKind
    season_id: UUID | None
    tournament_id: UUID | None
    appointed_at: datetime
    appointed_by: str | None
    revoked_at: datetime | None
    revoked_by: str | None


class DirectorsProjection(Projection):
    """One row per named director, found by id or by the hash of their token."""

    name = "directors"
    tables = ("directors",)

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS directors (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
            "scope TEXT NOT NULL, season_id TEXT, tournament_id TEXT, "
            "token_hash TEXT NOT NULL UNIQUE, appointed_at TEXT NOT NULL, appointed_by TEXT, "
            "revoked_at TEXT, revoked_by TEXT)"
        )

    def director_appointed(self, event: DirectorAppointed, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO directors (id, name, scope, season_id, tournament_id, token_hash, "
            "appointed_at, appointed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                str(event.originator_id),
                event.name,
                event.scope,
                str(event.season_id) if event.season_id else None,
                str(event.tournament_id) if event.tournament_id else None,
                event.token_hash,
                event.timestamp.isoformat(),
                event.actor,
            ],
        )

    def director_revoked(self, event: DirectorRevoked, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE directors SET revoked_at = ?, revoked_by = ? WHERE id = ?",
            [event.timestamp.isoformat(), event.actor, str(event.originator_id)],
        )


def director_id_by_token_hash(db: sqlite_utils.Database, token_hash: str) -> UUID | None:
    row = db.execute("SELECT id FROM directors WHERE token_hash = ?", [token_hash]).fetchone()
    return UUID(row[0]) if row else None


def get_director(db: sqlite_utils.Database, director_id: UUID) -> DirectorRow | None:
    row = db.execute(
        f"SELECT {_COLUMNS} FROM directors WHERE id = ?", [str(director_id)]
    ).fetchone()
    return _row(row) if row else None


def list_directors(db: sqlite_utils.Database) -> list[DirectorRow]:
    """Every named director in the order of their appointment."""
    rows = db.execute(f"SELECT {_COLUMNS} FROM directors ORDER BY rowid").fetchall()
    return [_row(row) for row in rows]


def director_names(db: sqlite_utils.Database, director_ids: set[UUID]) -> dict[UUID, str]:
    if not director_ids:
        return {}
    marks = ", ".join("?" for _ in director_ids)
    rows = db.execute(
        f"SELECT id, name FROM directors WHERE id IN ({marks})", [str(i) for i in director_ids]
    ).fetchall()
    return {UUID(i): name for i, name in rows}


def _row(row: tuple[object, ...]) -> DirectorRow:
    return msgspec.convert(dict(zip(_COLUMNS.split(", "), row, strict=True)), DirectorRow)
