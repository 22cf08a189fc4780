"""Stateless analysis: legal plays of a roll, and a decoded position and match id."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, get, post
from litestar.params import JSONBody, QueryParameter

from api.http.schemas import Die, LegalPlay, PositionId, legal_play, strict_body
from api.matches.variant_analysis import (
    VariantBoardBody,
    VariantLegalPlays,
    VariantName,
    variant_board,
    variant_legal_play_items,
)
from domain.backgammon import APP_RULES, TOURNAMENT_RULES, Position, RulesOptions
from domain.backgammon.cache import (
    cached_legal_notations,
    cached_legal_plays,
    position_from_id,
    sorted_roll,
)
from domain.backgammon.match_id import CubeOwner, MatchState
from domain.backgammon.plays import Dice
from domain.backgammon.position import CHECKERS_PER_SIDE, pip_count
from domain.errors import InvalidInputError
from domain.match import RulesName


class LegalPlaysRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A backgammon ``position_id``, or a ``variant`` and its ``board`` (rules V-*)."""

    dice: Annotated[list[Die], msgspec.Meta(min_length=2, max_length=2)]
    position_id: PositionId | None = None
    rules: RulesName | None = None
    """``app`` adds rule G-OFF-2 (no bear-off pip waste when another order wastes less);
    backgammon only."""
    variant: VariantName | None = None
    board: VariantBoardBody | None = None


class LegalPlays(msgspec.Struct):
    plays: list[LegalPlay]


class Board(msgspec.Struct):
    """One side's checkers: ``points[i]`` is the side's own point i + 1."""

    points: list[int]
    bar: int
    borne_off: int
    pip_count: int


class MatchIdFields(msgspec.Struct):
    match_id: str
    match_length: int
    score: list[int]
    cube_value: int
    cube_owner: int | None
    player_on_roll: int
    turn: int
    crawford: bool
    game_state: str
    double_offered: bool
    resignation: int
    dice: list[int]
    jacoby: bool


class PositionView(msgspec.Struct):
    position_id: str
    on_roll: Board
    opponent: Board
    match: MatchIdFields | None = None


def legal_play_items(
    position: Position, dice: Iterable[int], options: RulesOptions = TOURNAMENT_RULES
) -> tuple[LegalPlay, ...]:
    """The items of ``legal_plays`` as the analysis endpoint shows them, remembered per
    position, roll (in either order) and rules."""
    return _legal_play_items(position, sorted_roll(dice), options)


@lru_cache(maxsize=1024)
def _legal_play_items(
    position: Position, roll: Dice, options: RulesOptions
) -> tuple[LegalPlay, ...]:
    plays = cached_legal_plays(position, roll, options)
    notations = cached_legal_notations(position, roll, options)
    return tuple(map(legal_play, plays, notations))


class AnalysisController(Controller):
    path = "/api/v1/analysis"
    tags = ["analysis"]  # noqa: RUF012

    @post("/legal-plays", status_code=200, summary="Every legal play of a roll in a position")
    async def legal_plays(
        self, request: Request[Any, Any, Any], data: JSONBody[LegalPlaysRequest]
    ) -> LegalPlays | VariantLegalPlays:
        if data.variant is not None:
            return await _variant_legal_plays(request)
        if data.board is not None:
            raise InvalidInputError(
                "variant", "a board needs its variant; backgammon takes a position_id"
            )
        if data.position_id is None:
            raise InvalidInputError("position_id", "required: the position to analyse")
        options = APP_RULES if data.rules == "app" else TOURNAMENT_RULES
        items = legal_play_items(position_from_id(data.position_id), data.dice, options)
        return LegalPlays(list(items))

    @get("/position", summary="Decode a Position ID (and optionally a Match ID)")
    async def position(
        self,
        position_id: Annotated[str, QueryParameter(min_length=14, max_length=14)],
        match_id: Annotated[str | None, QueryParameter(min_length=12, max_length=12)] = None,
    ) -> PositionView:
        position = Position.from_position_id(position_id)
        return PositionView(
            position_id=position.position_id,
            on_roll=_board(position.on_roll),
            opponent=_board(position.opponent),
            match=_match_fields(match_id) if match_id else None,
        )


async def _variant_legal_plays(request: Request[Any, Any, Any]) -> VariantLegalPlays:
    """A variant board's plays (API.md "Analysis (stateless): variants"), its body read
    strictly: a board is integers, not numbers written as strings."""
    data = await strict_body(request, LegalPlaysRequest)
    if data.variant is None:  # the caller read it from the same body: never, but said
        raise InvalidInputError("variant", "required with a board")
    if data.position_id is not None:
        raise InvalidInputError(
            "position_id", f"a {data.variant} board is sent as `board`, not a Position ID"
        )
    if data.rules is not None:
        raise InvalidInputError("rules", "the rules presets are backgammon's; variants have none")
    board = variant_board(data.variant, data.board)
    return VariantLegalPlays(list(variant_legal_play_items(board, data.dice)))


def _board(side: tuple[int, ...]) -> Board:
    return Board(
        points=list(side[:24]),
        bar=side[24],
        borne_off=CHECKERS_PER_SIDE - sum(side),
        pip_count=pip_count(side),
    )


def _match_fields(match_id: str) -> MatchIdFields:
    state = MatchState.from_match_id(match_id)
    return MatchIdFields(
        match_id=state.match_id,
        match_length=state.match_length,
        score=list(state.score),
        cube_value=state.cube_value,
        cube_owner=None if state.cube_owner is CubeOwner.CENTRED else int(state.cube_owner),
        player_on_roll=state.player_on_roll,
        turn=state.turn,
        crawford=state.crawford,
        game_state=state.game_state.name.lower(),
        double_offered=state.double_offered,
        resignation=state.resignation,
        dice=list(state.dice),
        jacoby=state.jacoby,
    )
