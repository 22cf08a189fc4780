"""How the cube and penalty events change a match, and how a turn ends (the rest of
``evolve``'s table is in ``domain.match.evolution``)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.match.events import (
    CubeBeavered,
    CubeDropped,
    CubeOffered,
    CubeRaccooned,
    CubeTaken,
    PenaltyAwarded,
    PenaltyChanged,
    Side,
    other,
)
from domain.match.state import Match, Penalty


def turn_over(state: Match, side: Side, **changes: object) -> Match:
    """``side``'s turn has ended (its play, on any board, or a roll it could not play): the
    opponent is on roll with no dice yet, and ``changes`` say what else the turn left."""
    fields: dict[str, object] = {"latest_roll": None, **changes}
    return replace(state, phase="roll", on_roll=other(side), dice=None, **fields)


def cube_offered(state: Match, event: CubeOffered) -> Match:
    return replace(
        state, phase="cube", offered_value=event.value, raccoon_allowed=False, latest_roll=None
    )


def cube_taken(state: Match, event: CubeTaken) -> Match:
    return replace(
        state, phase="roll", cube_value=event.value, cube_owner=event.side, offered_value=None
    )


def cube_dropped(state: Match, event: CubeDropped) -> Match:
    return replace(state, offered_value=None)


def cube_beavered(state: Match, event: CubeBeavered) -> Match:
    return replace(
        state,
        phase="roll",
        cube_value=event.value,
        cube_owner=event.side,
        offered_value=None,
        raccoon_allowed=True,
    )


def cube_raccooned(state: Match, event: CubeRaccooned) -> Match:
    return replace(state, cube_value=event.value, cube_owner=event.side, raccoon_allowed=False)


def penalty_awarded(state: Match, event: PenaltyAwarded) -> Match:
    penalty = Penalty(id=event.penalty_id, side=event.side, points=event.points)
    return with_penalty_points(
        replace(state, penalties=(*state.penalties, penalty)), event.side, event.points
    )


def penalty_changed(state: Match, event: PenaltyChanged) -> Match:
    penalty = state.penalty(event.penalty_id)
    penalties = tuple(
        replace(p, points=event.points) if p.id == event.penalty_id else p for p in state.penalties
    )
    return with_penalty_points(
        replace(state, penalties=penalties), penalty.side, event.points - penalty.points
    )


def with_penalty_points(state: Match, penalised: Side, points: int) -> Match:
    """rule C-BREAK-2: a penalty point is added to the opponent's match score."""
    if penalised == "a":
        return replace(state, score_b=state.score_b + points)
    return replace(state, score_a=state.score_a + points)
