"""Matches decided before they are played out (rule T-FMT-7): penalty points past half the
match length (rule C-BREAK-2), forfeits of players who left (rule T-FMT-5) and time losses."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.errors import ConflictError, InvalidInputError
from domain.events import DomainEvent, EventBatch
from domain.match.errors import MatchOverError, PenaltyAwardedAlreadyError
from domain.match.events import MatchWon, PenaltyAwarded, PenaltyChanged, Side, other
from domain.match.evolution import evolve
from domain.match.state import Match
from domain.text import one_line

MAX_REASON_LENGTH = 500


def award_penalty(
    state: Match,
    *,
    penalty_id: UUID,
    side: Side,
    points: int,
    reason: str,
    now: datetime,
    actor: str | None = None,
) -> list[DomainEvent]:
    """rule C-BREAK-2: penalty points against ``side`` go to the opponent's score.

    Penalty points awarded of more than half the match length win the match, as does a score
    that reaches the match length; such a match is won at the match length (rule T-FMT-7).
    A ``penalty_id`` the match knows already is refused: one decision, recorded once (the
    break list's proposal approved twice).
    """
    _require_penalties(state)
    if any(penalty.id == penalty_id for penalty in state.penalties):
        raise PenaltyAwardedAlreadyError("this penalty is awarded already")
    _check_penalty_points(points, minimum=1)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    awarded = batch.add(
        PenaltyAwarded,
        penalty_id=penalty_id,
        side=side,
        points=points,
        reason=one_line("reason", reason, MAX_REASON_LENGTH),
    )
    _decide_by_penalties(evolve(state, awarded), batch, other(side))
    return batch.events


def change_penalty(
    state: Match,
    *,
    penalty_id: UUID,
    points: int,
    reason: str,
    now: datetime,
    actor: str | None = None,
) -> list[DomainEvent]:
    """A penalty adjusted to ``points``, or waived with 0 (rule C-BREAK-2: the director can
    waive or adjust); never an edit of the penalty's own event."""
    _require_penalties(state)
    penalty = state.penalty(penalty_id)
    _check_penalty_points(points, minimum=0)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    changed = batch.add(
        PenaltyChanged,
        penalty_id=penalty_id,
        points=points,
        reason=one_line("reason", reason, MAX_REASON_LENGTH),
    )
    _decide_by_penalties(evolve(state, changed), batch, other(penalty.side))
    return batch.events


def _require_penalties(state: Match) -> None:
    _require_playing(state)
    if state.is_money_session:
        raise ConflictError("penalty points count towards a match length: not in money play")


def _check_penalty_points(points: int, *, minimum: int) -> None:
    if not minimum <= points <= MAX_MATCH_LENGTH:
        raise InvalidInputError("points", f"must be between {minimum} and {MAX_MATCH_LENGTH}")


def _decide_by_penalties(state: Match, batch: EventBatch[DomainEvent], side: Side) -> None:
    """rule C-BREAK-2: ``side`` wins when its opponent's penalty points pass half the match
    length, or when its score reaches the match length."""
    opponent = other(side)
    score = state.score_a if side == "a" else state.score_b
    if state.penalty_points_against(opponent) * 2 > state.match_length or (
        score >= state.match_length
    ):
        batch.add(
            MatchWon,
            winner=side,
            score_a=state.match_length if side == "a" else state.score_a,
            score_b=state.match_length if side == "b" else state.score_b,
            reason="penalty",
        )


def forfeit(
    state: Match,
    winner: Side,
    now: datetime,
    *,
    excluded: bool = False,
    actor: str | None = None,
) -> list[DomainEvent]:
    """The opponent of ``winner`` left the tournament (rule T-FMT-5) or was ``excluded``
    (rule C-EXCL-1): the match is decided now.

    rule T-FMT-7: a begun match, or any match of an excluded player, is won at the match
    length, the loser keeping their points; one that never began is unplayed, 0-0.
    """
    _require_playing(state)
    if state.is_money_session:
        raise ConflictError("a money session is closed, not forfeited")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    if state.has_begun or excluded:
        decide_early(state, batch, winner, "forfeit")
    else:
        batch.add(MatchWon, winner=winner, score_a=0, score_b=0, reason="forfeit")
    return batch.events


def conclude(
    state: Match,
    winner: Side,
    score_a: int,
    score_b: int,
    now: datetime,
    *,
    actor: str | None = None,
) -> list[DomainEvent]:
    """The tournament recorded this match's result from the board (the players' reports or
    the director's): the match ends with that score, and its clock with it."""
    _require_playing(state)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(MatchWon, winner=winner, score_a=score_a, score_b=score_b, reason="reported")
    return batch.events


def decide_early(
    state: Match,
    batch: EventBatch[DomainEvent],
    winner: Side,
    reason: Literal["timeout", "forfeit"],
) -> None:
    """rule T-FMT-7: a match decided before it was played out is won at the match length; the
    loser keeps the points they had."""
    score_a = state.match_length if winner == "a" else state.score_a
    score_b = state.match_length if winner == "b" else state.score_b
    batch.add(MatchWon, winner=winner, score_a=score_a, score_b=score_b, reason=reason)


def _require_playing(state: Match) -> None:
    if state.is_over:
        raise MatchOverError("the match is over: nothing more can be recorded")
