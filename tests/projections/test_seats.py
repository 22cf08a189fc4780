"""Seats, calendar and participant views: a rebuild from zero equals the live view (T-SEAT-1)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.tournament import Applicant, TournamentPlan
from projections.runner import Views
from projections.seats import SeatCounts
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.settings import Settings
from service.storage.events import StoreEventSource
from service.storage.views import projections

VIEW_NAMES = ("seats", "calendar", "participants", "ranking")


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    built = bootstrap(Settings(data_dir=tmp_path, dev=True, run_scheduler=False), clock)
    yield built
    built.close()


def tables(views: Views) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every view table, in a stable order."""
    with views.reading() as db:
        return {
            table: sorted(db.execute(f"SELECT * FROM [{table}]").fetchall(), key=repr)
            for projection in views.projections
            for table in projection.tables
        }


def play_a_tournament(services: Services) -> UUID:
    """Registrations, a waitlist, a cancellation with promotion, a late withdrawal, check-ins and
    the start with no-shows: every event the seat view handles."""
    clock = services.clock
    assert isinstance(clock, MovableClock)
    tournaments = services.tournaments
    services.seasons.create_season(name="Saison 2026", starts_on="2026-03-01", ends_on="2027-02-28")
    tournament = tournaments.schedule_tournament(
        TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
    ).id
    receipts = [
        tournaments.register(
            tournament,
            Applicant(
                first_name=f"Vorname{n}",
                last_name=f"Nachname{n}",
                email=f"spieler{n}@example.org",
                age=30,
            ),
        )
        for n in range(24)
    ]
    tournaments.cancel_registration(
        tournament,
        receipts[3].registration_id,
        player_token=receipts[3].player_token,
        by_director=False,
    )
    tournaments.cancel_registration(
        tournament,
        receipts[23].registration_id,
        player_token=receipts[23].player_token,
        by_director=False,
    )
    clock.advance((datetime(2026, 4, 17, 9, 0, tzinfo=UTC) - clock.now()).total_seconds())
    tournaments.cancel_registration(
        tournament, receipts[4].registration_id, player_token=None, by_director=True
    )
    clock.advance((datetime(2026, 4, 18, 10, 30, tzinfo=UTC) - clock.now()).total_seconds())
    for receipt in receipts[5:17]:
        tournaments.check_in(
            tournament,
            receipt.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    services.rounds.start(tournament)
    return tournament


def test_the_seat_view_counts_what_the_aggregate_decided(services: Services) -> None:
    # 24 sign up: 20 seats, 4 waiting; #3 cancels (#20 moves up), #23 leaves the waitlist,
    # #4 withdraws late (#21 moves up); 12 check in, 8 no-shows are released at the start,
    # which closes the waitlist: #24, still waiting, gets no seat after it
    tournament = play_a_tournament(services)
    assert services.tournaments.get_seats(tournament) == SeatCounts(
        capacity=20, taken=12, free=8, waitlist=0, checked_in=12
    )
    public = services.tournaments.list_participants(tournament)
    assert [p.status for p in public] == ["checked_in"] * 12 + ["waitlisted"]


@pytest.mark.parametrize("name", VIEW_NAMES)
def test_a_view_rebuilt_from_zero_equals_the_live_one(services: Services, name: str) -> None:
    play_a_tournament(services)
    live = tables(services.views)
    services.views.rebuild(name)
    assert tables(services.views) == live


def test_views_built_in_a_new_database_equal_the_live_ones(
    services: Services, tmp_path: Path
) -> None:
    # another process sharing the event store builds its own views from the log
    play_a_tournament(services)
    fresh = Views(
        tmp_path / "fresh.sqlite3", StoreEventSource(services.store, "same store"), projections()
    )
    try:
        fresh.catch_up()
        assert tables(fresh) == tables(services.views)
    finally:
        fresh.close()
