"""Standings rebuild rate: whole tournament days recorded through the services, then the
standings view rebuilt from zero (every result recomputes its tournament's standings)."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.rounds.rounds import ReportedResult
from service.settings import Settings
from service.shared.day_views import Round

TOURNAMENTS = 12
PLAYERS = 20
CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)


PlayRound = Callable[[UUID, Round], None]
"""Records the results of a tournament's round (its id, the round as paired)."""


def play_day(services: Services, clock: MovableClock, number: int, play: PlayRound) -> None:
    """Tournament ``number``: registrations, check-ins, six Swiss rounds, semi-finals, final
    and 3rd place, each round's results recorded by ``play``."""
    plan = TournamentPlan(name=f"Turnier {number}", date="2026-04-18", venue="Amberg")
    tournament_id = services.tournaments.schedule_tournament(plan).id
    registrations = [
        services.tournaments.register(
            tournament_id,
            Applicant(
                first_name=f"Spieler{n}",
                last_name=f"Muster{number}",
                email=f"t{number}.spieler{n}@example.org",
                age=40,
            ),
        )
        for n in range(PLAYERS)
    ]
    if clock.now() < CHECK_IN_OPENS:
        clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for registration in registrations:
        services.tournaments.check_in(
            tournament_id,
            registration.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    paired = services.rounds.start(tournament_id).round
    while True:
        play(tournament_id, paired)
        if services.tournaments.get_tournament(tournament_id).status == "completed":
            return
        paired = services.rounds.pair_round(tournament_id)


def report_results(services: Services) -> PlayRound:
    """Every table's result reported by the director, without play."""

    def report(tournament_id: UUID, paired: Round) -> None:
        for table in paired.pairings:
            if table.match_id is None or table.player_b is None:
                continue
            a_wins = (table.table + paired.round) % 2 == 0
            services.rounds.record_result(
                tournament_id,
                ReportedResult(
                    match_id=table.match_id,
                    winner=table.player_a if a_wins else table.player_b,
                    points_a=7 if a_wins else table.table % 7,
                    points_b=table.table % 7 if a_wins else 7,
                ),
            )

    return report


def run() -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
        settings = Settings(data_dir=Path(folder), dev=True, run_scheduler=False)
        services = bootstrap(settings, clock)
        try:
            started = time.perf_counter()
            for number in range(TOURNAMENTS):
                play_day(services, clock, number, report_results(services))
            recorded = time.perf_counter() - started
            events = services.store.latest_notification_id()
            started = time.perf_counter()
            services.views.rebuild("standings")
            rebuilt = time.perf_counter() - started
        finally:
            services.close()
    print(
        f"standings: {TOURNAMENTS} tournament days of {PLAYERS} players recorded in "
        f"{recorded:.1f} s ({events} events); the standings view rebuilt from zero in "
        f"{rebuilt:.2f} s: {events / rebuilt:,.0f} events/s, {TOURNAMENTS / rebuilt:.1f} "
        "tournament days/s"
    )


if __name__ == "__main__":
    run()
