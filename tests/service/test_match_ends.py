"""How a match stops other than by a side reaching its length, through the service with a clock
that moves only when the test moves it: a run-out clock flagged by the scheduler's job (rules
G-CLOCK-1, G-CLOCK-2) and a money session closed by a director (rule G-CUBE-3)."""

from __future__ import annotations

import pytest

from domain import match as rules
from domain.errors import ConflictError, ForbiddenError
from domain.events import SCHEDULER
from service.bootstrap import Services
from service.clock import MovableClock
from service.shared.match_play import Caller, MatchTerms

MINUTE = 60
DIRECTOR = Caller(director=True)


def started(services: Services, **terms: object) -> tuple[rules.Match, dict[str, Caller]]:
    """Side a won the opening roll 3-1 and is to play."""
    made = services.matches.create(
        MatchTerms(player_a="anna", player_b="ben", **terms)  # type: ignore[arg-type]
    )
    callers = {side: Caller(token=token) for side, token in made.tokens.items()}
    return services.matches.roll(made.match.id, callers["a"], [3, 1]), callers


def test_the_scheduler_flags_a_run_out_clock_once_and_only_at_its_expiry(
    services: Services, clock: MovableClock
) -> None:
    # rule G-CLOCK-1: 2 minutes per match point; the running side is flagged when its time is
    # gone, once, so that the opponent can claim
    state, _ = started(services, match_length=1, clock="club")
    clock.advance(2 * MINUTE - 1)
    assert services.jobs.flag_clock(state.id) is None  # a second of its time is left

    clock.advance(1)
    assert services.jobs.flag_clock(state.id) == "ClockFlagged"
    assert services.jobs.flag_clock(state.id) is None  # once per expiry

    flagged = services.matches.events(state.id)[-1]
    assert isinstance(flagged, rules.ClockFlagged)
    assert (flagged.flagged, flagged.actor) == ("a", SCHEDULER)
    assert services.matches.get(state.id).flagged_since == flagged.since


def test_a_director_closes_a_money_session_and_its_running_total_stands(
    services: Services,
) -> None:
    # rule G-CUBE-3 (seed 003): a money session (length 0) keeps a running total; it ends when
    # a director closes it, never on reaching a length
    state, callers = started(services, match_length=0)
    services.matches.play(state.id, callers["a"], notation="8/5 6/5")
    services.matches.cube(state.id, callers["b"], "double")
    services.matches.cube(state.id, callers["a"], "drop")
    with pytest.raises(ForbiddenError):
        services.matches.close_session(state.id, callers["a"])  # a player cannot

    closed = services.matches.close_session(state.id, DIRECTOR)

    assert closed.is_over
    assert (closed.score_a, closed.score_b) == (0, 1)
    ended = services.matches.events(state.id)[-1]
    assert isinstance(ended, rules.SessionClosed)
    assert (ended.score_a, ended.score_b) == (0, 1)


def test_a_match_with_a_length_is_not_closed_like_a_session(services: Services) -> None:
    # rule G-CUBE-2: a match is won by reaching its length
    state, _ = started(services, match_length=3)
    with pytest.raises(ConflictError):
        services.matches.close_session(state.id, DIRECTOR)
    assert services.matches.get(state.id).phase == "move"
