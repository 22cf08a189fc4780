"""Remembered results of the rules core, for the hot path of match play.

Each function here is a pure function of immutable values, remembered with ``lru_cache``:
the cache changes how fast an answer comes, never the answer, whatever thread asks first.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from domain.backgammon.notation import format_play
from domain.backgammon.plays import (
    TOURNAMENT_RULES,
    Dice,
    Move,
    Play,
    RulesOptions,
    legal_plays,
    validate_dice,
)
from domain.backgammon.position import Position


@lru_cache(maxsize=4096)
def position_from_id(position_id: str) -> Position:
    """``Position.from_position_id``, remembered: replaying a match decodes each position
    the command that recorded it has just shown."""
    return Position.from_position_id(position_id)


def cached_legal_plays(
    position: Position, dice: Iterable[int], options: RulesOptions = TOURNAMENT_RULES
) -> tuple[Play, ...]:
    """``legal_plays``, remembered per position, roll and rules: 2-6 and 6-2 are one entry,
    since the order of the dice does not change the plays."""
    return _legal_plays(position, sorted_roll(dice), options)


def cached_legal_notations(
    position: Position, dice: Iterable[int], options: RulesOptions = TOURNAMENT_RULES
) -> tuple[str, ...]:
    """The gnubg notation of each of ``cached_legal_plays``, in the same order: a roll's answer
    shows them all, and the play that follows names one of them."""
    return _legal_notations(position, sorted_roll(dice), options)


def sorted_roll(dice: Iterable[int]) -> Dice:
    """Two valid dice, the higher first: the key of a roll in every cache."""
    die_1, die_2 = validate_dice(dice)
    return (die_1, die_2) if die_1 >= die_2 else (die_2, die_1)


@lru_cache(maxsize=1024)
def _legal_plays(position: Position, dice: Dice, options: RulesOptions) -> tuple[Play, ...]:
    return legal_plays(position, dice, options)


@lru_cache(maxsize=1024)
def _legal_notations(position: Position, dice: Dice, options: RulesOptions) -> tuple[str, ...]:
    return tuple(_format_moves(play.moves) for play in _legal_plays(position, dice, options))


def cached_format_play(play: Play) -> str:
    """gnubg notation of a play; it depends only on the moves, which recur across positions."""
    return _format_moves(play.moves)


@lru_cache(maxsize=8192)
def _format_moves(moves: tuple[Move, ...]) -> str:
    return format_play(moves)
