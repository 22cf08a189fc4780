"""``evolve``, the one place where a match's events apply: the table of every event of a match
and the handlers of the opening, the rolls, the plays, resignations and the game's end (the cube
and penalties are in ``side_changes``, a variant's games in ``variant_games``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.backgammon.cache import position_from_id
from domain.backgammon.position import STARTING_SIDE
from domain.clock import PRESETS, MatchClock
from domain.events import DomainEvent, open_state
from domain.match.errors import NotAMatchError
from domain.match.events import (
    CheckersPlayed,
    ClockFlagged,
    CubeBeavered,
    CubeDropped,
    CubeOffered,
    CubeRaccooned,
    CubeTaken,
    DiceRolled,
    DiceSeedRevealed,
    GameDrawn,
    GameStarted,
    GameWon,
    LatestRoll,
    MatchStarted,
    MatchVoided,
    MatchWon,
    OpeningRollMade,
    PenaltyAwarded,
    PenaltyChanged,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    RollVoidRequested,
    SessionClosed,
    TimeoutClaimed,
    TurnPassed,
    VariantCheckersPlayed,
    other,
)
from domain.match.side_changes import (
    cube_beavered,
    cube_dropped,
    cube_offered,
    cube_raccooned,
    cube_taken,
    penalty_awarded,
    penalty_changed,
    turn_over,
)
from domain.match.state import FinishedGame, Match
from domain.match.variant_games import (
    apply_draw,
    apply_play,
    finished_game_variant,
    game_over,
    set_up,
)
from domain.variants import Variant


def evolve(state: Match | None, event: DomainEvent) -> Match:
    """The one place where the match's events apply."""
    if state is None:
        if not isinstance(event, MatchStarted):
            raise NotAMatchError(
                f"no match with id {event.originator_id} (its record is not a match's)"
            )
        return _started(event)
    apply = _APPLY.get(type(event))
    if apply is None:
        if not isinstance(state, Match):  # a cached state of another aggregate
            raise NotAMatchError(f"no match with id {event.originator_id}")
        raise TypeError(f"{type(event).__name__} is not an event of a match")
    new = apply(replace(state, version=event.originator_version, updated_at=event.timestamp), event)
    running = new.clock_side
    if running != new.clock.running:
        new = replace(new, clock=new.clock.switch(new.preset, running, event.timestamp))
    return new


def _started(event: MatchStarted) -> Match:
    return open_state(
        event,
        Match,
        clock_preset=event.clock,
        cube_enabled=event.cube,
        started_at=event.timestamp,
        updated_at=event.timestamp,
        clock=MatchClock.start(PRESETS[event.clock], event.match_length),
    )


def _game_started(state: Match, event: GameStarted) -> Match:
    state = set_up(state)
    if event.starter is not None:  # rule V-TAVLI-MATCH-1: no opening roll
        state = replace(state, game_starter=event.starter)
    return replace(
        state,
        game=event.game,
        crawford=event.crawford,
        crawford_played=state.crawford_played or event.crawford,
        board_a=STARTING_SIDE,
        board_b=STARTING_SIDE,
        dice=None,
        opening_roll=None,
        cube_value=1,
        cube_owner=None,
        offered_value=None,
        raccoon_allowed=False,
        resigner=None,
        resignation=None,
        resumed_phase=None,
        latest_roll=None,
        reroll_due=False,
        phase="roll" if event.starter else "opening",
        on_roll=event.starter,
    )


def _opening_roll_made(state: Match, event: OpeningRollMade) -> Match:
    state = replace(state, opening_roll=(event.die_a, event.die_b), latest_roll=None)
    if state.began_at is None:
        state = replace(state, began_at=event.timestamp)
    if event.roll_index is not None:
        state = replace(state, server_rolls=event.roll_index + 1)
    if event.starter is None:
        return state
    state = replace(state, game_starter=event.starter)
    if state.game_variant not in (None, Variant.TAVLA):
        # rule V-OPEN-1: the starter rolls both dice again
        latest = LatestRoll(
            version=event.originator_version, side=None, dice=(event.die_a, event.die_b)
        )
        return replace(state, phase="roll", on_roll=event.starter, dice=None, latest_roll=latest)
    own, theirs = (event.die_a, event.die_b) if event.starter == "a" else (event.die_b, event.die_a)
    latest = LatestRoll(
        version=event.originator_version, side=None, dice=(event.die_a, event.die_b)
    )
    return replace(
        state, phase="move", on_roll=event.starter, dice=(own, theirs), latest_roll=latest
    )


def _dice_rolled(state: Match, event: DiceRolled) -> Match:
    rolls = state.server_rolls if event.roll_index is None else event.roll_index + 1
    latest = LatestRoll(version=event.originator_version, side=event.side, dice=event.dice)
    return replace(
        state,
        phase="move",
        dice=event.dice,
        raccoon_allowed=False,
        server_rolls=rolls,
        latest_roll=latest,
        reroll_due=False,
    )


def _checkers_played(state: Match, event: CheckersPlayed) -> Match:
    after = position_from_id(event.position_id)  # the opponent is on roll after the play
    mover, opponent = (after.opponent, after.on_roll)
    board_a, board_b = (mover, opponent) if event.side == "a" else (opponent, mover)
    return turn_over(state, event.side, board_a=board_a, board_b=board_b)


def _turn_passed(state: Match, event: TurnPassed) -> Match:
    latest = state.latest_roll
    return turn_over(
        state, event.side, latest_roll=replace(latest, passed=True) if latest is not None else None
    )


def _roll_void_requested(state: Match, event: RollVoidRequested) -> Match:
    latest = state.latest_roll
    if latest is None:
        return state
    return replace(state, latest_roll=replace(latest, void_asked_by=event.side))


def _roll_voided(state: Match, event: RollVoided) -> Match:
    """rule G-DICE-2: the roll does not count; its roller rolls again (the opening roll is
    due again when it was the opening roll)."""
    if event.side is None:
        return replace(
            state, phase="opening", on_roll=None, dice=None, opening_roll=None, latest_roll=None
        )
    return replace(
        state, phase="roll", on_roll=event.side, dice=None, latest_roll=None, reroll_due=True
    )


def _resignation_offered(state: Match, event: ResignationOffered) -> Match:
    return replace(
        state,
        phase="resignation",
        resigner=event.side,
        resignation=event.level,
        resumed_phase=state.phase,
    )


def _unchanged(state: Match, event: DomainEvent) -> Match:
    """Events whose effect the events after them record (``GameWon``, ``MatchWon``)."""
    return state


def _resignation_rejected(state: Match, event: ResignationRejected) -> Match:
    return replace(
        state,
        phase=state.resumed_phase or "roll",
        resigner=None,
        resignation=None,
        resumed_phase=None,
    )


def _game_won(state: Match, event: GameWon) -> Match:
    """The next game's opening is due, unless ``MatchWon`` follows (``_end_game`` decides)."""
    finished = FinishedGame(
        game=event.game,
        variant=finished_game_variant(state),
        winner=event.winner,
        result=event.result,
        points=event.points,
    )
    return game_over(
        state,
        finished,
        score_a=event.score_a,
        score_b=event.score_b,
        previous_loser=other(event.winner),
    )


def _match_won(state: Match, event: MatchWon) -> Match:
    return replace(
        state,
        phase="match_over",
        winner=event.winner,
        dice=None,
        latest_roll=None,
        score_a=event.score_a,
        score_b=event.score_b,
    )


def _session_closed(state: Match, event: SessionClosed) -> Match:
    return replace(state, phase="match_over", dice=None)


def _clock_flagged(state: Match, event: ClockFlagged) -> Match:
    return replace(state, flagged_since=event.since)


def _match_voided(state: Match, event: MatchVoided) -> Match:
    return replace(state, phase="match_over", dice=None, voided=True)


def _dice_seed_revealed(state: Match, event: DiceSeedRevealed) -> Match:
    return replace(state, revealed_seed=event.seed)


_APPLY: dict[type[DomainEvent], Callable[[Match, Any], Match]] = {
    GameStarted: _game_started,
    OpeningRollMade: _opening_roll_made,
    DiceRolled: _dice_rolled,
    CheckersPlayed: _checkers_played,
    TurnPassed: _turn_passed,
    CubeOffered: cube_offered,
    CubeTaken: cube_taken,
    CubeDropped: cube_dropped,
    CubeBeavered: cube_beavered,
    CubeRaccooned: cube_raccooned,
    ResignationOffered: _resignation_offered,
    ResignationAccepted: _unchanged,
    ResignationRejected: _resignation_rejected,
    TimeoutClaimed: _unchanged,
    GameWon: _game_won,
    MatchWon: _match_won,
    PenaltyAwarded: penalty_awarded,
    PenaltyChanged: penalty_changed,
    SessionClosed: _session_closed,
    MatchVoided: _match_voided,
    DiceSeedRevealed: _dice_seed_revealed,
    ClockFlagged: _clock_flagged,
    RollVoidRequested: _roll_void_requested,
    RollVoided: _roll_voided,
    VariantCheckersPlayed: apply_play,
    GameDrawn: apply_draw,
}
