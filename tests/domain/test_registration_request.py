"""The registration request: asked with the person's data, confirmed by its token in time."""

# rules P-MAIL-1, T-REG-1, T-REG-2, T-REG-3

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import msgspec
import pytest

from domain.errors import ConflictError, InvalidInputError
from domain.events import fold
from domain.people.tokens import token_hash
from domain.registration_request import (
    ConfirmationExpiredError,
    RegistrationRequest,
    RegistrationRequestConfirmed,
    RegistrationRequested,
    RegistrationRequestNotFoundError,
    check_token,
    confirm_registration,
    evolve,
    request_registration,
)
from domain.tournament import (
    Applicant,
    DuplicateRegistrationError,
    PlayerRegistered,
    RegistrationWaitlisted,
    Tournament,
    UnderAgeError,
)
from tests.domain.test_tournament import (
    CLUB_OF_TWO,
    SCHEDULED_AT,
    given,
    scheduled,
    sign_up,
)

REQUEST = UUID("00000000-0000-4000-8000-00000000aaaa")
TOKEN = f"{REQUEST.hex}.secret-part"
ANNAS_ID = UUID(int=77)
ANNA = Applicant(first_name="Anna", last_name="Muster", email="anna@example.org", age=30)


def asked(
    tournament: Tournament, *, player_id: UUID = ANNAS_ID, **changes: object
) -> RegistrationRequest:
    """Anna's request, with ``changes`` to what she gives."""
    events = request_registration(
        REQUEST,
        tournament,
        player_id=player_id,
        applicant=msgspec.structs.replace(ANNA, **changes),
        duplicate=False,
        token_hash=token_hash(TOKEN),
        now=SCHEDULED_AT,
    )
    state = fold(evolve, None, events)
    assert state is not None
    return state


def confirm(
    request: RegistrationRequest, tournament: Tournament, after: timedelta
) -> tuple[list[RegistrationRequestConfirmed], list[object]]:
    confirmed, registered = confirm_registration(
        request,
        tournament,
        registration_id=UUID(int=500),
        player_token_hash=token_hash("player token"),
        banned_until=None,
        now=SCHEDULED_AT + after,
    )
    return [e for e in confirmed if isinstance(e, RegistrationRequestConfirmed)], list(registered)


def test_a_request_records_the_person_and_a_deadline_24_hours_on_not_the_token() -> None:
    tournament = given(scheduled())
    events = request_registration(
        REQUEST,
        tournament,
        player_id=ANNAS_ID,
        applicant=msgspec.structs.replace(ANNA, first_name=" Anna ", language="en"),
        duplicate=False,
        token_hash=token_hash(TOKEN),
        now=SCHEDULED_AT,
    )
    [event] = events
    assert isinstance(event, RegistrationRequested)
    assert event.confirm_by == SCHEDULED_AT + timedelta(hours=24)
    assert (event.first_name, event.language, event.tournament_id) == ("Anna", "en", tournament.id)
    assert TOKEN not in repr(event)


def test_a_request_keeps_the_applicant_for_its_confirmation() -> None:
    # rule P-MAIL-1: the data is checked again at confirmation; the birth date as typed, read
    # against the play date then
    request = asked(given(scheduled()), age=None, birth_date="05.07.85")
    assert request.applicant == msgspec.structs.replace(ANNA, age=None, birth_date="05.07.85")


def test_a_request_checks_the_persons_data_at_once() -> None:
    tournament = given(scheduled())
    with pytest.raises(UnderAgeError):
        asked(tournament, age=17)
    with pytest.raises(InvalidInputError, match="language"):
        asked(tournament, language="fr")


def test_a_confirmation_registers_the_person_in_the_tournament() -> None:
    tournament = given(scheduled())
    request = asked(tournament)
    confirmed, registered = confirm(request, tournament, timedelta(hours=1))
    assert [e.registration_id for e in confirmed] == [UUID(int=500)]
    [seat] = registered
    assert isinstance(seat, PlayerRegistered)
    assert (seat.player_id, seat.email, seat.language) == (ANNAS_ID, "anna@example.org", "de")


def test_the_seat_is_decided_at_confirmation() -> None:
    # rule T-REG-3: both seats went to others after the request was made
    tournament = given(scheduled(CLUB_OF_TWO))
    request = asked(tournament)
    first = sign_up(tournament, 1)
    second = sign_up(given(scheduled(CLUB_OF_TWO), first), 2)
    full = given(scheduled(CLUB_OF_TWO), first, second)
    assert full.seats_taken == 2
    _, registered = confirm(request, full, timedelta(hours=1))
    assert isinstance(registered[0], RegistrationWaitlisted)


def test_an_expired_request_never_registers() -> None:
    tournament = given(scheduled())
    request = asked(tournament)
    confirm(request, tournament, timedelta(hours=24))  # at confirm_by: still in time
    with pytest.raises(ConfirmationExpiredError):
        confirm(request, tournament, timedelta(hours=24, seconds=1))


def test_a_confirmed_request_is_not_confirmed_again() -> None:
    tournament = given(scheduled())
    request = asked(tournament)
    confirmed, _ = confirm(request, tournament, timedelta(hours=1))
    done = fold(evolve, request, confirmed)
    assert done is not None
    assert done.registration_id == UUID(int=500)
    with pytest.raises(ConflictError):
        confirm(done, tournament, timedelta(hours=2))


def test_the_duplicate_rule_applies_at_confirmation() -> None:
    # rule T-REG-2: the person registered in the meantime (by the director, say)
    tournament = given(scheduled())
    request = asked(tournament, player_id=UUID(int=1_000_001))
    registered = given(scheduled(), sign_up(tournament, 1))
    with pytest.raises(DuplicateRegistrationError):
        confirm(request, registered, timedelta(hours=1))


def test_only_the_requests_own_token_confirms_it() -> None:
    request = asked(given(scheduled()))
    check_token(request, TOKEN)
    for wrong in ("", TOKEN + "x", f"{REQUEST.hex}.other"):
        with pytest.raises(RegistrationRequestNotFoundError):
            check_token(request, wrong)


def test_another_aggregates_stream_is_no_request() -> None:
    with pytest.raises(RegistrationRequestNotFoundError):
        fold(evolve, None, scheduled())  # type: ignore[arg-type]
