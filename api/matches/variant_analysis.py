"""Stateless analysis of a variant board (API.md "Analysis (stateless): variants"): the body's
board as the domain's ``VariantBoard``, and its legal plays as the API shows them."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Annotated, Literal

import msgspec

from domain.backgammon.cache import sorted_roll
from domain.backgammon.plays import Dice
from domain.errors import InvalidInputError
from domain.variants import (
    InvalidVariantBoardError,
    Variant,
    VariantBoard,
    VariantPlay,
    cached_variant_legal_plays,
)

VariantName = Literal["portes", "plakoto", "fevga", "tavla", "nardi"]
"""rule V-MATCH-VARIANT-1's boards: ``backgammon`` takes a ``position_id``; ``tavli`` is a
cycle of three variants, a match format and not a board."""
CheckerCount = Annotated[int, msgspec.Meta(ge=0)]
SideCounts = Annotated[
    list[CheckerCount],
    msgspec.Meta(
        min_length=25,
        max_length=25,
        description="index 0 the bar (portes, tavla), index p the side's own point p (V-BOARD-1)",
    ),
]
PointNumber = Annotated[int, msgspec.Meta(ge=1, le=24)]


class PinnedPoints(msgspec.Struct, forbid_unknown_fields=True):
    """Plakoto: each side's points, in its own numbering, where its checker is pinned."""

    on_roll: list[PointNumber] = msgspec.field(default_factory=list)
    opponent: list[PointNumber] = msgspec.field(default_factory=list)


class VariantBoardBody(msgspec.Struct, forbid_unknown_fields=True):
    """Each side from its own point of view (rules V-BOARD-1, V-BOARD-2)."""

    on_roll: SideCounts
    opponent: SideCounts
    pinned: PinnedPoints | None = None


class PinnedView(msgspec.Struct, frozen=True):
    on_roll: list[int]
    opponent: list[int]


class VariantBoardView(msgspec.Struct, frozen=True, omit_defaults=True):
    """The board after a play, the opponent on roll; ``pinned`` in plakoto only."""

    on_roll: list[int]
    opponent: list[int]
    pinned: PinnedView | None = None


class VariantLegalPlay(msgspec.Struct, frozen=True):
    play: str
    """The single-die steps in the mover's numbering, in an order they can be played."""
    board: VariantBoardView
    game_result: Literal["single", "gammon", "mother", "draw"] | None
    points: int | None
    """The game's value before any cube (V-WIN-1, V-PLAKOTO-7, V-PLAKOTO-8), or null."""


class VariantLegalPlays(msgspec.Struct):
    plays: list[VariantLegalPlay]


def variant_board(variant: VariantName, body: VariantBoardBody | None) -> VariantBoard:
    """The body's board, checked as API.md says (422 naming the field when it is not one)."""
    if body is None:
        raise InvalidInputError("board", f"a {variant} request needs its board")
    pinned = body.pinned
    if pinned is not None and variant != "plakoto":
        raise InvalidInputError("board.pinned", f"only plakoto pins checkers, not {variant}")
    pinned_on_roll = tuple(pinned.on_roll) if pinned else ()
    pinned_opponent = tuple(pinned.opponent) if pinned else ()
    try:
        return VariantBoard(
            Variant(variant),
            tuple(body.on_roll),
            tuple(body.opponent),
            tuple(sorted(pinned_on_roll)),
            tuple(sorted(pinned_opponent)),
        )
    except InvalidVariantBoardError as error:
        raise InvalidInputError(error.field, str(error)) from None


def variant_legal_play_items(
    board: VariantBoard, dice: Iterable[int]
) -> tuple[VariantLegalPlay, ...]:
    """The items of the variant's legal plays as the API shows them, remembered per board
    and roll (in either order)."""
    return _items(board, sorted_roll(dice))


@lru_cache(maxsize=1024)
def _items(board: VariantBoard, roll: Dice) -> tuple[VariantLegalPlay, ...]:
    return tuple(_item(play) for play in cached_variant_legal_plays(board, roll))


def board_view(board: VariantBoard) -> VariantBoardView:
    """The board in the analysis encoding; ``pinned`` in plakoto only."""
    pinned = (
        PinnedView(list(board.pinned_on_roll), list(board.pinned_opponent))
        if board.variant is Variant.PLAKOTO
        else None
    )
    return VariantBoardView(list(board.on_roll), list(board.opponent), pinned)


def _item(play: VariantPlay) -> VariantLegalPlay:
    result = play.game_result
    return VariantLegalPlay(
        play=play.notation,
        board=board_view(play.board),
        game_result=result.value if result else None,
        points=result.points if result else None,
    )
