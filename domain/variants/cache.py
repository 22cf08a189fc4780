"""Remembered legal plays of the variants, as ``domain/backgammon/cache.py`` does for
backgammon: a pure function of immutable values, so the cache changes only how fast an answer
comes, never the answer."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from domain.backgammon.cache import sorted_roll
from domain.backgammon.plays import Dice
from domain.variants.board import VariantBoard
from domain.variants.plays import VariantPlay, variant_legal_plays


def cached_variant_legal_plays(board: VariantBoard, dice: Iterable[int]) -> tuple[VariantPlay, ...]:
    """``variant_legal_plays``, remembered per board and roll (2-6 and 6-2 are one entry)."""
    return _legal_plays(board, sorted_roll(dice))


@lru_cache(maxsize=1024)
def _legal_plays(board: VariantBoard, dice: Dice) -> tuple[VariantPlay, ...]:
    return variant_legal_plays(board, dice)
