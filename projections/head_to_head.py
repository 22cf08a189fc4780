"""Every player's record against each opponent (issue 22, the "Nemesis report"): the matches
that decided something between two players, across all tournaments and the rated ad hoc
matches, with the points each side scored.

What counts as a meeting: a decided tournament match that was played, or reported as played
(rule T-FMT-6); not a bye and not an unplayed forfeit (rules R-BYE-1, T-FMT-5, T-FMT-7). A
result counts once per match: a correction replaces the result it corrects, figures and all,
and the meeting keeps the day it was first decided. An ad hoc match counts where the club's
rating counts it (rule R-RATE-5: rated, begun, decided, length 1 or more); a voided match counts
for nobody. Imported past results carry no points and are not meetings here.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec
import sqlite_utils

from domain.match import MatchStarted, MatchVoided, MatchWon
from domain.tournament import (
    PairedTable,
    ResultRecorded,
)
from projections.match_facts import KeepsMatchFacts
from projections.names import KeepsClubNames


class HeadToHeadRow(msgspec.Struct, frozen=True, kw_only=True):
    """A player's record against one opponent (display names only, no contact data)."""

    opponent_id: UUID
    opponent: str
    matches: int
    wins: int
    losses: int
    points_for: int
    points_against: int
    last_played: str
    """The day of the latest meeting, ``YYYY-MM-DD``."""


class PlayerHeadToHead(msgspec.Struct, frozen=True, kw_only=True):
    """A player's display name and their record against each opponent."""

    player_id: UUID
    display_name: str
    opponents: list[HeadToHeadRow]


class HeadToHeadProjection(KeepsClubNames, KeepsMatchFacts):
    """Who met whom: each counted match once, with its winner, loser and their points."""

    name = "head_to_head"
    names_table = "h2h_people"
    matches_table = "h2h_matches"
    tables = ("h2h_people", "h2h_matches", "h2h_meetings")
    version = 1
    wants_notification_id = True

    def create_tables(self, db: sqlite_utils.Database) -> None:
        self._create_names_table(db)
        db.execute(
            "CREATE TABLE IF NOT EXISTS h2h_matches (match_id TEXT PRIMARY KEY, "
            "player_a TEXT NOT NULL, player_b TEXT NOT NULL, tournament INTEGER NOT NULL, "
            "rated INTEGER NOT NULL, begun INTEGER NOT NULL DEFAULT 0, length INTEGER NOT NULL)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS h2h_meetings (match_id TEXT PRIMARY KEY, "
            "seq INTEGER NOT NULL, date TEXT NOT NULL, winner TEXT NOT NULL, "
            "loser TEXT NOT NULL, winner_points INTEGER NOT NULL, "
            "loser_points INTEGER NOT NULL, counted INTEGER NOT NULL)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS h2h_meetings_winner ON h2h_meetings (winner)")
        db.execute("CREATE INDEX IF NOT EXISTS h2h_meetings_loser ON h2h_meetings (loser)")

    # Who plays each match (a round's tables and the opening roll: ``KeepsMatchFacts``) ---------

    def _paired(self, table: PairedTable, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO h2h_matches (match_id, player_a, player_b, tournament, rated, length) "
            "VALUES (?, ?, ?, 1, 1, ?) ON CONFLICT (match_id) DO UPDATE SET "
            "player_a = excluded.player_a, player_b = excluded.player_b, tournament = 1",
            [str(table.match_id), str(table.player_a), str(table.player_b), table.match_length],
        )

    def match_started(self, event: MatchStarted, db: sqlite_utils.Database) -> None:
        persons = event.pairing or event.seated
        if persons is None:
            return  # free names of a friendly or a money session: nobody's record
        db.execute(
            "INSERT OR IGNORE INTO h2h_matches (match_id, player_a, player_b, tournament, "
            "rated, length) VALUES (?, ?, ?, ?, ?, ?)",
            [
                str(event.originator_id),
                str(persons.player_a_id),
                str(persons.player_b_id),
                int(event.pairing is not None),
                int(event.rated),
                event.match_length,
            ],
        )

    # Meetings ------------------------------------------------------------------------------

    def match_won(self, event: MatchWon, db: sqlite_utils.Database) -> None:
        """An ad hoc match counts as the rating counts it (rule R-RATE-5); a tournament's
        match counts by its tournament result, below."""
        match_id = str(event.originator_id)
        match = self._match_facts(db, match_id)
        if match is None or not match.rated or _of_tournament(db, match_id):
            return
        if not match.begun or match.length < 1:
            return
        a_won = event.winner == "a"
        _meet(
            db,
            self.notification_id,
            event.timestamp,
            match_id,
            winner=(match.player_a, event.score_a) if a_won else (match.player_b, event.score_b),
            loser=(match.player_b, event.score_b) if a_won else (match.player_a, event.score_a),
        )

    def result_recorded(self, event: ResultRecorded, db: sqlite_utils.Database) -> None:
        """rules T-FMT-6, T-FMT-7: the latest result of a match counts, a correction replacing
        the one it corrects; an unplayed forfeit is no meeting."""
        match_id = str(event.match_id)
        match = self._match_facts(db, match_id)
        if match is None:
            return
        winner = str(event.winner)
        if winner not in (match.player_a, match.player_b) or not event.played:
            db.execute("UPDATE h2h_meetings SET counted = 0 WHERE match_id = ?", [match_id])
            return
        a_won = winner == match.player_a
        _meet(
            db,
            self.notification_id,
            event.timestamp,
            match_id,
            winner=(match.player_a, event.points_a) if a_won else (match.player_b, event.points_b),
            loser=(match.player_b, event.points_b) if a_won else (match.player_a, event.points_a),
        )

    def match_voided(self, event: MatchVoided, db: sqlite_utils.Database) -> None:
        db.execute(
            "UPDATE h2h_meetings SET counted = 0 WHERE match_id = ?", [str(event.originator_id)]
        )


def _of_tournament(db: sqlite_utils.Database, match_id: str) -> bool:
    """Whether a tournament paired the match (its tournament result counts, not its end)."""
    row = db.execute("SELECT tournament FROM h2h_matches WHERE match_id = ?", [match_id]).fetchone()
    return row is not None and bool(row[0])


def _meet(
    db: sqlite_utils.Database,
    seq: int,
    when: datetime,
    match_id: str,
    *,
    winner: tuple[str, int],
    loser: tuple[str, int],
) -> None:
    """The match's meeting with these figures; a meeting already held keeps its day."""
    db.execute(
        "INSERT INTO h2h_meetings (match_id, seq, date, winner, loser, winner_points, "
        "loser_points, counted) VALUES (?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (match_id) DO "
        "UPDATE SET winner = excluded.winner, loser = excluded.loser, "
        "winner_points = excluded.winner_points, loser_points = excluded.loser_points, "
        "counted = 1",
        [match_id, seq, when.date().isoformat(), winner[0], loser[0], winner[1], loser[1]],
    )


# Queries -------------------------------------------------------------------------------------


def head_to_head(db: sqlite_utils.Database, player_id: str) -> PlayerHeadToHead | None:
    """The player's record against each opponent: most meetings first, then the latest met,
    then by name (None: nobody registered, waitlisted or rated has this id)."""
    name = db.execute(
        "SELECT display_name FROM h2h_people WHERE player_id = ?", [player_id]
    ).fetchone()
    if name is None:
        return None
    rows = db.execute(
        "WITH mine AS ("
        "SELECT loser AS opponent, 1 AS won, winner_points AS pf, loser_points AS pa, seq, date "
        "FROM h2h_meetings WHERE counted = 1 AND winner = :player "
        "UNION ALL "
        "SELECT winner, 0, loser_points, winner_points, seq, date "
        "FROM h2h_meetings WHERE counted = 1 AND loser = :player) "
        "SELECT m.opponent, COALESCE(p.display_name, ''), COUNT(*), SUM(m.won), "
        "SUM(1 - m.won), SUM(m.pf), SUM(m.pa), MAX(m.date), MAX(m.seq) AS latest "
        "FROM mine m LEFT JOIN h2h_people p ON p.player_id = m.opponent "
        "GROUP BY m.opponent ORDER BY COUNT(*) DESC, latest DESC, 2, m.opponent",
        {"player": player_id},
    ).fetchall()
    opponents = [
        HeadToHeadRow(
            opponent_id=UUID(opponent),
            opponent=name,
            matches=matches,
            wins=wins,
            losses=losses,
            points_for=points_for,
            points_against=points_against,
            last_played=last,
        )
        for opponent, name, matches, wins, losses, points_for, points_against, last, _ in rows
    ]
    return PlayerHeadToHead(player_id=UUID(player_id), display_name=name[0], opponents=opponents)
