"""The club's rating list (rules R-RATE-1..7): every rated match in the order the log ended it,
the FIBS formula applied to them in that order, and each player's history with the numbers
that went into every line.

Handlers only write down which matches are rated, in which place and under which settings
(``rating_matches``); ``end_batch`` then recomputes the list from the earliest place a batch
changed: a match rated at the end of the log recomputes itself, a correction of an early result
(rule T-FMT-6) recomputes everything after it. Ratings are unrounded floats (rule R-RATE-2).

A rated match's ``date`` is held as the instant it ended (UTC) and shown as the club's day by the
query, which is given the club's zone: a match ended at 00:30 in Berlin is that day's, not the
day before's (the projection knows no zone of its own). An import's row keeps its own day.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Literal
from uuid import UUID

import msgspec
import sqlite_utils

from domain.match import MatchStarted, MatchWon
from domain.ratings.club import (
    PlayerDirectory,
    RatingSettingsChanged,
    ResultsImported,
)
from domain.ratings.formula import START_RATING, Standing, after, rate
from domain.tournament import (
    PairedTable,
    ResultRecorded,
)
from projections.match_facts import KeepsMatchFacts, MatchFacts
from projections.names import KeepsClubNames

Source = Literal["match", "tournament", "import"]


class RatingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the list; ``rating`` and ``last_change`` unrounded (clients round)."""

    rank: int
    player_id: UUID
    display_name: str
    rating: float
    experience: int
    last_change: float
    matches: int


class RatingLine(msgspec.Struct, frozen=True, kw_only=True):
    """One rated match of a player, with every number that went into it (rule R-RATE-1)."""

    seq: int
    date: str
    source: Source
    match_id: UUID | None
    import_id: UUID | None
    opponent_id: UUID
    opponent: str
    length: int
    won: bool
    rating_before: float
    opponent_rating_before: float
    p: float
    """The probability, by the ratings before the match, that the loser would have won."""
    k: float
    """This player's boost factor (1 without the newcomer boost, rule R-RATE-3)."""
    change: float
    rating_after: float
    experience_after: int


class PlayerRatings(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating and history, oldest first."""

    player_id: UUID
    display_name: str
    rating: float
    experience: int
    matches: list[RatingLine]


_HISTORY_COLUMNS = (
    "player_id, seq, sub, date, source, match_id, import_id, opponent_id, length, won, "
    "rating_before, opponent_rating_before, p, k, change, rating_after, experience_after"
)


class RatingsProjection(KeepsClubNames, KeepsMatchFacts):
    """The list, each player's history and the facts a rated match needs (players, length)."""

    name = "ratings"
    names_table = "rating_people"
    matches_table = "rating_facts"
    tables = (
        "rating_people",
        "rating_settings",
        "rating_facts",
        "rating_results",
        "rating_matches",
        "rating_history",
        "rating_list",
        "rating_dirty",
    )
    version = 2  # 2: a rated match's date held as its instant, shown in the club's zone
    wants_notification_id = True

    def create_tables(self, db: sqlite_utils.Database) -> None:
        self._create_names_table(db)
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_settings (id INTEGER PRIMARY KEY CHECK (id = 1), "
            "start_rating REAL NOT NULL, newcomer_boost INTEGER NOT NULL)"
        )
        db.execute(
            "INSERT OR IGNORE INTO rating_settings (id, start_rating, newcomer_boost) "
            "VALUES (1, ?, 0)",
            [START_RATING],
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_facts (match_id TEXT PRIMARY KEY, "
            "player_a TEXT, player_b TEXT, length INTEGER NOT NULL, rated INTEGER NOT NULL, "
            "begun INTEGER NOT NULL DEFAULT 0)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_results (result_id TEXT PRIMARY KEY, "
            "match_id TEXT NOT NULL, seq INTEGER NOT NULL)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_matches (key TEXT PRIMARY KEY, "
            "seq INTEGER NOT NULL, sub INTEGER NOT NULL, date TEXT NOT NULL, "
            "source TEXT NOT NULL, match_id TEXT, import_id TEXT, winner_id TEXT NOT NULL, "
            "loser_id TEXT NOT NULL, length INTEGER NOT NULL, start_rating REAL NOT NULL, "
            "newcomer_boost INTEGER NOT NULL, counted INTEGER NOT NULL)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS rating_matches_order ON rating_matches (seq, sub)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_history (player_id TEXT NOT NULL, "
            "seq INTEGER NOT NULL, sub INTEGER NOT NULL, date TEXT NOT NULL, "
            "source TEXT NOT NULL, match_id TEXT, import_id TEXT, opponent_id TEXT NOT NULL, "
            "length INTEGER NOT NULL, won INTEGER NOT NULL, rating_before REAL NOT NULL, "
            "opponent_rating_before REAL NOT NULL, p REAL NOT NULL, k REAL NOT NULL, "
            "change REAL NOT NULL, rating_after REAL NOT NULL, "
            "experience_after INTEGER NOT NULL, PRIMARY KEY (player_id, seq, sub))"
        )
        db.execute("CREATE INDEX IF NOT EXISTS rating_history_order ON rating_history (seq, sub)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_list (player_id TEXT PRIMARY KEY, "
            "rating REAL NOT NULL, experience INTEGER NOT NULL, last_change REAL NOT NULL, "
            "matches INTEGER NOT NULL)"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS rating_dirty (id INTEGER PRIMARY KEY CHECK (id = 1), "
            "seq INTEGER NOT NULL, sub INTEGER NOT NULL)"
        )

    # Settings (rule R-RATE-3) -----------------------------------------------------------------

    def rating_settings_changed(
        self, event: RatingSettingsChanged, db: sqlite_utils.Database
    ) -> None:
        db.execute(
            "UPDATE rating_settings SET start_rating = ?, newcomer_boost = ? WHERE id = 1",
            [event.start_rating, int(event.newcomer_boost)],
        )

    # What a rated match needs: its players and length ---------------------------------------

    def match_started(self, event: MatchStarted, db: sqlite_utils.Database) -> None:
        persons = event.pairing or event.seated
        db.execute(
            "INSERT OR REPLACE INTO rating_facts (match_id, player_a, player_b, length, rated) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                str(event.originator_id),
                str(persons.player_a_id) if persons else None,
                str(persons.player_b_id) if persons else None,
                event.match_length,
                int(event.rated and persons is not None),
            ],
        )

    def _paired(self, table: PairedTable, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT INTO rating_facts (match_id, player_a, player_b, length, rated, begun) "
            "VALUES (?, ?, ?, ?, 1, 0) ON CONFLICT (match_id) DO UPDATE SET "
            "player_a = excluded.player_a, player_b = excluded.player_b, "
            "length = MAX(rating_facts.length, excluded.length)",
            [str(table.match_id), str(table.player_a), str(table.player_b), table.match_length],
        )

    # Rated matches (rules R-RATE-4, R-RATE-5) -------------------------------------------------

    def match_won(self, event: MatchWon, db: sqlite_utils.Database) -> None:
        if event.reason == "reported":
            return  # rated at the tournament's result (source "tournament")
        facts = self._match_facts(db, str(event.originator_id))
        if facts is None or not facts.rated or not facts.begun or facts.length < 1:
            return
        sides = (
            (facts.player_a, facts.player_b, facts.length)
            if event.winner == "a"
            else (facts.player_b, facts.player_a, facts.length)
        )
        self._rated(db, str(event.originator_id), event.timestamp, "match", sides)

    def result_recorded(self, event: ResultRecorded, db: sqlite_utils.Database) -> None:
        match_id = str(event.match_id)
        if event.corrects is not None:
            self._corrected(event, db)
            return
        db.execute(
            "INSERT OR IGNORE INTO rating_results (result_id, match_id, seq) VALUES (?, ?, ?)",
            [str(event.result_id), match_id, self.notification_id],
        )
        if event.source == "match" or not event.played:
            return  # rated at the match's own end, or unplayed (rule R-RATE-5)
        sides = _sides(self._match_facts(db, match_id), event.winner)
        if sides is None:
            return
        self._rated(db, match_id, event.timestamp, "tournament", sides)

    def _corrected(self, event: ResultRecorded, db: sqlite_utils.Database) -> None:
        """rule R-RATE-4: the correction takes or leaves the original's place."""
        original = db.execute(
            "SELECT match_id, seq FROM rating_results WHERE result_id = ?", [str(event.corrects)]
        ).fetchone()
        if original is None:
            return
        match_id, seq = original
        db.execute(
            "INSERT OR REPLACE INTO rating_results (result_id, match_id, seq) VALUES (?, ?, ?)",
            [str(event.result_id), match_id, seq],
        )
        sides = _sides(self._match_facts(db, match_id), event.winner)
        held = db.execute(
            "SELECT seq, sub FROM rating_matches WHERE key = ?", [match_id]
        ).fetchone()
        if held is not None:
            counted = int(event.played and sides is not None)
            if sides is not None:
                db.execute(
                    "UPDATE rating_matches SET winner_id = ?, loser_id = ?, counted = ? "
                    "WHERE key = ?",
                    [sides[0], sides[1], counted, match_id],
                )
            else:
                db.execute("UPDATE rating_matches SET counted = 0 WHERE key = ?", [match_id])
            _dirty(db, held[0], held[1])
        elif event.played and sides is not None:
            self._rated(db, match_id, event.timestamp, "tournament", sides, seq=seq)

    def results_imported(self, event: ResultsImported, db: sqlite_utils.Database) -> None:
        start_rating, boost = _settings(db)
        import_id = str(event.import_id)
        db.conn.executemany(
            "INSERT INTO rating_matches (key, seq, sub, date, source, match_id, import_id, "
            "winner_id, loser_id, length, start_rating, newcomer_boost, counted) "
            "VALUES (?, ?, ?, ?, 'import', NULL, ?, ?, ?, ?, ?, ?, 1)",
            [
                (
                    f"{import_id}:{index}",
                    self.notification_id,
                    index,
                    row.date,
                    import_id,
                    str(row.winner_id),
                    str(row.loser_id),
                    row.length,
                    start_rating,
                    boost,
                )
                for index, row in enumerate(event.matches)
            ],
        )
        _dirty(db, self.notification_id, 0)

    def _rated(
        self,
        db: sqlite_utils.Database,
        match_id: str,
        when: datetime,
        source: Source,
        sides: tuple[str, str, int],
        *,
        seq: int | None = None,
    ) -> None:
        """A match enters the list at its place, under the settings in force (R-RATE-3);
        a match is rated once (its first rated end wins). ``sides``: winner, loser, length."""
        winner, loser, length = sides
        start_rating, boost = _settings(db)
        place = self.notification_id if seq is None else seq
        inserted = db.execute(
            "INSERT OR IGNORE INTO rating_matches (key, seq, sub, date, source, match_id, "
            "import_id, winner_id, loser_id, length, start_rating, newcomer_boost, counted) "
            "VALUES (?, ?, 0, ?, ?, ?, NULL, ?, ?, ?, ?, ?, 1)",
            [
                match_id,
                place,
                when.astimezone(UTC).isoformat(),
                source,
                match_id,
                winner,
                loser,
                length,
                start_rating,
                boost,
            ],
        ).rowcount
        if inserted:
            _dirty(db, place, 0)

    def end_batch(self, db: sqlite_utils.Database) -> None:
        """Recompute from the earliest place the batch changed (idempotent: it starts from
        the history rows before that place, which no recomputation touches)."""
        dirty = db.execute("SELECT seq, sub FROM rating_dirty WHERE id = 1").fetchone()
        if dirty is None:
            return
        seq, sub = dirty
        recompute(db, seq, sub)
        db.execute("DELETE FROM rating_dirty")


def _sides(facts: MatchFacts | None, winner: UUID) -> tuple[str, str, int] | None:
    """Winner, loser and length of a tournament's match, if it is one that can be rated."""
    if facts is None or not facts.rated or facts.length < 1:
        return None
    if str(winner) == facts.player_a:
        return facts.player_a, facts.player_b, facts.length
    if str(winner) == facts.player_b:
        return facts.player_b, facts.player_a, facts.length
    return None


def _settings(db: sqlite_utils.Database) -> tuple[float, int]:
    row = db.execute(
        "SELECT start_rating, newcomer_boost FROM rating_settings WHERE id = 1"
    ).fetchone()
    return float(row[0]), int(row[1])


def _dirty(db: sqlite_utils.Database, seq: int, sub: int) -> None:
    db.execute(
        "INSERT INTO rating_dirty (id, seq, sub) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE "
        "SET seq = excluded.seq, sub = excluded.sub "
        "WHERE (excluded.seq, excluded.sub) < (rating_dirty.seq, rating_dirty.sub)",
        [seq, sub],
    )


def recompute(db: sqlite_utils.Database, seq: int, sub: int) -> None:
    """Rate every counted match from place ``(seq, sub)`` on, starting from each player's last
    history line before it (rules R-RATE-2..4), and rewrite the list."""
    standings: dict[str, Standing] = {
        player_id: Standing(rating=rating, experience=experience)
        for player_id, rating, experience in db.execute(
            "SELECT player_id, rating_after, experience_after FROM (SELECT player_id, "
            "rating_after, experience_after, ROW_NUMBER() OVER (PARTITION BY player_id "
            "ORDER BY seq DESC, sub DESC) AS latest FROM rating_history "
            "WHERE (seq, sub) < (?, ?)) WHERE latest = 1",
            [seq, sub],
        ).fetchall()
    }
    db.execute("DELETE FROM rating_history WHERE (seq, sub) >= (?, ?)", [seq, sub])
    rows = db.execute(
        "SELECT seq, sub, date, source, match_id, import_id, winner_id, loser_id, length, "
        "start_rating, newcomer_boost FROM rating_matches "
        "WHERE counted = 1 AND (seq, sub) >= (?, ?) ORDER BY seq, sub",
        [seq, sub],
    ).fetchall()
    lines = []
    for at, part, day, source, match_id, import_id, winner, loser, length, start, boost in rows:
        before_w = standings.get(winner) or Standing(rating=start, experience=0)
        before_l = standings.get(loser) or Standing(rating=start, experience=0)
        rated = rate(before_w, before_l, length, newcomer_boost=bool(boost))
        after_w = standings[winner] = after(before_w, rated.winner_change, length)
        after_l = standings[loser] = after(before_l, rated.loser_change, length)
        common = (at, part, day, source, match_id, import_id)
        lines.append(
            (winner, *common, loser, length, 1, before_w.rating, before_l.rating, rated.p,
             rated.k_winner, rated.winner_change, after_w.rating, after_w.experience)
        )  # fmt: skip
        lines.append(
            (loser, *common, winner, length, 0, before_l.rating, before_w.rating, rated.p,
             rated.k_loser, rated.loser_change, after_l.rating, after_l.experience)
        )  # fmt: skip
    db.conn.executemany(
        f"INSERT INTO rating_history ({_HISTORY_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        lines,
    )
    db.execute("DELETE FROM rating_list")
    db.execute(
        "INSERT INTO rating_list (player_id, rating, experience, last_change, matches) "
        "SELECT player_id, rating_after, experience_after, change, matches FROM ("
        "SELECT player_id, rating_after, experience_after, change, "
        "COUNT(*) OVER (PARTITION BY player_id) AS matches, ROW_NUMBER() OVER "
        "(PARTITION BY player_id ORDER BY seq DESC, sub DESC) AS latest FROM rating_history) "
        "WHERE latest = 1"
    )


# Queries -------------------------------------------------------------------------------------


def list_ratings(db: sqlite_utils.Database) -> list[RatingRow]:
    """rule R-RATE-1: the list, highest rating first; equal ratings share a rank."""
    rows = db.execute(
        "SELECT l.player_id, COALESCE(p.display_name, ''), l.rating, l.experience, "
        "l.last_change, l.matches FROM rating_list l LEFT JOIN rating_people p "
        "USING (player_id) ORDER BY l.rating DESC, p.display_name, l.player_id"
    ).fetchall()
    ranked: list[RatingRow] = []
    for index, (player_id, name, rating, experience, last_change, matches) in enumerate(rows):
        rank = ranked[-1].rank if ranked and ranked[-1].rating == rating else index + 1
        ranked.append(
            RatingRow(
                rank=rank,
                player_id=UUID(player_id),
                display_name=name,
                rating=rating,
                experience=experience,
                last_change=last_change,
                matches=matches,
            )
        )
    return ranked


def player_ratings(db: sqlite_utils.Database, player_id: str, zone: tzinfo) -> PlayerRatings | None:
    """A player's rating and every rated match of theirs, oldest first (None: no rated match);
    a match's date is the day in ``zone`` (the club's) it ended on."""
    head = db.execute(
        "SELECT l.rating, l.experience, COALESCE(p.display_name, '') FROM rating_list l "
        "LEFT JOIN rating_people p USING (player_id) WHERE l.player_id = ?",
        [player_id],
    ).fetchone()
    if head is None:
        return None
    rows = db.execute(
        "SELECT h.date, h.source, h.match_id, h.import_id, h.opponent_id, "
        "COALESCE(p.display_name, ''), h.length, h.won, h.rating_before, "
        "h.opponent_rating_before, h.p, h.k, h.change, h.rating_after, h.experience_after "
        "FROM rating_history h LEFT JOIN rating_people p ON p.player_id = h.opponent_id "
        "WHERE h.player_id = ? ORDER BY h.seq, h.sub",
        [player_id],
    ).fetchall()
    lines = [
        RatingLine(
            seq=index,
            date=_local_day(day, zone),
            source=source,
            match_id=UUID(match_id) if match_id else None,
            import_id=UUID(import_id) if import_id else None,
            opponent_id=UUID(opponent_id),
            opponent=opponent,
            length=length,
            won=bool(won),
            rating_before=rating_before,
            opponent_rating_before=opponent_before,
            p=p,
            k=k,
            change=change,
            rating_after=rating_after,
            experience_after=experience_after,
        )
        for index, (
            day,
            source,
            match_id,
            import_id,
            opponent_id,
            opponent,
            length,
            won,
            rating_before,
            opponent_before,
            p,
            k,
            change,
            rating_after,
            experience_after,
        ) in enumerate(rows, start=1)
    ]
    return PlayerRatings(
        player_id=UUID(player_id),
        display_name=head[2],
        rating=head[0],
        experience=head[1],
        matches=lines,
    )


def _local_day(held: str, zone: tzinfo) -> str:
    """An import's ``YYYY-MM-DD`` as it is; a match's instant as the day in ``zone``."""
    if len(held) == len("YYYY-MM-DD"):
        return held
    return datetime.fromisoformat(held).astimezone(zone).date().isoformat()


def directory(db: sqlite_utils.Database) -> PlayerDirectory:
    """Every player a name can name (rule R-RATE-7): registered or rating-only."""
    rows = db.execute("SELECT player_id, display_name FROM rating_people").fetchall()
    return PlayerDirectory(names={UUID(player_id): name for player_id, name in rows})
