"""The standings view: equal to the aggregate's own standings, and rebuilt from zero equal to
the live view, through results, a correction, a withdrawal and a bye (rules T-FMT-3, T-FMT-6)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.tournament import Applicant, Tournament, TournamentPlan, evolve, swiss_standings
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.rounds.rounds import ReportedResult, WithdrawalNotice
from service.settings import Settings

CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    built = bootstrap(Settings(data_dir=tmp_path, dev=True, run_scheduler=False), clock)
    yield built
    built.close()


def a_tournament_of_seven(services: Services) -> UUID:
    """Seven players (a bye each round), two rounds reported, one result corrected, one player
    withdrawn in round 3."""
    plan = TournamentPlan(name="Herbstturnier", date="2026-04-18", venue="Amberg")
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
        for n in range(1, 8)
    ]
    clock = services.clock
    assert isinstance(clock, MovableClock)
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for registration in registrations:
        services.tournaments.check_in(
            tournament_id,
            registration.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    services.rounds.start(tournament_id)
    first_result = None
    for number in (1, 2):
        for table in services.rounds.get_round(tournament_id, number).pairings:
            if table.match_id is None or table.player_b is None:
                continue
            recorded = services.rounds.record_result(
                tournament_id,
                ReportedResult(
                    match_id=table.match_id,
                    winner=table.player_a if table.table % 2 else table.player_b,
                    points_a=7 if table.table % 2 else table.table,
                    points_b=table.table if table.table % 2 else 7,
                ),
            )
            first_result = first_result or recorded
        services.rounds.pair_round(tournament_id)
    assert first_result is not None
    services.rounds.record_result(
        tournament_id,
        ReportedResult(
            match_id=first_result.match_id,
            winner=first_result.winner,
            points_a=first_result.points_a,
            points_b=first_result.points_b - 1,
            corrects=first_result.result_id,
            reason="one point less for the loser",
        ),
    )
    third = services.rounds.get_round(tournament_id, 3).pairings[0]
    services.rounds.withdraw(
        tournament_id,
        WithdrawalNotice(player_id=third.player_a, reason="ill", left_early=True),
        actor="director",
    )
    return tournament_id


def rows(services: Services, tournament_id: UUID) -> list[Any]:
    return services.rounds.list_standings(tournament_id)


def test_the_view_agrees_with_the_aggregates_own_standings(services: Services) -> None:
    tournament_id = a_tournament_of_seven(services)
    state = services.store.load(tournament_id, evolve)
    assert isinstance(state, Tournament)
    expected = [(s.player_id, s.wins, s.points, s.buchholz) for s in swiss_standings(state)]
    view = [(r.player_id, r.wins, r.points, r.buchholz) for r in rows(services, tournament_id)]
    assert view == expected
    assert sum(r.byes for r in rows(services, tournament_id)) == 3  # rule T-FMT-2: one a round
    assert [r.withdrawn for r in rows(services, tournament_id)].count(True) == 1


def test_the_view_rebuilt_from_zero_equals_the_live_one(services: Services) -> None:
    tournament_id = a_tournament_of_seven(services)
    live = rows(services, tournament_id)
    matches = services.rounds.list_matches(tournament_id)
    services.views.rebuild("standings")
    assert rows(services, tournament_id) == live
    assert services.rounds.list_matches(tournament_id) == matches
