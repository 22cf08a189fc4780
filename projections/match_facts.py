"""Who plays a tournament's match and whether it has begun: facts that several views keep
beside their own (the rating list and the head-to-head records, rule R-RATE-5), each in its own
table, followed one way so that they cannot disagree.

A round's pairing (or its repair) names each table's players and length; a bye is no match
between two players and is left out (rules R-BYE-1, R-RATE-5). The opening roll that casts a
die begins the match.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import msgspec
import sqlite_utils

from domain.match import OpeningRollMade
from domain.tournament import PairedTable, RoundPaired, RoundRepaired
from projections.runner import Projection


class MatchFacts(msgspec.Struct, frozen=True):
    """A match between two persons as a view keeps it: their ids, its length, whether it is
    rated and whether it has begun."""

    player_a: str
    player_b: str
    length: int
    rated: bool
    begun: bool


class KeepsMatchFacts(Projection):
    """A view with a table of matches (``match_id``, ``player_a``, ``player_b``, ``length``,
    ``rated``, ``begun`` among other columns): each table a round pairs writes its match's
    players and length there, the way the view says."""

    matches_table: ClassVar[str]
    """The table of matches, keyed by ``match_id``, with a ``begun`` column (0 or 1)."""

    def round_paired(self, event: RoundPaired, db: sqlite_utils.Database) -> None:
        self._tables(event.tables, db)

    def round_repaired(self, event: RoundRepaired, db: sqlite_utils.Database) -> None:
        self._tables(event.tables, db)

    def opening_roll_made(self, event: OpeningRollMade, db: sqlite_utils.Database) -> None:
        if event.starter is not None:  # a die was cast: the match has begun (rule R-RATE-5)
            db.execute(
                f"UPDATE {self.matches_table} SET begun = 1 WHERE match_id = ? AND begun = 0",
                [str(event.originator_id)],
            )

    def _tables(self, tables: Iterable[PairedTable], db: sqlite_utils.Database) -> None:
        for table in tables:
            if table.match_id is not None and table.player_b is not None:  # not a bye
                self._paired(table, db)

    def _paired(self, table: PairedTable, db: sqlite_utils.Database) -> None:
        """Write the players and the length of ``table``'s match (it has both players)."""
        raise NotImplementedError

    def _match_facts(self, db: sqlite_utils.Database, match_id: str) -> MatchFacts | None:
        """The match as the view keeps it; None for one it does not know, or one of free
        names (a friendly or a money session of no persons)."""
        row = db.execute(
            f"SELECT player_a, player_b, length, rated, begun FROM {self.matches_table} "
            "WHERE match_id = ?",
            [match_id],
        ).fetchone()
        if row is None or row[0] is None or row[1] is None:
            return None
        return MatchFacts(row[0], row[1], row[2], bool(row[3]), bool(row[4]))
