"""The regional variants of seed 002 (rules V-*): Portes, Plakoto, Fevga, Tavla and Nardi.

Pure and immutable like the backgammon core: boards seen from each side, legal plays with
their resulting boards and game values, the opening roll.
"""

from domain.variants.board import (
    CHECKERS_PER_SIDE,
    InvalidVariantBoardError,
    Variant,
    VariantBoard,
    other_point,
)
from domain.variants.cache import cached_variant_legal_plays
from domain.variants.opening import Opening, opening
from domain.variants.plays import (
    BAR,
    OFF,
    Step,
    VariantPlay,
    VariantResult,
    format_steps,
    game_is_over,
    variant_legal_plays,
)

__all__ = [
    "BAR",
    "CHECKERS_PER_SIDE",
    "OFF",
    "InvalidVariantBoardError",
    "Opening",
    "Step",
    "Variant",
    "VariantBoard",
    "VariantPlay",
    "VariantResult",
    "cached_variant_legal_plays",
    "format_steps",
    "game_is_over",
    "opening",
    "other_point",
    "variant_legal_plays",
]
