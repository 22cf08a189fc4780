"""The service built by its composition root, with a clock that moves only when a test moves it,
and a tournament day run through the use cases (never through HTTP)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof, TournamentService
from service.rounds.rounds import ReportedResult
from service.settings import Settings
from service.shared.day_views import Round
from service.shared.registrants import Registration

CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)
"""12:30 in Amberg on the day of ``plan`` (rule T-CHECKIN-1: the check-in window)."""


@pytest.fixture
def services(settings: Settings, clock: MovableClock) -> Iterator[Services]:
    built = bootstrap(settings, clock)
    yield built
    built.close()


def plan(**changes: object) -> TournamentPlan:
    """A short tournament: 1-point matches, two Swiss rounds."""
    base: dict[str, object] = {
        "name": "Frühlingsturnier 2026",
        "date": "2026-04-18",
        "venue": "Amberg",
        "match_length": 1,
        "swiss_rounds": 2,
    }
    base.update(changes)
    return TournamentPlan(**base)  # type: ignore[arg-type]


def applicant(number: int) -> Applicant:
    return Applicant(
        first_name=f"Spieler{number}",
        last_name=f"Muster{number}",
        email=f"spieler{number}@example.org",
        age=40,
    )


@dataclass
class Day:
    """A tournament and its registrations, in the order they signed up."""

    tournament_id: UUID
    registrations: list[Registration]

    def player(self, index: int) -> UUID:
        return self.registrations[index].player_id


def registered_tournament(services: Services, players: int, **changes: object) -> Day:
    tournaments: TournamentService = services.tournaments
    tournament_id = tournaments.schedule_tournament(plan(**changes)).id
    receipts = [tournaments.register(tournament_id, applicant(n)) for n in range(1, players + 1)]
    return Day(tournament_id, receipts)


def checked_in_tournament(
    services: Services, clock: MovableClock, players: int, **changes: object
) -> Day:
    """``players`` registered and checked in, the clock at the opening of the check-in."""
    day = registered_tournament(services, players, **changes)
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for receipt in day.registrations:
        services.tournaments.check_in(
            day.tournament_id,
            receipt.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00),
        )
    return day


def report_every_table(services: Services, day: Day, paired: Round) -> None:
    """Each table still open: its first player wins, by the match length to 0."""
    for table in paired.pairings:
        if table.match_id is not None and table.player_b is not None and not table.result_id:
            services.rounds.record_result(
                day.tournament_id,
                ReportedResult(
                    match_id=table.match_id,
                    winner=table.player_a,
                    points_a=table.match_length,
                    points_b=0,
                ),
            )


def played_to_the_end(services: Services, clock: MovableClock) -> Day:
    """Four players, two Swiss rounds, semi-finals, the final and the third place."""
    day = checked_in_tournament(services, clock, 4)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    for _ in range(3):  # round 2, the semi-finals, the final with the 3rd-place match
        report_every_table(services, day, services.rounds.pair_round(day.tournament_id))
    return day
