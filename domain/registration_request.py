"""An anonymous registration waiting for its e-mail confirmation (rule P-MAIL-1).

Each request is an aggregate of its own: an unconfirmed registration never grows the
tournament (its snapshot stays the size of its real registrations, whatever strangers send).
The seat is decided when the link in the mail is followed: the request is confirmed and the
tournament registers the person in one transaction, by every rule of a registration at that
moment (seats, waitlist, deadline, minimum age, bans, duplicates).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, timedelta
from typing import ClassVar
from uuid import UUID

import msgspec

from domain.errors import ConflictError, NotFoundError
from domain.events import (
    PSEUDONYM,
    Aggregate,
    DomainEvent,
    EventBatch,
    Personal,
    copied,
    open_state,
)
from domain.people.erasure import pseudonym
from domain.people.tokens import token_matches
from domain.tournament import Applicant, Tournament, TournamentEvent, check_registrant, register

CONFIRMATION_WINDOW = timedelta(hours=24)
"""An unconfirmed registration expires after this time: it never takes a seat."""
PUBLIC = "public"
ERASED_REQUEST = {
    "first_name": PSEUDONYM,
    "last_name": "",
    "email": "",
    "age": None,
    "birth_date": None,
}
"""What a request shows once its person is erased (as a registration does)."""


class RegistrationRequested(DomainEvent, frozen=True, kw_only=True):
    """Someone asked to register an address; the mail to it carries the confirmation link.

    ``duplicate``: the address was already registered for the tournament when asked; its mail
    says so instead of carrying a link, and the answer to the request is the same as anyone's.
    """

    tournament_id: UUID
    player_id: UUID
    first_name: str
    last_name: str
    email: str
    age: int | None = None
    birth_date: str | None = None
    """As typed: checked again (against the play date) when the registration is decided."""
    language: str = "de"
    duplicate: bool = False
    confirm_by: datetime
    token_hash: str
    """SHA-256 (hex) of the confirmation token; the token itself is never stored."""

    personal: ClassVar[tuple[Personal, ...]] = (Personal("player_id", ERASED_REQUEST),)
    """Sealed like a registration's: a request that was never confirmed is erased too."""


class RegistrationRequestConfirmed(DomainEvent, frozen=True, kw_only=True):
    """The link was followed: the tournament registered the person under ``registration_id``."""

    registration_id: UUID


RegistrationRequestEvent = RegistrationRequested | RegistrationRequestConfirmed


class RegistrationRequest(Aggregate, frozen=True, kw_only=True):
    tournament_id: UUID
    player_id: UUID
    first_name: str
    last_name: str
    email: str
    age: int | None
    birth_date: str | None
    language: str
    duplicate: bool
    confirm_by: datetime
    token_hash: str
    registration_id: UUID | None = None
    """Set once confirmed."""

    personal: ClassVar[tuple[Personal, ...]] = RegistrationRequested.personal

    @property
    def applicant(self) -> Applicant:
        """The person as they asked to register (names and address as checked, the birth
        date as typed), checked again when the registration is decided: the request's fields
        of the same names."""
        return copied(self, Applicant)


class RegistrationRequestNotFoundError(NotFoundError):
    """No request has this confirmation token (unknown, malformed or wrong: one answer)."""

    type_slug = "confirmation-not-found"


class ConfirmationExpiredError(ConflictError):
    """The confirmation link was followed after ``confirm_by``: no seat (rule P-MAIL-1)."""

    type_slug = "confirmation-expired"


class PersonErasedError(ConflictError):
    """The request's person was erased since: it reads the pseudonym and no address, and
    registers nobody (they may register again)."""

    type_slug = "person-erased"


UNKNOWN_TOKEN = "no registration waits for this confirmation token"


def evolve(
    state: RegistrationRequest | None, event: RegistrationRequestEvent
) -> RegistrationRequest:
    """The one place where request events apply; another aggregate's stream is not found."""
    if isinstance(event, RegistrationRequested):
        return open_state(event, RegistrationRequest)
    if state is None:
        raise RegistrationRequestNotFoundError(UNKNOWN_TOKEN)
    if isinstance(event, RegistrationRequestConfirmed):
        return msgspec.structs.replace(
            state, version=event.originator_version, registration_id=event.registration_id
        )
    raise TypeError(f"not a registration request event: {type(event).__name__}")


def request_registration(
    request_id: UUID,
    tournament: Tournament,
    *,
    player_id: UUID,
    applicant: Applicant,
    duplicate: bool,
    token_hash: str,
    now: datetime,
) -> list[RegistrationRequestEvent]:
    """rule P-MAIL-1: an anonymous registration waits for its confirmation (24 hours).

    The person's data is checked now (a typo is a 422 at once); seats, duplicates and bans
    are decided at confirmation, so that the answer to a stranger tells nothing about the
    address: ``duplicate`` only chooses the mail, and a ban is told to whoever follows the
    link (rule C-EXCL-1).
    """
    person = check_registrant(tournament, applicant, now=now, actor=PUBLIC, banned_until=None)
    # names, address and language as checked; age and birth date as typed, checked again
    # against the play date when the registration is decided
    checked = copied(person, Applicant, age=applicant.age, birth_date=applicant.birth_date)
    batch = EventBatch[RegistrationRequestEvent](request_id, 0, now, PUBLIC)
    batch.add(
        RegistrationRequested,
        tournament_id=tournament.id,
        player_id=player_id,
        **msgspec.structs.asdict(checked),
        duplicate=duplicate,
        # whole seconds: the answer shows it, and it should tell nothing but the time asked
        confirm_by=(now + CONFIRMATION_WINDOW).replace(microsecond=0),
        token_hash=token_hash,
    )
    return batch.events


def check_token(request: RegistrationRequest, token: str) -> None:
    """The token must hash to the request's; a wrong one is as unknown as a missing request."""
    if not token_matches(token, request.token_hash):
        raise RegistrationRequestNotFoundError(UNKNOWN_TOKEN)


def check_not_erased(request: RegistrationRequest) -> None:
    """A request whose person was erased reads its erased values (``ERASED_REQUEST``): its
    link registers nobody, and answers so (not a 422 about the erased name)."""
    if not request.email and request.first_name == pseudonym(request.player_id):
        raise PersonErasedError("the person of this registration was erased; please register again")


def confirm_registration(
    request: RegistrationRequest,
    tournament: Tournament,
    *,
    registration_id: UUID,
    player_token_hash: str,
    banned_until: date | None,
    also_known_as: Collection[UUID] = (),
    now: datetime,
) -> tuple[list[RegistrationRequestEvent], list[TournamentEvent]]:
    """The link was followed in time: the tournament registers the person now (rules T-REG-1..3,
    T-SEAT-1), so the seat goes to whoever confirms first; an expired request never registers.

    Returns the request's events and the tournament's, to be saved together.
    """
    if request.registration_id is not None:
        raise ConflictError("this registration is confirmed already")
    if now > request.confirm_by:
        raise ConfirmationExpiredError(
            "the confirmation link has expired; please register again",
            confirm_by=tournament.local(request.confirm_by),
        )
    registered = register(
        tournament,
        registration_id=registration_id,
        player_id=request.player_id,
        applicant=request.applicant,
        token_hash=player_token_hash,
        now=now,
        actor=PUBLIC,
        banned_until=banned_until,
        also_known_as=also_known_as,
    )
    batch = EventBatch[RegistrationRequestEvent].after(request, now, PUBLIC)
    batch.add(RegistrationRequestConfirmed, registration_id=registration_id)
    return batch.events, registered
