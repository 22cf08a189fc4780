"""The rules core: pure, immutable backgammon positions, plays, notation and gnubg formats."""

from domain.backgammon.plays import (
    APP_RULES,
    BAR_POINT,
    OFF,
    TOURNAMENT_RULES,
    GameResult,
    IllegalPlayError,
    InvalidDiceError,
    Move,
    Play,
    RulesOptions,
    apply_play,
    game_result,
    legal_plays,
    validate_dice,
)
from domain.backgammon.position import InvalidPositionError, Position, pip_count

__all__ = [
    "APP_RULES",
    "BAR_POINT",
    "OFF",
    "TOURNAMENT_RULES",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPositionError",
    "Move",
    "Play",
    "Position",
    "RulesOptions",
    "apply_play",
    "game_result",
    "legal_plays",
    "pip_count",
    "validate_dice",
]
