"""A registration made after the start that never joins the field can be cancelled: it holds
no seat in the field until admitted, as the waitlist holds none (rules T-CANCEL-1, T-REG-3).
Its player cancels it with their token while it is not checked in; the director in any status
short of admitted, a checked-in one with its buy-in handed back (rules T-CHECKIN-1,
T-BUYIN-1). A registration of the field keeps its answer: a withdrawal, not a cancellation."""

from __future__ import annotations

import pytest

from domain.tournament import (
    CancellationClosedError,
    RegistrationCancelled,
    TournamentStateError,
)
from service.bootstrap import Services
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.shared.registrants import Registration
from service.venue.venue import LateAdmission
from tests.service.conftest import Day, applicant, checked_in_tournament

PAID = CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00)


def started_with_a_late_registration(
    services: Services, clock: MovableClock
) -> tuple[Day, Registration]:
    """Four players started, and a fifth registered by the director after the start."""
    day = checked_in_tournament(services, clock, 4)
    services.rounds.start(day.tournament_id)
    return day, services.tournaments.register(day.tournament_id, applicant(5), actor="director")


def test_a_late_registrant_who_never_comes_cancels_with_their_token(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: not in the field, the late registration holds no seat of it
    day, late = started_with_a_late_registration(services, clock)
    cancelled = services.tournaments.cancel_registration(
        day.tournament_id, late.registration_id, player_token=late.player_token, by_director=False
    )
    assert (cancelled.status, cancelled.refund_cents) == ("cancelled", 0)
    assert cancelled.promoted_registration_id is None
    stored = services.store.stream(day.tournament_id)[-1]
    assert isinstance(stored, RegistrationCancelled)
    assert (stored.registration_id, stored.refund_cents) == (late.registration_id, 0)
    seats = services.tournaments.get_seats(day.tournament_id)
    assert (seats.taken, seats.checked_in, seats.waitlist) == (4, 4, 0)
    row = next(
        r
        for r in services.tournaments.list_registrations(day.tournament_id)
        if r.registration_id == late.registration_id
    )
    assert (row.status, row.refund_cents) == ("cancelled", None)
    assert services.places.get_prizes(day.tournament_id).pot_cents == 4 * 80_00


def test_a_late_registrant_checked_in_asks_the_director_to_cancel(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: the buy-in is paid; only the director hands it back
    day, late = started_with_a_late_registration(services, clock)
    services.tournaments.check_in(day.tournament_id, late.registration_id, PAID)
    before = services.store.stream(day.tournament_id)
    with pytest.raises(CancellationClosedError, match="checked in: ask the tournament director"):
        services.tournaments.cancel_registration(
            day.tournament_id,
            late.registration_id,
            player_token=late.player_token,
            by_director=False,
        )
    assert services.store.stream(day.tournament_id) == before


def test_the_director_cancels_a_checked_in_late_registration_and_hands_the_buy_in_back(
    services: Services, clock: MovableClock
) -> None:
    # rules T-CANCEL-1, T-BUYIN-1: never admitted, it added nothing to the pot; the buy-in
    # paid at check-in is refunded, and no waitlist is promoted after the start (T-REG-3)
    day, late = started_with_a_late_registration(services, clock)
    waiting = services.tournaments.register(day.tournament_id, applicant(6), actor="director")
    services.tournaments.check_in(day.tournament_id, late.registration_id, PAID)
    cancelled = services.tournaments.cancel_registration(
        day.tournament_id, late.registration_id, player_token=None, by_director=True
    )
    assert (cancelled.status, cancelled.refund_cents) == ("cancelled", 100_00)
    assert cancelled.promoted_registration_id is None
    state = services.venue.load(day.tournament_id)
    assert state.registration(late.registration_id).status == "cancelled"
    assert state.registration(waiting.registration_id).status == waiting.status
    assert late.player_id not in state.field
    assert (state.players, state.pot_cents) == (4, 4 * 80_00)
    row = next(
        r
        for r in services.tournaments.list_registrations(day.tournament_id)
        if r.registration_id == late.registration_id
    )
    assert (row.status, row.buy_in_paid_cents, row.refund_cents) == ("cancelled", 100_00, 100_00)
    seats = services.tournaments.get_seats(day.tournament_id)
    assert (seats.checked_in, seats.taken) == (4, 4 + (waiting.status == "registered"))
    assert services.places.get_prizes(day.tournament_id).pot_cents == 4 * 80_00


def test_a_late_registration_on_the_waitlist_is_cancelled_by_the_director_without_refund(
    services: Services, clock: MovableClock
) -> None:
    # rule T-REG-3: all seats taken, the late registration waits; it is cancelled like any
    day = checked_in_tournament(services, clock, 4, capacity=4)
    services.rounds.start(day.tournament_id)
    late = services.tournaments.register(day.tournament_id, applicant(5), actor="director")
    assert late.status == "waitlisted"
    cancelled = services.tournaments.cancel_registration(
        day.tournament_id, late.registration_id, player_token=None, by_director=True
    )
    assert (cancelled.status, cancelled.refund_cents) == ("cancelled", 0)
    seats = services.tournaments.get_seats(day.tournament_id)
    assert (seats.taken, seats.waitlist) == (4, 0)


def test_an_admitted_late_entry_is_withdrawn_not_cancelled(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: admitted, the late entry plays in the field: a withdrawal (T-FMT-5)
    day, late = started_with_a_late_registration(services, clock)
    services.tournaments.check_in(day.tournament_id, late.registration_id, PAID)
    services.venue.admit_late_entry(
        day.tournament_id, LateAdmission(registration_id=late.registration_id)
    )
    before = services.store.stream(day.tournament_id)
    with pytest.raises(TournamentStateError, match="record a withdrawal instead"):
        services.tournaments.cancel_registration(
            day.tournament_id, late.registration_id, player_token=None, by_director=True
        )
    assert services.store.stream(day.tournament_id) == before


def test_a_registration_of_the_field_is_withdrawn_not_cancelled_after_the_start(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: a registration made before the start keeps today's answer
    day, _ = started_with_a_late_registration(services, clock)
    before = services.store.stream(day.tournament_id)
    for by_director, token in ((True, None), (False, day.registrations[0].player_token)):
        with pytest.raises(TournamentStateError, match="record a withdrawal instead"):
            services.tournaments.cancel_registration(
                day.tournament_id,
                day.registrations[0].registration_id,
                player_token=token,
                by_director=by_director,
            )
    assert services.store.stream(day.tournament_id) == before
