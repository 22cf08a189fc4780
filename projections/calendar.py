"""The club's calendar: seasons, their periods and the tournaments with terms and deadlines."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any
from uuid import UUID

import msgspec
import sqlite_utils

from domain.seasons.options import DEFAULT_OPTIONS, SeasonOptions
from domain.seasons.season import CalendarPeriodAdded, PeriodKind, SeasonCreated
from domain.tournament import (
    KnockoutLengths,
    TournamentCompleted,
    TournamentFinalized,
    TournamentReopened,
    TournamentScheduled,
    TournamentStarted,
)
from domain.tournament.formats import FormatTerms
from projections.runner import Projection

_TOURNAMENT_COLUMNS = (
    "id",
    "season_id",
    "period",
    "name",
    "play_date",
    "venue",
    "capacity",
    "min_age",
    "buy_in_cents",
    "pot_share_cents",
    "waitlist",
    "swiss_rounds",
    "match_length",
    "class_name",
    "payout_percent",
    "time_zone",
    "cancellation_until",
    "check_in_opens",
    "starts_at",
    "started_at",
    "completed_at",
    "finalized_at",
    "players",
    "pot_cents",
    "format",
    "knockout_players",
    "round_robin_cycles",
    "seeding",
    "consolation",
    "consolation_match_length",
    "consolation_pot_percent",
    "consolation_payout_percent",
    "consolation_played",
    "variant",
    "cube",
    "tavli_format",
    "stage_variants",
    "knockout_lengths",
)


class TournamentRow(FormatTerms, frozen=True, kw_only=True):
    """A tournament of the calendar as scheduled, its format terms (rule T-FMT-10) included;
    instants in UTC."""

    id: UUID
    season_id: UUID | None
    period: str | None
    name: str
    play_date: date
    venue: str
    min_age: int
    buy_in_cents: int
    pot_share_cents: int
    waitlist: bool
    match_length: int
    class_name: str
    payout_percent: list[int]
    time_zone: str
    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    finalized_at: datetime | None
    """Set while the director's finalize stands (a reopen clears it)."""
    players: int
    pot_cents: int
    consolation_played: str = "none"
    """rule T-FMT-13, elimination only: from the start; ``consolation`` is the one asked for."""
    variant: str = "backgammon"
    """rule V-MATCH-VARIANT-1, with the three settings below (as scheduled)."""
    cube: bool | None = None
    tavli_format: str | None = None
    stage_variants: dict[str, str] = msgspec.field(default_factory=dict)
    knockout_lengths: KnockoutLengths | None = None
    """rule T-FMT-8: the knockout stages' lengths, the start's where it set them, else as
    scheduled; None (events recorded before stages had lengths): every stage plays
    ``match_length``. Not part of the REST answer (``Tournament`` shows ``match_length``)."""


class PeriodRow(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    kind: PeriodKind
    starts_on: date
    ends_on: date


class SeasonRow(msgspec.Struct, frozen=True, kw_only=True):
    """A season with its calendar periods in date order."""

    id: UUID
    name: str
    starts_on: date
    ends_on: date
    periods: list[PeriodRow]
    options: SeasonOptions = DEFAULT_OPTIONS
    """How the season ranks (rule R-OPT-1), fixed at its creation."""


class CalendarProjection(Projection):
    """Seasons, calendar periods and tournaments in date order; instants as UTC ISO text."""

    name = "calendar"
    tables = ("calendar_seasons", "calendar_periods", "calendar_tournaments")
    version = 6

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS calendar_seasons (id TEXT PRIMARY KEY, "
            "name TEXT NOT NULL, starts_on TEXT NOT NULL, ends_on TEXT NOT NULL, "
            "options TEXT NOT NULL DEFAULT '{}')"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS calendar_periods (season_id TEXT NOT NULL, "
            "name TEXT NOT NULL, kind TEXT NOT NULL, starts_on TEXT NOT NULL, "
            "ends_on TEXT NOT NULL, PRIMARY KEY (season_id, name))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS calendar_tournaments (id TEXT PRIMARY KEY, "
            "season_id TEXT, period TEXT, name TEXT NOT NULL, play_date TEXT NOT NULL, "
            "venue TEXT NOT NULL, capacity INTEGER NOT NULL, min_age INTEGER NOT NULL, "
            "buy_in_cents INTEGER NOT NULL, pot_share_cents INTEGER NOT NULL, "
            "waitlist INTEGER NOT NULL, swiss_rounds INTEGER NOT NULL, "
            "match_length INTEGER NOT NULL, class_name TEXT NOT NULL, "
            "payout_percent TEXT NOT NULL, time_zone TEXT NOT NULL, "
            "cancellation_until TEXT NOT NULL, check_in_opens TEXT NOT NULL, "
            "starts_at TEXT NOT NULL, started_at TEXT, completed_at TEXT, finalized_at TEXT, "
            "players INTEGER NOT NULL DEFAULT 0, pot_cents INTEGER NOT NULL DEFAULT 0, "
            "format TEXT NOT NULL DEFAULT 'swiss', knockout_players INTEGER NOT NULL DEFAULT 4, "
            "round_robin_cycles INTEGER NOT NULL DEFAULT 1, seeding TEXT NOT NULL DEFAULT 'lot', "
            "consolation TEXT NOT NULL DEFAULT 'none', "
            "consolation_match_length INTEGER NOT NULL DEFAULT 0, "
            "consolation_pot_percent INTEGER NOT NULL DEFAULT 20, "
            "consolation_payout_percent TEXT NOT NULL DEFAULT '[60, 40]', "
            "consolation_played TEXT NOT NULL DEFAULT 'none', "
            "variant TEXT NOT NULL DEFAULT 'backgammon', cube INTEGER, tavli_format TEXT, "
            "stage_variants TEXT NOT NULL DEFAULT '{}', knockout_lengths TEXT)"
        )

    def season_created(self, event: SeasonCreated, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO calendar_seasons (id, name, starts_on, ends_on, options) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                str(event.originator_id),
                event.name,
                event.starts_on.isoformat(),
                event.ends_on.isoformat(),
                msgspec.json.encode(event.options).decode(),
            ],
        )

    def calendar_period_added(self, event: CalendarPeriodAdded, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO calendar_periods (season_id, name, kind, starts_on, ends_on) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                str(event.originator_id),
                event.name,
                event.kind,
                event.starts_on.isoformat(),
                event.ends_on.isoformat(),
            ],
        )

    def tournament_scheduled(self, event: TournamentScheduled, db: sqlite_utils.Database) -> None:
        row = {
            "id": str(event.originator_id),
            "season_id": str(event.season_id) if event.season_id else None,
            "period": event.period,
            "name": event.name,
            "play_date": event.play_date.isoformat(),
            "venue": event.venue,
            "capacity": event.capacity,
            "min_age": event.min_age,
            "buy_in_cents": event.buy_in_cents,
            "pot_share_cents": event.pot_share_cents,
            "waitlist": int(event.waitlist),
            "swiss_rounds": event.swiss_rounds,
            "match_length": event.match_length,
            "class_name": event.class_name,
            "payout_percent": json.dumps(list(event.payout_percent)),
            "time_zone": event.time_zone,
            "cancellation_until": event.cancellation_until.isoformat(),
            "check_in_opens": event.check_in_opens.isoformat(),
            "starts_at": event.starts_at.isoformat(),
            "format": event.format,
            "knockout_players": event.knockout_players,
            "round_robin_cycles": event.round_robin_cycles,
            "seeding": event.seeding,
            "consolation": event.consolation,
            "consolation_match_length": event.consolation_match_length,
            "consolation_pot_percent": event.consolation_pot_percent,
            "consolation_payout_percent": json.dumps(list(event.consolation_payout_percent)),
            "variant": event.variant,
            "cube": None if event.cube is None else int(event.cube),
            "tavli_format": event.tavli_format,
            "stage_variants": json.dumps(event.stage_variants),
            "knockout_lengths": _lengths_text(event.knockout_lengths),
        }
        db.execute(
            f"INSERT INTO calendar_tournaments ({', '.join(row)}) "
            f"VALUES ({', '.join('?' for _ in row)})",
            list(row.values()),
        )

    def tournament_started(self, event: TournamentStarted, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE calendar_tournaments SET started_at = ?, players = ?, pot_cents = ?, "
            "consolation_played = ?, knockout_lengths = COALESCE(?, knockout_lengths) "
            "WHERE id = ?",
            [
                event.timestamp.isoformat(),
                event.players,
                event.pot_cents,
                event.consolation_played,
                # rule T-FMT-8: the start's lengths where it set them (older starts: None)
                _lengths_text(event.knockout_lengths),
                str(event.originator_id),
            ],
        )

    def tournament_completed(self, event: TournamentCompleted, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE calendar_tournaments SET completed_at = ? WHERE id = ?",
            [event.timestamp.isoformat(), str(event.originator_id)],
        )

    def tournament_finalized(self, event: TournamentFinalized, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE calendar_tournaments SET finalized_at = ? WHERE id = ?",
            [event.timestamp.isoformat(), str(event.originator_id)],
        )

    def tournament_reopened(self, event: TournamentReopened, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE calendar_tournaments SET finalized_at = NULL WHERE id = ?",
            [str(event.originator_id)],
        )


def _lengths_text(lengths: KnockoutLengths | None) -> str | None:
    return None if lengths is None else msgspec.json.encode(lengths).decode()


def get_tournament(db: sqlite_utils.Database, tournament_id: str) -> TournamentRow | None:
    rows = _tournaments(db, "WHERE id = ?", [tournament_id])
    return rows[0] if rows else None


def list_tournaments(
    db: sqlite_utils.Database, season_id: str | None = None
) -> list[TournamentRow]:
    """The calendar in play-date order, optionally of one season."""
    if season_id is None:
        return _tournaments(db, "", [])
    return _tournaments(db, "WHERE season_id = ?", [season_id])


def get_season(db: sqlite_utils.Database, season_id: str) -> SeasonRow | None:
    rows = _seasons(db, "WHERE id = ?", [season_id])
    return rows[0] if rows else None


def list_seasons(db: sqlite_utils.Database) -> list[SeasonRow]:
    return _seasons(db, "", [])


def find_season_of(db: sqlite_utils.Database, play_date: str) -> str | None:
    """The id of the (earliest starting) season whose dates include ``play_date``."""
    row = db.execute(
        "SELECT id FROM calendar_seasons WHERE starts_on <= ? AND ends_on >= ? "
        "ORDER BY starts_on, name LIMIT 1",
        [play_date, play_date],
    ).fetchone()
    return str(row[0]) if row else None


def _tournaments(db: sqlite_utils.Database, where: str, params: list[Any]) -> list[TournamentRow]:
    cursor = db.execute(
        f"SELECT {', '.join(_TOURNAMENT_COLUMNS)} FROM calendar_tournaments {where} "
        "ORDER BY play_date, starts_at, name",
        params,
    )
    rows = [dict(zip(_TOURNAMENT_COLUMNS, values, strict=True)) for values in cursor.fetchall()]
    for row in rows:
        row["waitlist"] = bool(row["waitlist"])
        row["payout_percent"] = json.loads(row["payout_percent"])
        row["consolation_payout_percent"] = json.loads(row["consolation_payout_percent"])
        row["stage_variants"] = json.loads(row["stage_variants"])
        row["cube"] = None if row["cube"] is None else bool(row["cube"])
        lengths = row["knockout_lengths"]
        row["knockout_lengths"] = None if lengths is None else json.loads(lengths)
    return msgspec.convert(rows, list[TournamentRow], strict=False)


def _seasons(db: sqlite_utils.Database, where: str, params: list[Any]) -> list[SeasonRow]:
    seasons: list[dict[str, Any]] = [
        {
            "id": id_,
            "name": name,
            "starts_on": starts_on,
            "ends_on": ends_on,
            "periods": [],
            "options": msgspec.json.decode(options),
        }
        for id_, name, starts_on, ends_on, options in db.execute(
            f"SELECT id, name, starts_on, ends_on, options FROM calendar_seasons {where} "
            "ORDER BY starts_on, name",
            params,
        ).fetchall()
    ]
    by_id = {season["id"]: season for season in seasons}
    for season_id, name, kind, starts_on, ends_on in db.execute(
        "SELECT season_id, name, kind, starts_on, ends_on FROM calendar_periods "
        f"WHERE season_id IN (SELECT id FROM calendar_seasons {where}) ORDER BY starts_on, name",
        params,
    ).fetchall():
        by_id[season_id]["periods"].append(
            {"name": name, "kind": kind, "starts_on": starts_on, "ends_on": ends_on}
        )
    return msgspec.convert(seasons, list[SeasonRow], strict=False)
