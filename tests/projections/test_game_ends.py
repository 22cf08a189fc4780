"""The deadlines view marks a game as ended when it is won and when it is drawn (rule
C-VIDEO-1: the game's recordings become due for deletion when it ends)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import sqlite_utils

from domain.match import GameDrawn
from projections.deadlines import DeadlinesProjection

MATCH = UUID(int=5)


def test_a_drawn_plakoto_game_ends_its_game_as_a_won_one_does() -> None:
    # rule V-PLAKOTO-8 (a draw ends the game), C-VIDEO-1
    db = sqlite_utils.Database(memory=True)
    projection = DeadlinesProjection()
    projection.create_tables(db)
    drawn = GameDrawn(
        originator_id=MATCH,
        originator_version=40,
        timestamp=datetime(2026, 5, 1, 12, 0, tzinfo=UTC),
        game=2,
        score_a=1,
        score_b=0,
    )

    projection.handle(drawn, db)

    rows = db.execute("SELECT match_id, game FROM game_ends").fetchall()
    assert rows == [(str(MATCH), 2)]
