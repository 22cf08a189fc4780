"""Seat and participant views of standbys, withdrawals at check-in and seats taken at the start."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import pytest

from domain.tournament import Applicant, TournamentPlan
from projections.seats import SeatCounts
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.settings import Settings
from tests.projections.test_seats import VIEW_NAMES, tables

CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    built = bootstrap(Settings(data_dir=tmp_path, dev=True, run_scheduler=False), clock)
    yield built
    built.close()


def play_with_standbys(services: Services) -> tuple[UUID, list[UUID]]:
    """6 seats, 10 sign up. At check-in #1..#4 check in, #5 and #6 do not come; #7..#10 wait,
    #9, #7, #8 check in as standbys. The director withdraws #4 (#7 moves up, checked in), #8
    leaves the waitlist (refund), #10 leaves too. At the start #5 and #6 are no-shows and
    #9 takes a released seat."""
    clock = services.clock
    assert isinstance(clock, MovableClock)
    tournaments = services.tournaments
    tournament = tournaments.schedule_tournament(
        TournamentPlan(name="Frühling", date="2026-04-18", venue="Amberg", capacity=6)
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
        for n in range(1, 11)
    ]
    ids = [UUID(str(r.registration_id)) for r in receipts]
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for number in (1, 2, 3, 4, 9, 7, 8):
        tournaments.check_in(
            tournament,
            ids[number - 1],
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    tournaments.cancel_registration(tournament, ids[3], player_token=None, by_director=True)
    for number in (8, 10):
        tournaments.cancel_registration(
            tournament,
            ids[number - 1],
            player_token=receipts[number - 1].player_token,
            by_director=False,
        )
    services.rounds.start(tournament)
    return tournament, ids


def test_the_views_follow_standbys_into_their_seats(services: Services) -> None:
    # rules T-CHECKIN-2, T-REG-3, T-FMT-5, T-BUYIN-1
    tournament, ids = play_with_standbys(services)
    assert services.tournaments.get_seats(tournament) == SeatCounts(
        capacity=6, taken=5, free=1, waitlist=0, checked_in=5
    )
    shown = services.tournaments.get_tournament(tournament)
    assert shown.pot_cents == 5 * 8000
    records = {r.registration_id: r for r in services.tournaments.list_registrations(tournament)}
    statuses = [records[i].status for i in ids]
    assert statuses == [
        "checked_in",
        "checked_in",
        "checked_in",
        "withdrawn",
        "no_show",
        "no_show",
        "checked_in",
        "cancelled",
        "checked_in",
        "cancelled",
    ]
    refunds = [records[i].refund_cents for i in ids]
    assert refunds == [None] * 7 + [10000, None, None]


def test_standbys_in_the_waitlist_are_counted_and_numbered(services: Services) -> None:
    tournament = services.tournaments.schedule_tournament(
        TournamentPlan(name="Frühling", date="2026-04-18", venue="Amberg", capacity=2)
    ).id
    receipts = [
        services.tournaments.register(
            tournament,
            Applicant(first_name="V", last_name=f"N{n}", email=f"p{n}@example.org", age=30),
        )
        for n in range(4)
    ]
    clock = services.clock
    assert isinstance(clock, MovableClock)
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    services.tournaments.check_in(
        tournament,
        receipts[3].registration_id,
        CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
    )
    assert services.tournaments.get_seats(tournament).waitlist == 2
    public = services.tournaments.list_participants(tournament)
    assert [(p.status, p.waitlist_position) for p in public] == [
        ("registered", None),
        ("registered", None),
        ("waitlisted", 1),
        ("standby", 2),
    ]


def test_after_the_start_nobody_waits_not_even_the_refunded_standbys(services: Services) -> None:
    # rules T-CHECKIN-2, T-REG-3: the start seats the standbys it can and refunds the others;
    # from then on no seat goes to anyone through the waitlist, so the seats show none
    tournament = services.tournaments.schedule_tournament(
        TournamentPlan(name="Frühling", date="2026-04-18", venue="Amberg", capacity=2)
    ).id
    receipts = [
        services.tournaments.register(
            tournament,
            Applicant(first_name="V", last_name=f"N{n}", email=f"p{n}@example.org", age=30),
        )
        for n in range(5)
    ]
    clock = services.clock
    assert isinstance(clock, MovableClock)
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for receipt in receipts[:4]:  # two seat holders and two standbys; the fifth stays away
        services.tournaments.check_in(
            tournament,
            receipt.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    assert services.tournaments.get_seats(tournament).waitlist == 3

    started = services.rounds.start(tournament)

    assert [s.refund_cents for s in started.unseated_standbys] == [10000, 10000]
    assert services.tournaments.get_seats(tournament) == SeatCounts(
        capacity=2, taken=2, free=0, waitlist=0, checked_in=2
    )


@pytest.mark.parametrize("name", VIEW_NAMES)
def test_a_view_with_standbys_rebuilt_from_zero_equals_the_live_one(
    services: Services, name: str
) -> None:
    play_with_standbys(services)
    live = tables(services.views)
    services.views.rebuild(name)
    assert tables(services.views) == live
