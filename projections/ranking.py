"""The season ranking: each tournament's facts, and the rows computed from them per season.

The view keeps what a tournament contributes (who attended, who left early, the decided tables,
the winner once completed) and computes the season's rows again with the domain's own function
(rules R-ATT-1..2, R-MATCH-1, R-BYE-1, R-CLASS-1, R-TIE-1) under the season's own options
(R-OPT-1, kept from its creation), once per batch for each season the
batch changed: a rebuild from zero gives the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import msgspec
import sqlite_utils

from domain.events import copied
from domain.seasons.options import DEFAULT_OPTIONS, SeasonOptions
from domain.seasons.ranking import (
    RankingEntry,
    TournamentRecord,
    WonMatch,
    compute_ranking,
)
from domain.seasons.season import PlayerBanned, SeasonCreated
from domain.tournament import (
    LateEntryAdmitted,
    PairedTable,
    PlayerExcluded,
    PlayerWithdrew,
    ResultFacts,
    ResultRecorded,
    RoundPaired,
    RoundRepaired,
    RoundUnpaired,
    TournamentCompleted,
    TournamentScheduled,
    TournamentStarted,
    fold_results,
)
from projections.names import KeepsNames
from projections.standings import (
    TABLE_FACT_COLUMNS,
    LateEntries,
    insert_row,
    table_columns,
    table_fact,
)

_LATE = LateEntries("ranking_late")


class SeasonRankingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line of the season ranking (rules R-ATT-1..2, R-MATCH-1, R-TIE-1)."""

    rank: int
    """Shared by full ties (1, 2, 2, 4)."""
    player_id: UUID
    display_name: str
    points: int
    """``attendance_points + match_points``, or 0 when the season's points were revoked."""
    attendance_points: int
    match_points: int
    tournament_wins: int
    tournaments_played: int
    season_revoked: bool


class PlayerRanking(msgspec.Struct, frozen=True, kw_only=True):
    """One row explained: the entries, tournament by tournament, add up to its points."""

    row: SeasonRankingRow
    entries: tuple[RankingEntry, ...]


class RankingProjection(KeepsNames):
    """Per tournament: season, class, attendance, decided tables; per season: rows, entries."""

    name = "ranking"
    names_table = "ranking_names"
    tables = (
        "ranking_names",
        "ranking_tournaments",
        "ranking_players",
        "ranking_tables",
        "ranking_late",
        "ranking_rows",
        "ranking_entries",
        "ranking_bans",
        "ranking_seasons",
    )
    version = 5

    def __init__(self) -> None:
        self._dirty_tournaments: set[str] = set()
        self._dirty_seasons: set[str] = set()
        """What the batch changed: each season's rows are computed once, at its end."""

    def end_batch(self, db: sqlite_utils.Database) -> None:
        seasons = self._dirty_seasons | {
            season_id
            for tournament_id in self._dirty_tournaments
            if (season_id := _season_of(db, tournament_id)) is not None
        }
        for season_id in sorted(seasons):
            _compute(db, season_id)
        self._dirty_tournaments.clear()
        self._dirty_seasons.clear()

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_names (player_id TEXT PRIMARY KEY, "
            "display_name TEXT NOT NULL)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_tournaments (tournament_id TEXT PRIMARY KEY, "
            "season_id TEXT, name TEXT NOT NULL, class_name TEXT NOT NULL, "
            "play_date TEXT NOT NULL, starts_at TEXT NOT NULL, match_length INTEGER NOT NULL, "
            "started INTEGER NOT NULL DEFAULT 0, lot_seed INTEGER NOT NULL DEFAULT 0, "
            "completed INTEGER NOT NULL DEFAULT 0)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_players (tournament_id TEXT NOT NULL, "
            "player_id TEXT NOT NULL, seat INTEGER NOT NULL, "
            "withdrawn INTEGER NOT NULL DEFAULT 0, left_early INTEGER NOT NULL DEFAULT 0, "
            "PRIMARY KEY (tournament_id, player_id))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_tables (tournament_id TEXT NOT NULL, "
            "round INTEGER NOT NULL, table_number INTEGER NOT NULL, stage TEXT NOT NULL, "
            "player_a TEXT NOT NULL, player_b TEXT, match_id TEXT UNIQUE, "
            "match_length INTEGER NOT NULL, winner TEXT, points_a INTEGER NOT NULL DEFAULT 0, "
            "points_b INTEGER NOT NULL DEFAULT 0, played INTEGER NOT NULL DEFAULT 0, "
            "PRIMARY KEY (tournament_id, round, table_number))"
        )
        _LATE.create_table(db)
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_rows (season_id TEXT NOT NULL, "
            "player_id TEXT NOT NULL, rank INTEGER NOT NULL, points INTEGER NOT NULL, "
            "attendance_points INTEGER NOT NULL, match_points INTEGER NOT NULL, "
            "tournament_wins INTEGER NOT NULL, tournaments_played INTEGER NOT NULL, "
            "season_revoked INTEGER NOT NULL, position INTEGER NOT NULL, "
            "PRIMARY KEY (season_id, player_id))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_entries (season_id TEXT NOT NULL, "
            "player_id TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL, "
            "points INTEGER NOT NULL, rule TEXT NOT NULL, tournament_id TEXT, "
            "tournament_name TEXT NOT NULL, match_id TEXT, round INTEGER, stage TEXT, "
            "PRIMARY KEY (season_id, player_id, position))"
        )

        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_bans (season_id TEXT NOT NULL, "
            "player_id TEXT NOT NULL, PRIMARY KEY (season_id, player_id))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS ranking_seasons (season_id TEXT PRIMARY KEY, "
            "options TEXT NOT NULL)"
        )

    def season_created(self, event: SeasonCreated, db: sqlite_utils.Database) -> None:
        # rule R-OPT-1: the season's options as its creation fixed them
        season_id = str(event.originator_id)
        db.execute(
            "INSERT OR REPLACE INTO ranking_seasons VALUES (?, ?)",
            [season_id, msgspec.json.encode(event.options).decode()],
        )
        self._dirty_seasons.add(season_id)

    def tournament_scheduled(self, event: TournamentScheduled, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO ranking_tournaments (tournament_id, season_id, name, class_name, "
            "play_date, starts_at, match_length) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                str(event.originator_id),
                str(event.season_id) if event.season_id else None,
                event.name,
                event.class_name,
                event.play_date.isoformat(),
                event.starts_at.isoformat(),
                event.match_length,
            ],
        )

    def tournament_started(self, event: TournamentStarted, db: sqlite_utils.Database) -> None:
        # rule R-ATT-1: the field is the checked-in players seated at the start
        tournament_id = str(event.originator_id)
        db.execute(
            "UPDATE ranking_tournaments SET started = 1, lot_seed = ? WHERE tournament_id = ?",
            [event.lot_seed, tournament_id],
        )
        for seat, player_id in enumerate(event.field, start=1):
            db.execute(
                "INSERT OR REPLACE INTO ranking_players (tournament_id, player_id, seat) "
                "VALUES (?, ?, ?)",
                [tournament_id, str(player_id), seat],
            )
        self._dirty_tournaments.add(tournament_id)

    def round_paired(self, event: RoundPaired, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        _insert_tables(db, tournament_id, event.round, event.tables)
        self._dirty_tournaments.add(tournament_id)

    def round_repaired(self, event: RoundRepaired, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        _delete_round(db, tournament_id, event.round)
        _insert_tables(db, tournament_id, event.round, event.tables)
        self._dirty_tournaments.add(tournament_id)

    def round_unpaired(self, event: RoundUnpaired, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        _delete_round(db, tournament_id, event.round)
        _LATE.round_unpaired(tournament_id, event.round, db)
        self._dirty_tournaments.add(tournament_id)

    def late_entry_admitted(self, event: LateEntryAdmitted, db: sqlite_utils.Database) -> None:
        # rule R-ATT-1: a late entry checked in and was seated: present
        tournament_id = str(event.originator_id)
        seat = db.execute(
            "SELECT COALESCE(MAX(seat), 0) + 1 FROM ranking_players WHERE tournament_id = ?",
            [tournament_id],
        ).fetchone()[0]
        db.execute(
            "INSERT OR REPLACE INTO ranking_players (tournament_id, player_id, seat) "
            "VALUES (?, ?, ?)",
            [tournament_id, str(event.player_id), seat],
        )
        _LATE.admitted(event, db)
        self._dirty_tournaments.add(tournament_id)

    def result_recorded(self, event: ResultRecorded, db: sqlite_utils.Database) -> None:
        # rule T-FMT-6: the latest result of a match (a correction names the one it replaces)
        db.execute(
            "UPDATE ranking_tables SET winner = ?, points_a = ?, points_b = ?, played = ? "
            "WHERE match_id = ?",
            [
                str(event.winner),
                event.points_a,
                event.points_b,
                event.played,
                str(event.match_id),
            ],
        )
        self._dirty_tournaments.add(str(event.originator_id))

    def player_withdrew(self, event: PlayerWithdrew, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        db.execute(
            "UPDATE ranking_players SET withdrawn = 1, left_early = ? "
            "WHERE tournament_id = ? AND player_id = ?",
            [event.left_early, tournament_id, str(event.player_id)],
        )
        self._dirty_tournaments.add(tournament_id)

    def player_excluded(self, event: PlayerExcluded, db: sqlite_utils.Database) -> None:
        # an excluded player did not stay: like leaving early, the attendance is revoked (R-ATT-2)
        tournament_id = str(event.originator_id)
        db.execute(
            "UPDATE ranking_players SET withdrawn = 1, left_early = 1 "
            "WHERE tournament_id = ? AND player_id = ?",
            [tournament_id, str(event.player_id)],
        )
        self._dirty_tournaments.add(tournament_id)

    def player_banned(self, event: PlayerBanned, db: sqlite_utils.Database) -> None:
        # rule R-ATT-2: a repeat offender can lose all season points
        if event.revoke_points:
            season_id = str(event.originator_id)
            db.execute(
                "INSERT OR IGNORE INTO ranking_bans VALUES (?, ?)",
                [season_id, str(event.player_id)],
            )
            self._dirty_seasons.add(season_id)

    def tournament_completed(self, event: TournamentCompleted, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        db.execute(
            "UPDATE ranking_tournaments SET completed = 1 WHERE tournament_id = ?",
            [tournament_id],
        )
        self._dirty_tournaments.add(tournament_id)


def _insert_tables(
    db: sqlite_utils.Database, tournament_id: str, number: int, tables: Sequence[PairedTable]
) -> None:
    for table in tables:
        insert_row(
            db,
            "ranking_tables",
            {"tournament_id": tournament_id, "round": number, **table_columns(table)},
        )


def _delete_round(db: sqlite_utils.Database, tournament_id: str, number: int) -> None:
    """A round taken back or paired anew (its tables had no result yet)."""
    db.execute(
        "DELETE FROM ranking_tables WHERE tournament_id = ? AND round = ?", [tournament_id, number]
    )


# Computing the rows ------------------------------------------------------------------------


def _season_of(db: sqlite_utils.Database, tournament_id: str) -> str | None:
    row = db.execute(
        "SELECT season_id FROM ranking_tournaments WHERE tournament_id = ?", [tournament_id]
    ).fetchone()
    return None if row is None else row[0]


def _compute(db: sqlite_utils.Database, season_id: str) -> None:
    """The season's rows again, from the records of its started tournaments."""
    records = [
        _record(db, tournament_id, name, class_name, match_length, lot_seed, bool(completed))
        for tournament_id, name, class_name, match_length, lot_seed, completed in db.execute(
            f"SELECT {_RECORD_COLUMNS} FROM ranking_tournaments WHERE season_id = ? "
            "AND started = 1 ORDER BY play_date, starts_at, name, tournament_id",
            [season_id],
        ).fetchall()
    ]
    db.execute("DELETE FROM ranking_rows WHERE season_id = ?", [season_id])
    db.execute("DELETE FROM ranking_entries WHERE season_id = ?", [season_id])
    revoked = frozenset(
        UUID(player_id)
        for (player_id,) in db.execute(
            "SELECT player_id FROM ranking_bans WHERE season_id = ?", [season_id]
        ).fetchall()
    )
    lines = compute_ranking(records, revoked_season=revoked, options=_options(db, season_id))
    for position, line in enumerate(lines, start=1):
        player_id = str(line.player_id)
        db.execute(
            "INSERT INTO ranking_rows (season_id, player_id, rank, points, attendance_points, "
            "match_points, tournament_wins, tournaments_played, season_revoked, position) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                season_id,
                player_id,
                line.rank,
                line.points,
                line.attendance_points,
                line.match_points,
                line.tournament_wins,
                line.tournaments_played,
                line.season_revoked,
                position,
            ],
        )
        for number, entry in enumerate(line.explanation, start=1):
            db.execute(
                "INSERT INTO ranking_entries (season_id, player_id, position, kind, points, "
                "rule, tournament_id, tournament_name, match_id, round, stage) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    season_id,
                    player_id,
                    number,
                    entry.kind,
                    entry.points,
                    entry.rule,
                    str(entry.tournament_id) if entry.tournament_id else None,
                    entry.tournament_name,
                    str(entry.match_id) if entry.match_id else None,
                    entry.round,
                    entry.stage,
                ],
            )


def _options(db: sqlite_utils.Database, season_id: str) -> SeasonOptions:
    """rule R-OPT-1: the season's options (the defaults for a season the view never saw)."""
    row = db.execute(
        "SELECT options FROM ranking_seasons WHERE season_id = ?", [season_id]
    ).fetchone()
    return DEFAULT_OPTIONS if row is None else msgspec.json.decode(row[0], type=SeasonOptions)


_RECORD_COLUMNS = "tournament_id, name, class_name, match_length, lot_seed, completed"


def tournament_record(db: sqlite_utils.Database, tournament_id: str) -> TournamentRecord | None:
    """What a started tournament contributes to its season's ranking (None: not started)."""
    row = db.execute(
        f"SELECT {_RECORD_COLUMNS} FROM ranking_tournaments WHERE tournament_id = ? "
        "AND started = 1",
        [tournament_id],
    ).fetchone()
    if row is None:
        return None
    _, name, class_name, match_length, lot_seed, completed = row
    return _record(db, tournament_id, name, class_name, match_length, lot_seed, bool(completed))


def _record(
    db: sqlite_utils.Database,
    tournament_id: str,
    name: str,
    class_name: str,
    match_length: int,
    lot_seed: int,
    completed: bool,
) -> TournamentRecord:
    """What the tournament contributes, by the one fold of the tables and results kept."""
    players = db.execute(
        "SELECT player_id, withdrawn, left_early FROM ranking_players WHERE tournament_id = ? "
        "ORDER BY seat",
        [tournament_id],
    ).fetchall()
    columns = TABLE_FACT_COLUMNS.format(points_a="points_a", points_b="points_b")
    tables = db.execute(
        f"SELECT {columns} FROM ranking_tables WHERE tournament_id = ? "
        "ORDER BY round, table_number",
        [tournament_id],
    ).fetchall()
    folded = fold_results(
        ResultFacts(
            field=tuple(UUID(player_id) for player_id, _, _ in players),
            lot_seed=lot_seed,
            tables=tuple(table_fact(row) for row in tables),
            left=frozenset(UUID(player_id) for player_id, gone, _ in players if gone),
            late_entries=_LATE.facts(db, tournament_id),
        )
    )
    # a bye has no match: it is shown with the Swiss length, and scores 0 (R-BYE-1)
    won = [
        copied(match, WonMatch, match_length=match.match_length or match_length)
        for match in folded.decided
    ]
    return TournamentRecord(
        tournament_id=UUID(tournament_id),
        name=name,
        class_name=class_name,
        attended=frozenset(UUID(player_id) for player_id, _, _ in players),
        left_early=frozenset(UUID(player_id) for player_id, _, early in players if early),
        # place 1 (rule T-FMT-4), once the tournament is completed
        winner=folded.places[0] if completed and folded.places else None,
        won_matches=tuple(won),
        # the places are final once the tournament is completed (T-FMT-4; R-OPT-1's best place)
        places=folded.places if completed else (),
    )


# Queries -----------------------------------------------------------------------------------

_SELECT_ROWS = (
    "SELECT r.rank, r.player_id, COALESCE(n.display_name, ''), r.points, r.attendance_points, "
    "r.match_points, r.tournament_wins, r.tournaments_played, r.season_revoked "
    "FROM ranking_rows r LEFT JOIN ranking_names n ON n.player_id = r.player_id "
    "WHERE r.season_id = ?"
)


def list_ranking(db: sqlite_utils.Database, season_id: str) -> list[SeasonRankingRow]:
    """The season's ranking in rank order (R-TIE-1)."""
    rows = db.execute(f"{_SELECT_ROWS} ORDER BY r.position", [season_id]).fetchall()
    return [_row(values) for values in rows]


def get_player_ranking(
    db: sqlite_utils.Database, season_id: str, player_id: str
) -> PlayerRanking | None:
    """One player's row with every entry that gave or took points, or None without a row."""
    found = db.execute(f"{_SELECT_ROWS} AND r.player_id = ?", [season_id, player_id]).fetchone()
    if found is None:
        return None
    entries = tuple(
        RankingEntry(
            kind=kind,
            points=points,
            rule=rule,
            tournament_id=UUID(tournament_id) if tournament_id else None,
            tournament_name=tournament_name,
            match_id=UUID(match_id) if match_id else None,
            round=number,
            stage=stage,
        )
        for kind, points, rule, tournament_id, tournament_name, match_id, number, stage in (
            db.execute(
                "SELECT kind, points, rule, tournament_id, tournament_name, match_id, round, "
                "stage FROM ranking_entries WHERE season_id = ? AND player_id = ? "
                "ORDER BY position",
                [season_id, player_id],
            ).fetchall()
        )
    )
    return PlayerRanking(row=_row(found), entries=entries)


def _row(values: tuple[object, ...]) -> SeasonRankingRow:
    row = dict(zip(SeasonRankingRow.__struct_fields__, values, strict=True))
    row["season_revoked"] = bool(row["season_revoked"])
    return msgspec.convert(row, SeasonRankingRow, strict=False)
