"""How a variant game's events change a match (rules V-*): a new game's board, its plays and
its draw; and ``game_over``, the end of any game, won or drawn."""

from __future__ import annotations

from msgspec.structs import replace

from domain.backgammon.position import Side as Checkers
from domain.match.events import GameDrawn, MatchVariant, VariantCheckersPlayed
from domain.match.side_changes import turn_over
from domain.match.state import FinishedGame, Match
from domain.variants import Variant, VariantBoard


def set_up(state: Match) -> Match:
    """rule V-START-1: a new game's board."""
    variant = state.game_variant
    if variant is None:
        return state
    board = VariantBoard.starting(variant)
    return replace(
        state, variant_a=board.on_roll, variant_b=board.opponent, pinned_a=(), pinned_b=()
    )


def apply_play(state: Match, event: VariantCheckersPlayed) -> Match:
    """The board the event recorded (the opponent on roll); Portes and Tavla keep the
    backgammon sides too, so that their Position ID is shown."""
    mover, opponent = event.opponent, event.on_roll
    pins_mover, pins_opponent = event.pinned_opponent, event.pinned_on_roll
    if event.side == "a":
        a, b, pins_a, pins_b = mover, opponent, pins_mover, pins_opponent
    else:
        a, b, pins_a, pins_b = opponent, mover, pins_opponent, pins_mover
    state = turn_over(state, event.side, variant_a=a, variant_b=b, pinned_a=pins_a, pinned_b=pins_b)
    if state.game_variant in (Variant.PORTES, Variant.TAVLA):
        state = replace(state, board_a=core_side(a), board_b=core_side(b))
    return state


def core_side(side: tuple[int, ...]) -> Checkers:
    """Portes and Tavla in the core's numbering: index i < 24 is point i + 1, 24 the bar."""
    return (*side[1:], side[0])


def apply_draw(state: Match, event: GameDrawn) -> Match:
    """rule V-PLAKOTO-8: nothing scored; the next game's opening is due."""
    finished = FinishedGame(
        game=event.game, variant=_name(state), winner=None, result=None, points=0
    )
    return game_over(state, finished)


def game_over(state: Match, finished: FinishedGame, **changes: object) -> Match:
    """A game ended, won or drawn: it joins ``games`` and the next game's opening is due, with
    nothing of the last one pending (dice, a cube offer, a resignation); ``changes`` say what
    else the game left (the scores)."""
    return replace(
        state,
        phase="opening",
        games=(*state.games, finished),
        dice=None,
        latest_roll=None,
        offered_value=None,
        resigner=None,
        resignation=None,
        resumed_phase=None,
        **changes,
    )


def _name(state: Match) -> MatchVariant:
    variant = state.game_variant
    return variant.value if variant is not None else "backgammon"


def finished_game_variant(state: Match) -> MatchVariant:
    """The name ``games`` gives the game just ended."""
    return _name(state)
