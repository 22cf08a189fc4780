"""Clocks in variant matches (rules G-CLOCK-1, G-CLOCK-2 with V-MATCH-VARIANT-1, V-TAVLI-MATCH-1,
V-RESIGN-1, T-FMT-7), through ``MatchService`` with a clock that moves only when a test moves it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from domain import match as rules
from service.clock import MovableClock
from service.matches.matches import MatchService
from service.shared.match_play import Caller, MatchTerms
from service.storage.events import EventStore
from service.storage.persistence import persistence_environment

START = datetime(2026, 4, 18, 13, 0, tzinfo=UTC)
MINUTE = 60


@pytest.fixture
def match_clock() -> MovableClock:
    return MovableClock(START, ticking=False)


@pytest.fixture
def service(tmp_path: Path, match_clock: MovableClock) -> Iterator[MatchService]:
    store = EventStore(env=persistence_environment(f"sqlite:///{tmp_path / 'events.sqlite3'}"))
    yield MatchService(store, clock=match_clock, dice_key=b"k" * 32)
    store.close()


def created(service: MatchService, **terms: Any) -> tuple[rules.Match, dict[str, Caller]]:
    made = service.create(MatchTerms(player_a="anna", player_b="ben", **terms))
    return made.match, {side: Caller(token=token) for side, token in made.tokens.items()}


def opened(service: MatchService, state: rules.Match, callers: dict[str, Caller]) -> rules.Match:
    """Side a wins the opening roll 3-1 and, as V-OPEN-1 says outside Tavla, rolls again: 3-1."""
    state = service.roll(state.id, callers["a"], [3, 1])
    assert (state.phase, state.turn) == ("roll", "a")
    return service.roll(state.id, callers["a"], [3, 1])


def test_a_plakoto_clock_runs_for_the_side_to_play_and_charges_it_past_the_delay(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rule G-CLOCK-1: Bronstein delay 12 s, 2 minutes per match point, in any variant
    state, callers = created(service, match_length=3, clock="club", variant="plakoto")
    state = opened(service, state, callers)
    assert (state.phase, state.turn, state.clock.running) == ("move", "a", "a")
    match_clock.advance(30)

    state = service.play(state.id, callers["a"], notation="24/21 24/23")

    assert state.clock.running == "b"
    assert state.clock.reserve("a") == 6 * MINUTE * 1000 - 18_000  # 30 s used, 12 s delay
    assert state.clock.reserve("b") == 6 * MINUTE * 1000


def test_a_plakoto_time_loss_at_the_club_clock_ends_the_match_at_its_length(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rules G-CLOCK-1, T-FMT-7: the side out of time loses the match; the winner's score
    # becomes the match length, the loser keeps the points they had
    state, callers = created(service, match_length=3, clock="club", variant="plakoto")
    state = opened(service, state, callers)
    match_clock.advance(6 * MINUTE - 1)
    with pytest.raises(rules.ClockNotExpiredError):
        service.claim_timeout(state.id, callers["b"])
    match_clock.advance(1)

    won = service.claim_timeout(state.id, callers["b"])

    assert (won.phase, won.winner, won.score_a, won.score_b) == ("match_over", "b", 0, 3)


def test_a_plakoto_clock_with_the_usbgf_overtime_loses_only_at_the_second_expiry(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rule G-CLOCK-1 (USBGF option): one overtime after the first expiry; the second loses
    state, callers = created(
        service, match_length=1, clock="club", clock_overtime_seconds=60, variant="plakoto"
    )
    state = opened(service, state, callers)
    match_clock.advance(2 * MINUTE + 30)

    with pytest.raises(rules.ClockNotExpiredError, match="overtime"):
        service.claim_timeout(state.id, callers["b"])
    match_clock.advance(30)
    won = service.claim_timeout(state.id, callers["b"])

    assert (won.phase, won.winner, won.score_b) == ("match_over", "b", 1)


def test_a_plakoto_time_loss_at_the_app_clock_is_a_game_worth_two_points(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rules G-CLOCK-2, V-RESIGN-1: at the app preset a time loss is worth 2 points, and the
    # match goes on when that does not reach its length
    state, callers = created(service, match_length=5, clock="app", variant="plakoto")
    state = opened(service, state, callers)
    match_clock.advance(11 + 90)

    won = service.claim_timeout(state.id, callers["b"])

    assert (won.is_over, won.score_a, won.score_b, won.game) == (False, 0, 2, 2)
    (game,) = won.games
    assert (game.variant, game.winner, game.points) == ("plakoto", "b", 2)


def tavli_after_the_first_game(
    service: MatchService, match_clock: MovableClock, **terms: Any
) -> tuple[rules.Match, dict[str, Caller]]:
    """A Tavli match (club clock unless ``terms`` say otherwise) whose Portes game side a won
    by b resigning a single after 1 minute."""
    terms.setdefault("clock", "club")
    state, callers = created(service, variant="tavli", **terms)
    state = opened(service, state, callers)
    state = service.play(state.id, callers["a"], notation="8/5 6/5")
    state = service.roll(state.id, callers["b"], [6, 5])
    match_clock.advance(MINUTE)
    service.resign(state.id, callers["b"], "single")
    state = service.answer_resignation(state.id, callers["a"], accept=True)
    return state, callers


def test_a_tavli_clock_runs_on_into_the_plakoto_game_for_its_starting_player(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rules V-TAVLI-MATCH-1 (the winner starts the next game with a normal roll) and G-CLOCK-1
    # (the reserve lasts the match; breaks between games count against the match time)
    state, callers = tavli_after_the_first_game(service, match_clock, match_length=5)
    assert (state.game_variant, state.phase, state.turn) == ("plakoto", "roll", "a")
    assert state.clock.running == "a"
    b_left = state.clock.reserve("b")
    assert b_left == 10 * MINUTE * 1000 - (MINUTE - 12) * 1000
    match_clock.advance(2 * MINUTE)

    state = service.roll(state.id, callers["a"], [6, 5])

    assert state.clock.running == "a"  # the roll is no move: the play is still due
    match_clock.advance(10 * MINUTE)
    won = service.claim_timeout(state.id, callers["b"])
    assert (won.phase, won.winner, won.score_a, won.score_b) == ("match_over", "b", 1, 5)
    assert won.clock.reserve("b") == b_left


def test_a_best_of_three_tavli_time_loss_ends_the_match_for_the_claimant(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rules V-TAVLI-MATCH-1 (best of three: one match of length match_length for the clock),
    # T-FMT-7: a time loss decides the match whatever the games won so far
    state, callers = tavli_after_the_first_game(
        service, match_clock, match_length=3, tavli_format="best_of_three"
    )
    assert (state.is_over, state.game_variant) == (False, "plakoto")
    match_clock.advance(6 * MINUTE)

    won = service.claim_timeout(state.id, callers["b"])

    assert (won.phase, won.winner) == ("match_over", "b")
    assert won.is_over


def test_a_best_of_three_tavli_time_loss_at_the_app_clock_is_a_game_won(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rules G-CLOCK-2, V-RESIGN-1 (a game worth 2 points) and V-TAVLI-MATCH-1 (two games win
    # the match): one game each, the Fevga game decides
    state, callers = tavli_after_the_first_game(
        service, match_clock, match_length=3, tavli_format="best_of_three", clock="app"
    )
    match_clock.advance(11 + 90)

    state = service.claim_timeout(state.id, callers["b"])

    assert (state.is_over, state.game_variant, state.score_a, state.score_b) == (
        False,
        "fevga",
        1,
        2,
    )
    assert [(g.variant, g.winner, g.points) for g in state.games] == [
        ("portes", "a", 1),
        ("plakoto", "b", 2),
    ]
