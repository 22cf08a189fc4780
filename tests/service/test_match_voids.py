"""The use cases of rule G-DICE-2 (a roll voided by a director, or by both players asking) and
of the club clock's USBGF overtime (rule G-CLOCK-1), through ``MatchService``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from domain import match as rules
from domain.errors import ForbiddenError, InvalidInputError
from domain.events import DIRECTOR
from service.bootstrap import Services
from service.clock import MovableClock
from service.matches.matches import MatchService
from service.shared.match_play import Caller, MatchTerms
from service.storage.events import EventStore
from service.storage.persistence import persistence_environment
from tests.service.conftest import checked_in_tournament, plan

START = datetime(2026, 4, 18, 13, 0, tzinfo=UTC)


@pytest.fixture
def match_clock() -> MovableClock:
    return MovableClock(START, ticking=False)


@pytest.fixture
def service(
    tmp_path: Path, database_url: str | None, match_clock: MovableClock
) -> Iterator[MatchService]:
    url = database_url or f"sqlite:///{tmp_path / 'events.sqlite3'}"
    store = EventStore(env=persistence_environment(url))
    yield MatchService(store, clock=match_clock, dice_key=b"k" * 32)
    store.close()


def opened(service: MatchService) -> tuple[rules.Match, dict[str, Caller]]:
    """An entered-dice match where side a opened 3-1 and is to play."""
    created = service.create(MatchTerms(player_a="anna", player_b="ben", match_length=5))
    callers = {side: Caller(token=token) for side, token in created.tokens.items()}
    state = service.roll(created.match.id, callers["a"], [3, 1])
    return state, callers


def test_a_director_voids_a_roll_at_once_and_the_stream_keeps_it_as_voided(
    service: MatchService,
) -> None:
    # rule G-DICE-2: the voided roll is recorded with its reason, and rolled again
    state, _ = opened(service)
    director = Caller(director=True, actor=DIRECTOR)

    voided = service.void_roll(state.id, director, "die off the board")

    assert (voided.phase, voided.opening_roll) == ("opening", None)
    events = service.events(state.id)
    assert [type(e).__name__ for e in events[-2:]] == ["OpeningRollMade", "RollVoided"]
    assert isinstance(events[-1], rules.RollVoided)
    assert (events[-1].reason, events[-1].by, events[-1].actor) == (
        "die off the board",
        "director",
        DIRECTOR,
    )
    assert service.get(state.id, version=voided.version - 1).phase == "move"  # replay


def test_a_players_request_waits_for_the_opponents_and_both_are_in_the_stream(
    service: MatchService,
) -> None:
    # rule G-DICE-2: both players can void it
    state, callers = opened(service)

    asked = service.void_roll(state.id, callers["a"], "cocked")
    assert asked.phase == "move"
    assert asked.latest_roll is not None
    assert asked.latest_roll.void_asked_by == "a"
    voided = service.void_roll(state.id, callers["b"], "agreed, cocked")

    assert voided.phase == "opening"
    requested, done = service.events(state.id)[-2:]
    assert isinstance(requested, rules.RollVoidRequested)
    assert isinstance(done, rules.RollVoided)
    assert (requested.side, requested.actor) == ("a", "player:anna")
    assert (done.by, done.actor) == ("players", "player:ben")


def test_a_token_of_another_match_cannot_void_its_roll(service: MatchService) -> None:
    state, _ = opened(service)
    other = service.create(MatchTerms(player_a="x", player_b="y", match_length=1))

    with pytest.raises(ForbiddenError):
        service.void_roll(state.id, Caller(token=other.tokens["a"]), "cocked")


def test_the_export_of_a_match_with_a_voided_roll_holds_only_the_roll_played(
    service: MatchService,
) -> None:
    state, callers = opened(service)
    director = Caller(director=True, actor=DIRECTOR)
    service.void_roll(state.id, director, "cocked")
    state = service.roll(state.id, callers["a"], [6, 5])
    service.play(state.id, callers["a"], notation="24/13")

    text = service.export_mat(state.id, ZoneInfo("Europe/Berlin"))

    assert "31:" not in text
    assert "65: 24/18 18/13" in text


def test_with_the_usbgf_overtime_a_claim_at_the_first_expiry_is_refused_at_the_second_won(
    service: MatchService, match_clock: MovableClock
) -> None:
    # rule G-CLOCK-1 (USBGF option): one overtime after the first expiry; the second loses
    created = service.create(
        MatchTerms(
            player_a="anna",
            player_b="ben",
            match_length=1,
            clock="club",
            clock_overtime_seconds=120,
        )
    )
    callers = {side: Caller(token=token) for side, token in created.tokens.items()}
    service.roll(created.match.id, callers["a"], [3, 1])
    match_clock.advance(180)

    with pytest.raises(rules.ClockNotExpiredError, match="overtime"):
        service.claim_timeout(created.match.id, callers["b"])
    match_clock.advance(60)
    won = service.claim_timeout(created.match.id, callers["b"])

    assert (won.phase, won.winner) == ("match_over", "b")


def test_a_tournament_with_the_usbgf_overtime_opens_its_tables_with_it(
    services: Services, clock: MovableClock
) -> None:
    # rule G-CLOCK-1: the option is set on the tournament and holds for each of its matches
    day = checked_in_tournament(services, clock, 4, clock_overtime_seconds=60)

    paired = services.rounds.start(day.tournament_id).round

    match_ids = [table.match_id for table in paired.pairings if table.match_id is not None]
    assert len(match_ids) == 2
    for match_id in match_ids:
        state = services.matches.get(match_id)
        assert (state.clock_preset, state.preset.overtime_ms) == ("club", 60_000)


def test_a_tournament_refuses_an_overtime_without_the_club_clock(services: Services) -> None:
    with pytest.raises(InvalidInputError) as error:
        services.tournaments.schedule_tournament(plan(clock="app", clock_overtime_seconds=60))
    assert error.value.field == "clock_overtime_seconds"
