"""A match won through the API records its tournament result exactly once, also when the
process dies inside or right after the transaction that holds the winning command."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.match import MatchOverError
from domain.tournament import Applicant, ResultRecorded, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.settings import Settings
from service.shared.match_play import Caller

CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)


class Crash(BaseException):
    """The process dies here: nothing after this line runs, no handler sees it."""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)


@pytest.fixture
def services(settings: Settings, clock: MovableClock) -> Iterator[Services]:
    built = bootstrap(settings, clock)
    yield built
    built.close()


def one_table_to_the_last_command(services: Services, clock: MovableClock) -> tuple[UUID, UUID]:
    """Two players, one 1-point match: side b has offered a backgammon; side a's acceptance
    wins the match (and with it the tournament's only round)."""
    plan = TournamentPlan(name="Zu zweit", date="2026-04-18", venue="Amberg", match_length=1)
    tournament_id = services.tournaments.schedule_tournament(plan).id
    registrations = [
        services.tournaments.register(
            tournament_id,
            Applicant(
                first_name=f"Spieler{n}",
                last_name="Muster",
                email=f"spieler{n}@example.org",
                age=40,
            ),
        )
        for n in (1, 2)
    ]
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for registration in registrations:
        services.tournaments.check_in(
            tournament_id,
            registration.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    started = services.rounds.start(tournament_id)
    match_id = started.round.pairings[0].match_id
    assert match_id is not None
    director = Caller(director=True)
    services.matches.roll(match_id, director, (6, 5))
    state = services.matches.get(match_id)
    services.matches.play(
        match_id, director.acting_for("a"), position_id=state.plays()[0].position_id
    )
    services.matches.resign(match_id, director.acting_for("b"), "backgammon")
    return tournament_id, match_id


def results(services: Services, tournament_id: UUID) -> list[ResultRecorded]:
    return [e for e in services.store.stream(tournament_id) if isinstance(e, ResultRecorded)]


def accept(services: Services, match_id: UUID) -> Any:
    return services.matches.answer_resignation(
        match_id, Caller(director=True, side="a"), accept=True
    )


def test_a_crash_inside_the_winning_transaction_stores_neither_the_win_nor_the_result(
    services: Services, settings: Settings, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rule T-FMT-6: a match's result reaches its tournament once, never lost
    tournament_id, match_id = one_table_to_the_last_command(services, clock)
    recorder = services.store.recorder
    insert = recorder._insert_events  # type: ignore[attr-defined]

    def die_before_commit(cursor: Any, stored: Any, **keywords: Any) -> Any:
        insert(cursor, stored, **keywords)  # the rows are written, the commit never comes
        raise Crash

    monkeypatch.setattr(recorder, "_insert_events", die_before_commit)
    with pytest.raises(Crash):
        accept(services, match_id)
    services.close()

    restarted = bootstrap(settings, clock)
    try:
        assert not restarted.matches.get(match_id).is_over
        assert results(restarted, tournament_id) == []
        won = accept(restarted, match_id)  # the player taps again
        assert won.is_over
        [result] = results(restarted, tournament_id)
        assert (result.match_id, result.source, result.points_a) == (match_id, "match", 3)
        restarted.views.catch_up()
        assert restarted.tournaments.get_tournament(tournament_id).status == "completed"
    finally:
        restarted.close()


def test_a_crash_after_the_commit_keeps_the_win_and_its_result_once(
    services: Services, settings: Settings, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rule T-FMT-6: a match's result reaches its tournament once, never twice
    tournament_id, match_id = one_table_to_the_last_command(services, clock)
    recorder = services.store.recorder
    insert = recorder.insert_events

    def die_before_answering(stored: Any, **keywords: Any) -> Any:
        insert(stored, **keywords)
        raise Crash

    monkeypatch.setattr(recorder, "insert_events", die_before_answering)
    with pytest.raises(Crash):
        accept(services, match_id)
    services.close()

    restarted = bootstrap(settings, clock)
    try:
        assert restarted.matches.get(match_id).is_over
        with pytest.raises(MatchOverError):
            accept(restarted, match_id)  # the retried command records nothing more
        [result] = results(restarted, tournament_id)
        assert result.winner == restarted.matches.get(match_id).pairing.player_a_id  # type: ignore[union-attr]
    finally:
        restarted.close()
