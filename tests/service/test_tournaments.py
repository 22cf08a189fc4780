"""The registration use cases over the event store: snapshots and reloading, the waitlist and
the cancellation deadline, the check-in, and the anonymous registration confirmed by mail."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID, uuid4
from zoneinfo import ZoneInfo

import pytest

from domain import tournament
from domain.errors import ConflictError, InvalidInputError
from domain.registration_request import ConfirmationExpiredError, RegistrationRequestNotFoundError
from domain.tournament import Applicant, TournamentPlan
from domain.tournament.errors import (
    CancellationClosedError,
    CheckInClosedError,
    TournamentStateError,
)
from domain.tournament.events import (
    LateWithdrawalRecorded,
    PlayerCheckedIn,
    StandbyCheckedIn,
    WaitlistPromoted,
)
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import CheckIn, CheckInProof, RegistrationCancellation
from service.settings import Settings
from service.storage.events import EventStore, Snapshot
from service.storage.persistence import persistence_environment
from tests.service.conftest import CHECK_IN_OPENS, applicant, plan, registered_tournament

PAID = CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00)


@pytest.fixture
def services(tmp_path: Path, database_url: str | None, clock: MovableClock) -> Iterator[Services]:
    settings = Settings(data_dir=tmp_path, database_url=database_url, dev=True, run_scheduler=False)
    built = bootstrap(settings, clock)
    yield built
    built.close()


def test_a_long_registration_stream_reloads_from_its_snapshot(services: Services) -> None:
    # 20 seats and 89 on the waitlist: version 100 is stored as a snapshot as well
    tournaments = services.tournaments
    tournament_id = tournaments.schedule_tournament(
        TournamentPlan(
            name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg", waitlist_limit=100
        )
    ).id
    for n in range(109):
        tournaments.register(
            tournament_id,
            Applicant(first_name="V", last_name=f"N{n}", email=f"p{n}@example.org", age=30),
        )
    store = services.store
    assert store.snapshots is not None
    [snapshot] = list(store.snapshots.get(tournament_id))
    assert isinstance(snapshot, Snapshot)
    assert snapshot.originator_version == 100

    fresh = EventStore(env=persistence_environment(services.settings.event_store_url))
    try:
        reloaded = fresh.load(tournament_id, tournament.evolve)
    finally:
        fresh.close()
    replayed = store.load(tournament_id, tournament.evolve, version=110)
    assert reloaded == replayed
    assert reloaded.version == 110
    assert reloaded.seats_taken == 20
    assert len(reloaded.with_status("waitlisted")) == 89
    assert tournaments.get_seats(tournament_id).waitlist == 89


def test_check_in_opens_at_half_past_twelve_and_needs_the_id_seen_and_the_whole_buy_in(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: on site from 12:30 on the play date, ID document seen, buy-in paid
    day = registered_tournament(services, 2)
    first = day.registrations[0].registration_id
    with pytest.raises(CheckInClosedError) as early:
        services.tournaments.check_in(day.tournament_id, first, PAID)
    assert early.value.extensions["check_in_opens"] == "2026-04-18T12:30:00+02:00"

    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    no_id = CheckInProof(id_document_seen=False, buy_in_paid_cents=100_00)
    with pytest.raises(InvalidInputError) as unseen:
        services.tournaments.check_in(day.tournament_id, first, no_id)
    assert unseen.value.field == "id_document_seen"
    half = CheckInProof(id_document_seen=True, buy_in_paid_cents=50_00)
    with pytest.raises(InvalidInputError) as short:
        services.tournaments.check_in(day.tournament_id, first, half)
    assert (short.value.field, short.value.extensions) == (
        "buy_in_paid_cents",
        {"buy_in_cents": 100_00},
    )
    assert services.tournaments.get_seats(day.tournament_id).checked_in == 0  # nothing recorded

    checked = services.tournaments.check_in(day.tournament_id, first, PAID)
    assert checked == CheckIn(
        registration_id=first,
        status="checked_in",
        checked_in_at=datetime(2026, 4, 18, 12, 30, tzinfo=ZoneInfo("Europe/Berlin")),
        checked_in=1,
        standbys=0,
        pot_cents=80_00,  # rule T-BUYIN-1: 80 EUR of the buy-in go to the pot
    )
    assert services.tournaments.get_seats(day.tournament_id).checked_in == 1
    with pytest.raises(TournamentStateError):  # once is enough
        services.tournaments.check_in(day.tournament_id, first, PAID)


def test_a_waitlisted_person_on_site_checks_in_as_a_standby_outside_the_pot(
    services: Services, clock: MovableClock
) -> None:
    # rules T-CHECKIN-1, T-CHECKIN-2, T-BUYIN-1: two seats; the third person waits on the list
    day = registered_tournament(services, 3, capacity=2)
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    seated, waiting = day.registrations[0].registration_id, day.registrations[2].registration_id

    services.tournaments.check_in(day.tournament_id, seated, PAID)
    standby = services.tournaments.check_in(day.tournament_id, waiting, PAID)

    assert (standby.status, standby.checked_in, standby.standbys) == ("standby", 1, 1)
    assert standby.pot_cents == 80_00  # the standby's buy-in is held apart until seated
    recorded = [
        (type(event), event.registration_id, event.id_document_seen, event.buy_in_paid_cents)
        for event in services.store.stream(day.tournament_id)
        if isinstance(event, PlayerCheckedIn | StandbyCheckedIn)
    ]
    assert recorded == [
        (PlayerCheckedIn, seated, True, 100_00),
        (StandbyCheckedIn, waiting, True, 100_00),
    ]
    statuses = {
        r.registration_id: r.status
        for r in services.tournaments.list_registrations(day.tournament_id)
    }
    assert (statuses[seated], statuses[waiting]) == ("checked_in", "standby")


def test_after_thursday_18_00_only_the_director_takes_a_seat_holder_off_and_the_seat_moves_on(
    services: Services, clock: MovableClock
) -> None:
    # rule T-REG-3: the third person waits for one of the two seats; T-CANCEL-1: until
    # Thursday 18:00 before the tournament, later only the director, as a late withdrawal
    day = registered_tournament(services, 3, capacity=2)
    seated, waiting = day.registrations[0], day.registrations[2]
    assert (waiting.status, waiting.waitlist_position) == ("waitlisted", 1)
    seats = services.tournaments.get_seats(day.tournament_id)
    assert (seats.taken, seats.free, seats.waitlist) == (2, 0, 1)

    clock.advance((datetime(2026, 4, 16, 16, 0, 1, tzinfo=UTC) - clock.now()).total_seconds())
    with pytest.raises(CancellationClosedError) as closed:
        services.tournaments.cancel_registration(
            day.tournament_id,
            seated.registration_id,
            player_token=seated.player_token,
            by_director=False,
        )
    assert closed.value.extensions["cancellation_until"] == "2026-04-16T18:00:00+02:00"

    withdrawn = services.tournaments.cancel_registration(
        day.tournament_id, seated.registration_id, player_token=None, by_director=True, reason="ill"
    )
    assert withdrawn == RegistrationCancellation(
        registration_id=seated.registration_id,
        status="withdrawn",
        promoted_registration_id=waiting.registration_id,
        refund_cents=0,
    )
    *_, recorded, promoted = services.store.stream(day.tournament_id)
    assert isinstance(recorded, LateWithdrawalRecorded)
    assert (recorded.registration_id, recorded.reason) == (seated.registration_id, "ill")
    assert isinstance(promoted, WaitlistPromoted)
    assert promoted.registration_id == waiting.registration_id
    seats = services.tournaments.get_seats(day.tournament_id)
    assert (seats.taken, seats.free, seats.waitlist) == (2, 0, 0)


def requested(services: Services, tournament_id: UUID, number: int) -> str:
    """An anonymous registration of ``applicant(number)``: the token its mail's link carries."""
    before = services.store.latest_notification_id()
    services.requests.request(tournament_id, applicant(number))
    [request_id] = [
        n.originator_id
        for n in services.store.notifications(before, 100)
        if n.topic.endswith("RegistrationRequested")
    ]
    return services.requests.confirmation_token(UUID(str(request_id)))


def test_an_anonymous_registration_takes_a_seat_only_once_its_link_is_followed(
    services: Services, clock: MovableClock
) -> None:
    # rule P-MAIL-1: registration is confirmed by e-mail; confirming again answers the same
    tournament_id = services.tournaments.schedule_tournament(plan()).id
    token = requested(services, tournament_id, 1)
    assert services.tournaments.list_registrations(tournament_id) == []
    assert services.tournaments.get_seats(tournament_id).taken == 0

    clock.advance(24 * 3600)  # at confirm_by itself: in time
    confirmed = services.requests.confirm(token)
    assert (confirmed.tournament_id, confirmed.status) == (tournament_id, "registered")
    assert confirmed.player_id == services.tournaments.player_id_for("spieler1@example.org")
    assert services.tournaments.get_seats(tournament_id).taken == 1
    assert services.requests.confirm(token) == confirmed  # a second click, a lost answer

    services.tournaments.cancel_registration(
        tournament_id,
        confirmed.registration_id,
        player_token=confirmed.player_token,
        by_director=False,
    )
    with pytest.raises(ConflictError):  # the link takes no seat again
        services.requests.confirm(token)
    assert services.tournaments.get_seats(tournament_id).taken == 0


def test_a_late_unknown_or_wrong_confirmation_registers_nobody(
    services: Services, clock: MovableClock
) -> None:
    # rule P-MAIL-1: the link holds for 24 hours; any other token gets the one answer
    tournament_id = services.tournaments.schedule_tournament(plan()).id
    token = requested(services, tournament_id, 1)
    request_id, _, key = token.partition(".")
    for wrong in ("x", request_id, f"{request_id}.{'A' * len(key)}", f"{uuid4().hex}.{key}"):
        with pytest.raises(RegistrationRequestNotFoundError):
            services.requests.confirm(wrong)

    clock.advance(24 * 3600 + 1)
    stream = services.store.stream(tournament_id)
    with pytest.raises(ConfirmationExpiredError):
        services.requests.confirm(token)
    assert services.store.stream(tournament_id) == stream
    assert services.tournaments.get_seats(tournament_id).taken == 0
