"""The remembered rules core gives the same answers as the rules core, once per question."""

from __future__ import annotations

from domain.backgammon import TOURNAMENT_RULES, Position, legal_plays
from domain.backgammon.cache import (
    _legal_plays,
    cached_format_play,
    cached_legal_plays,
    position_from_id,
)
from domain.backgammon.notation import format_play

# Side on roll has a checker on the bar (rule G-BAR-1); the rest is the opening setup.
ON_BAR = Position(
    (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0),
)


def test_a_roll_in_either_order_is_generated_once_and_gives_the_plays_of_the_rules_core() -> None:
    _legal_plays.cache_clear()

    high_first = cached_legal_plays(ON_BAR, (6, 2), TOURNAMENT_RULES)
    low_first = cached_legal_plays(ON_BAR, (2, 6), TOURNAMENT_RULES)

    assert high_first == low_first == legal_plays(ON_BAR, (2, 6))
    assert (_legal_plays.cache_info().misses, _legal_plays.cache_info().hits) == (1, 1)


def test_a_remembered_position_equals_a_fresh_decode() -> None:
    position_id = ON_BAR.position_id

    assert position_from_id(position_id) == Position.from_position_id(position_id) == ON_BAR
    assert position_from_id(position_id) is position_from_id(position_id)


def test_remembered_notation_is_the_notation_of_the_moves() -> None:
    for play in cached_legal_plays(Position.starting(), (6, 5)):
        assert cached_format_play(play) == format_play(play)
