"""The tournament day: rounds and their tables, each match's progress, results and standings.

The standings rows are computed by the domain's own function (rule T-FMT-3) from the tables
and results this view keeps, once per batch for each tournament the batch changed (a rebuild
reads thousands of results per batch): a rebuild from zero gives the same rows.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import sqlite_utils

from domain.match import (
    GameWon,
    MatchVoided,
    MatchWon,
    OpeningRollMade,
    PenaltyAwarded,
    PenaltyChanged,
)
from domain.tournament import (
    Decided,
    LateEntryAdmitted,
    LateFact,
    PairedTable,
    PenaltyFact,
    PlayerExcluded,
    PlayerRegistered,
    PlayerWithdrew,
    RegistrationWaitlisted,
    ResultDisputed,
    ResultFacts,
    ResultRecorded,
    RoundPaired,
    RoundRepaired,
    RoundUnpaired,
    TableFact,
    TournamentStarted,
    display_name,
    fold_results,
)
from projections.names import KeepsNames


class StandingsProjection(KeepsNames):
    """Tables of every round, the progress of their matches, results that count, standings."""

    name = "standings"
    names_table = "day_players"
    tables = (
        "day_players",
        "day_tournaments",
        "day_tables",
        "day_standings",
        "day_penalties",
        "day_late",
    )
    version = 5

    def __init__(self) -> None:
        self._dirty: set[str] = set()
        """Tournaments whose standings the batch changed: computed once, at its end."""

    def end_batch(self, db: sqlite_utils.Database) -> None:
        for tournament_id in sorted(self._dirty):
            _compute(db, tournament_id)
        self._dirty.clear()

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS day_players (tournament_id TEXT NOT NULL, "
            "player_id TEXT NOT NULL, display_name TEXT NOT NULL, seat INTEGER, "
            "withdrawn INTEGER NOT NULL DEFAULT 0, left_early INTEGER NOT NULL DEFAULT 0, "
            "PRIMARY KEY (tournament_id, player_id))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS day_tournaments (tournament_id TEXT PRIMARY KEY, "
            "lot_seed INTEGER NOT NULL, swiss_rounds INTEGER NOT NULL)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS day_tables (tournament_id TEXT NOT NULL, "
            "round INTEGER NOT NULL, round_stage TEXT NOT NULL, seed INTEGER NOT NULL, "
            "table_number INTEGER NOT NULL, stage TEXT NOT NULL, player_a TEXT NOT NULL, "
            "player_b TEXT, match_id TEXT UNIQUE, match_length INTEGER NOT NULL, "
            "reason TEXT NOT NULL, explanation TEXT NOT NULL, "
            "status TEXT NOT NULL, score_a INTEGER NOT NULL DEFAULT 0, "
            "score_b INTEGER NOT NULL DEFAULT 0, winner TEXT, result_id TEXT, "
            "played INTEGER, source TEXT, PRIMARY KEY (tournament_id, round, table_number))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS day_standings (tournament_id TEXT NOT NULL, "
            "rank INTEGER NOT NULL, player_id TEXT NOT NULL, wins INTEGER NOT NULL, "
            "points INTEGER NOT NULL, buchholz INTEGER NOT NULL, head_to_head INTEGER NOT NULL, "
            "lot INTEGER NOT NULL, matches INTEGER NOT NULL, byes INTEGER NOT NULL, "
            "penalty_points INTEGER NOT NULL, PRIMARY KEY (tournament_id, rank))"
        )
        _LATE.create_table(db)

        db.execute(
            "CREATE TABLE IF NOT EXISTS day_penalties (penalty_id TEXT PRIMARY KEY, "
            "match_id TEXT NOT NULL, tournament_id TEXT NOT NULL, player_id TEXT NOT NULL, "
            "points INTEGER NOT NULL, reason TEXT NOT NULL, awarded_at TEXT NOT NULL)"
        )

    def _registered(
        self, event: PlayerRegistered | RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        """A player's name in each tournament they registered for (seat and marks anew)."""
        db.execute(
            "INSERT OR REPLACE INTO day_players (tournament_id, player_id, display_name) "
            "VALUES (?, ?, ?)",
            [
                str(event.originator_id),
                str(event.player_id),
                display_name(event.first_name, event.last_name),
            ],
        )

    def tournament_started(self, event: TournamentStarted, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        db.execute(
            "INSERT OR REPLACE INTO day_tournaments VALUES (?, ?, ?)",
            [tournament_id, event.lot_seed, event.swiss_rounds],
        )
        for seat, player_id in enumerate(event.field, start=1):
            db.execute(
                "UPDATE day_players SET seat = ? WHERE tournament_id = ? AND player_id = ?",
                [seat, tournament_id, str(player_id)],
            )
        self._dirty.add(tournament_id)

    def round_paired(self, event: RoundPaired, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        for table in event.tables:
            _insert_table(db, tournament_id, event.round, event.stage, event.seed, table)
        self._dirty.add(tournament_id)

    def round_repaired(self, event: RoundRepaired, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        row = db.execute(
            "SELECT round_stage, seed FROM day_tables WHERE tournament_id = ? AND round = ? "
            "LIMIT 1",
            [tournament_id, event.round],
        ).fetchone()
        stage, seed = row if row else ("swiss", 0)
        for number in event.replaced:
            db.execute(
                "DELETE FROM day_tables WHERE tournament_id = ? AND round = ? AND table_number = ?",
                [tournament_id, event.round, number],
            )
        kept = {
            number
            for (number,) in db.execute(
                "SELECT table_number FROM day_tables WHERE tournament_id = ? AND round = ?",
                [tournament_id, event.round],
            ).fetchall()
        }
        for table in event.tables:
            if table.table not in kept:
                _insert_table(db, tournament_id, event.round, stage, seed, table)
        self._dirty.add(tournament_id)

    def round_unpaired(self, event: RoundUnpaired, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        db.execute(
            "DELETE FROM day_tables WHERE tournament_id = ? AND round = ?",
            [tournament_id, event.round],
        )
        _LATE.round_unpaired(tournament_id, event.round, db)
        self._dirty.add(tournament_id)

    def match_voided(self, event: MatchVoided, db: sqlite_utils.Database) -> None:
        # a voided match's penalties went with it
        self._dirty.update(_tournaments_penalised(db, "match_id", event.originator_id))
        db.execute("DELETE FROM day_penalties WHERE match_id = ?", [str(event.originator_id)])

    def result_disputed(self, event: ResultDisputed, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_tables SET status = 'disputed' WHERE match_id = ? AND result_id IS NULL",
            [str(event.match_id)],
        )

    def late_entry_admitted(self, event: LateEntryAdmitted, db: sqlite_utils.Database) -> None:
        tournament_id = str(event.originator_id)
        db.execute(
            "UPDATE day_players SET seat = (SELECT COALESCE(MAX(seat), 0) + 1 FROM day_players "
            "WHERE tournament_id = ?) WHERE tournament_id = ? AND player_id = ?",
            [tournament_id, tournament_id, str(event.player_id)],
        )
        _LATE.admitted(event, db)
        self._dirty.add(tournament_id)

    def opening_roll_made(self, event: OpeningRollMade, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_tables SET status = 'playing' WHERE match_id = ? AND status = 'pending'",
            [str(event.originator_id)],
        )

    def game_won(self, event: GameWon, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_tables SET score_a = ?, score_b = ? WHERE match_id = ? "
            "AND result_id IS NULL",
            [event.score_a, event.score_b, str(event.originator_id)],
        )

    def match_won(self, event: MatchWon, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_tables SET score_a = ?, score_b = ? WHERE match_id = ? "
            "AND result_id IS NULL",
            [event.score_a, event.score_b, str(event.originator_id)],
        )

    def result_recorded(self, event: ResultRecorded, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_tables SET status = 'decided', winner = ?, score_a = ?, score_b = ?, "
            "result_id = ?, played = ?, source = ? WHERE match_id = ?",
            [
                str(event.winner),
                event.points_a,
                event.points_b,
                str(event.result_id),
                event.played,
                event.source,
                str(event.match_id),
            ],
        )
        self._dirty.add(str(event.originator_id))

    def penalty_awarded(self, event: PenaltyAwarded, db: sqlite_utils.Database) -> None:
        # rule C-BREAK-2: penalties of a pairing's match count in its tournament
        table = db.execute(
            "SELECT tournament_id, player_a, player_b FROM day_tables WHERE match_id = ?",
            [str(event.originator_id)],
        ).fetchone()
        if table is None:
            return
        tournament_id, player_a, player_b = table
        db.execute(
            "INSERT INTO day_penalties VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                str(event.penalty_id),
                str(event.originator_id),
                tournament_id,
                player_a if event.side == "a" else player_b,
                event.points,
                event.reason,
                event.timestamp.isoformat(),
            ],
        )
        self._dirty.add(tournament_id)

    def penalty_changed(self, event: PenaltyChanged, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_penalties SET points = ? WHERE penalty_id = ?",
            [event.points, str(event.penalty_id)],
        )
        self._dirty.update(_tournaments_penalised(db, "penalty_id", event.penalty_id))

    def player_excluded(self, event: PlayerExcluded, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_players SET withdrawn = 1, left_early = 1 "
            "WHERE tournament_id = ? AND player_id = ?",
            [str(event.originator_id), str(event.player_id)],
        )

    def player_withdrew(self, event: PlayerWithdrew, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE day_players SET withdrawn = 1, left_early = ? "
            "WHERE tournament_id = ? AND player_id = ?",
            [event.left_early, str(event.originator_id), str(event.player_id)],
        )


def _tournaments_penalised(db: sqlite_utils.Database, column: str, value: UUID) -> set[str]:
    """The tournaments whose penalties a change of the match or penalty ``value`` touches."""
    return {
        tournament_id
        for (tournament_id,) in db.execute(
            f"SELECT DISTINCT tournament_id FROM day_penalties WHERE {column} = ?", [str(value)]
        ).fetchall()
    }


def _insert_table(
    db: sqlite_utils.Database,
    tournament_id: str,
    round_number: int,
    round_stage: str,
    seed: int,
    table: PairedTable,
) -> None:
    insert_row(
        db,
        "day_tables",
        {
            "tournament_id": tournament_id,
            "round": round_number,
            "round_stage": round_stage,
            "seed": seed,
            **table_columns(table),
            "reason": table.reason,
            "explanation": table.explanation,
            "status": "bye" if table.player_b is None else "pending",
        },
    )


def table_columns(table: PairedTable) -> dict[str, Any]:
    """What a view of the tables (standings, season ranking) writes down of a round's table
    when it is paired, by column: no result yet, but a bye is decided at once, unplayed, for
    its player (rule R-BYE-1)."""
    is_bye = table.player_b is None
    return {
        "table_number": table.table,
        "stage": table.stage,
        "player_a": str(table.player_a),
        "player_b": None if is_bye else str(table.player_b),
        "match_id": str(table.match_id) if table.match_id else None,
        "match_length": table.match_length,
        "winner": str(table.player_a) if is_bye else None,
    }


def insert_row(db: sqlite_utils.Database, table: str, row: dict[str, Any]) -> None:
    """One row into ``table``, its columns named by ``row``'s keys."""
    db.execute(
        f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
        list(row.values()),
    )


TABLE_FACT_COLUMNS = (
    "round, table_number, stage, player_a, player_b, match_id, match_length, winner, "
    "{points_a}, {points_b}, played"
)
"""The columns ``table_fact`` reads, in its order (each view names its points columns)."""


def table_fact(row: tuple[Any, ...]) -> TableFact:
    """A table of a view as ``fold_results`` takes it, from a row of ``TABLE_FACT_COLUMNS``;
    a table with a winner and a second player has its result (a bye's winner is its player)."""
    number, table, stage, player_a, player_b, match_id, length, winner, *points, played = row
    decided = winner is not None and player_b is not None
    return TableFact(
        round=number,
        table=table,
        stage=stage,
        player_a=UUID(player_a),
        player_b=UUID(player_b) if player_b else None,
        match_id=UUID(match_id) if match_id else None,
        match_length=length,
        result=Decided(
            winner=UUID(winner), points_a=points[0], points_b=points[1], played=bool(played)
        )
        if decided
        else None,
    )


class LateEntries:
    """A view's table of the late entries, for the one fold of the results: the standings and
    the season ranking keep one each, the same way."""

    def __init__(self, table: str) -> None:
        self.table = table

    def create_table(self, db: sqlite_utils.Database) -> None:
        db.execute(
            f"CREATE TABLE IF NOT EXISTS {self.table} (tournament_id TEXT NOT NULL, "
            "player_id TEXT NOT NULL, from_round INTEGER NOT NULL, missed TEXT NOT NULL, "
            "PRIMARY KEY (tournament_id, player_id))"
        )

    def admitted(self, event: LateEntryAdmitted, db: sqlite_utils.Database) -> None:
        db.execute(
            f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?, ?, ?)",
            [str(event.originator_id), str(event.player_id), event.from_round, event.missed],
        )

    def round_unpaired(self, tournament_id: str, number: int, db: sqlite_utils.Database) -> None:
        """A late entry admitted during the round taken back is paired from it now."""
        db.execute(
            f"UPDATE {self.table} SET from_round = MIN(from_round, ?) WHERE tournament_id = ?",
            [number, tournament_id],
        )

    def facts(self, db: sqlite_utils.Database, tournament_id: str) -> tuple[LateFact, ...]:
        rows = db.execute(
            f"SELECT player_id, from_round, missed FROM {self.table} WHERE tournament_id = ?",
            [tournament_id],
        ).fetchall()
        return tuple(
            LateFact(player_id=UUID(player_id), from_round=from_round, missed=missed)
            for player_id, from_round, missed in rows
        )


_LATE = LateEntries("day_late")


def _facts(db: sqlite_utils.Database, tournament_id: str) -> ResultFacts | None:
    """The facts this view keeps of a tournament, for the one fold of its results."""
    settings = db.execute(
        "SELECT lot_seed FROM day_tournaments WHERE tournament_id = ?", [tournament_id]
    ).fetchone()
    if settings is None:
        return None
    players = db.execute(
        "SELECT player_id, withdrawn FROM day_players WHERE tournament_id = ? "
        "AND seat IS NOT NULL ORDER BY seat",
        [tournament_id],
    ).fetchall()
    columns = TABLE_FACT_COLUMNS.format(points_a="score_a", points_b="score_b")
    tables = db.execute(
        f"SELECT {columns} FROM day_tables WHERE tournament_id = ? ORDER BY round, table_number",
        [tournament_id],
    ).fetchall()
    penalties = db.execute(
        "SELECT player_id, points FROM day_penalties WHERE tournament_id = ?", [tournament_id]
    ).fetchall()
    return ResultFacts(
        field=tuple(UUID(player_id) for player_id, _ in players),
        lot_seed=settings[0],
        tables=tuple(table_fact(row) for row in tables),
        left=frozenset(UUID(player_id) for player_id, gone in players if gone),
        late_entries=_LATE.facts(db, tournament_id),
        penalties=tuple(
            PenaltyFact(player_id=UUID(player_id), points=points) for player_id, points in penalties
        ),
    )


def _compute(db: sqlite_utils.Database, tournament_id: str) -> None:
    """rule T-FMT-3: the standings again, by the one fold of the tables and results kept."""
    facts = _facts(db, tournament_id)
    if facts is None:
        return
    folded = fold_results(facts)
    penalty_points = {outcome.player_id: outcome.penalty_points for outcome in folded.players}
    db.execute("DELETE FROM day_standings WHERE tournament_id = ?", [tournament_id])
    for standing in folded.standings:
        db.execute(
            "INSERT INTO day_standings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                tournament_id,
                standing.rank,
                str(standing.player_id),
                standing.wins,
                standing.points,
                standing.buchholz,
                standing.head_to_head,
                standing.lot,
                standing.matches,
                standing.byes,
                penalty_points[standing.player_id],
            ],
        )


# Queries -----------------------------------------------------------------------------------


_STANDING_KEYS = (
    "rank",
    "player_id",
    "display_name",
    "wins",
    "points",
    "buchholz",
    "head_to_head",
    "lot",
    "matches",
    "byes",
    "withdrawn",
    "penalty_points",
)
"""The keys of each row ``list_standings`` answers, in its order."""


def list_standings(db: sqlite_utils.Database, tournament_id: str) -> list[dict[str, Any]]:
    """The Swiss standings in rank order, with each tiebreak's value and the display name."""
    rows = db.execute(
        "SELECT s.rank, s.player_id, p.display_name, s.wins, s.points, s.buchholz, "
        "s.head_to_head, s.lot, s.matches, s.byes, p.withdrawn, s.penalty_points "
        "FROM day_standings s "
        "JOIN day_players p ON p.tournament_id = s.tournament_id AND p.player_id = s.player_id "
        "WHERE s.tournament_id = ? ORDER BY s.rank",
        [tournament_id],
    ).fetchall()
    return [dict(zip(_STANDING_KEYS, row, strict=True)) for row in rows]


_TABLE_COLUMNS = (
    "round",
    "round_stage",
    "seed",
    "table_number",
    "stage",
    "player_a",
    "player_b",
    "match_id",
    "match_length",
    "reason",
    "explanation",
    "status",
    "score_a",
    "score_b",
    "winner",
    "result_id",
    "played",
    "source",
)


def list_tables(
    db: sqlite_utils.Database, tournament_id: str, round_number: int | None = None
) -> list[dict[str, Any]]:
    """Every table of the tournament (or of one round) in round and table order."""
    where = "tournament_id = ?" + (" AND round = ?" if round_number is not None else "")
    params: list[Any] = [tournament_id]
    if round_number is not None:
        params.append(round_number)
    rows = db.execute(
        f"SELECT {', '.join(_TABLE_COLUMNS)} FROM day_tables WHERE {where} "
        "ORDER BY round, table_number",
        params,
    ).fetchall()
    return [dict(zip(_TABLE_COLUMNS, row, strict=True)) for row in rows]


def find_penalty(db: sqlite_utils.Database, penalty_id: str) -> dict[str, Any] | None:
    """One penalty of a tournament's match: its match, tournament and penalised player."""
    row = db.execute(
        "SELECT penalty_id, match_id, tournament_id, player_id, points, reason, awarded_at "
        "FROM day_penalties WHERE penalty_id = ?",
        [penalty_id],
    ).fetchone()
    keys = ("penalty_id", "match_id", "tournament_id", "player_id", "points", "reason", "at")
    return dict(zip(keys, row, strict=True)) if row else None


def display_names(db: sqlite_utils.Database, tournament_id: str) -> dict[str, str]:
    """Display names of the tournament's players, by player id."""
    return dict(
        db.execute(
            "SELECT player_id, display_name FROM day_players WHERE tournament_id = ?",
            [tournament_id],
        ).fetchall()
    )
