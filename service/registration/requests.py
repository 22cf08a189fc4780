"""Registration by e-mail confirmation (rule P-MAIL-1): ask, then follow the link in the mail.

An anonymous registration is stored as a request of its own (``domain.registration_request``)
and answered with 202, the same answer for a new address and for one already registered (the
mail to the address tells the difference, not the answer). The confirmation token is derived
from the request id with a server key, so the outbox's mail can carry it while the events keep
only its hash; the token names its request (``<request id>.<key>``) so confirmation finds it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from domain import registration_request as requests
from domain import tournament as tournaments
from domain.errors import ConflictError
from domain.people.tokens import token_hash
from domain.registration_request import (
    UNKNOWN_TOKEN,
    RegistrationRequest,
    RegistrationRequestNotFoundError,
)
from domain.tournament import Applicant
from service.shared.commands import DECIDE_AGAIN, CommandRunner, Decision
from service.shared.loading import load_tournament
from service.shared.registrants import Registrants, Registration, confirmation_token
from service.storage.events import Change, EventStore

DEVELOPMENT_KEY = b"bgtd development confirmation key: not a secret"


@dataclass(frozen=True, slots=True)
class Unconfirmed:
    """The answer to an anonymous registration: the same for everyone (rule P-MAIL-1)."""

    tournament_id: UUID
    confirm_by: datetime


class RegistrationRequestService:
    """Anonymous registrations: the request (a mail goes out) and its confirmation."""

    def __init__(
        self,
        store: EventStore,
        commands: CommandRunner,
        registrants: Registrants,
        zone: ZoneInfo,
        *,
        link_key: bytes = DEVELOPMENT_KEY,
    ) -> None:
        self._store = store
        self._commands = commands
        self._registrants = registrants
        self._zone = zone
        self._link_key = link_key

    def confirmation_token(self, request_id: UUID) -> str:
        return confirmation_token(self._link_key, request_id)

    def request(
        self,
        tournament_id: UUID,
        applicant: Applicant,
    ) -> Unconfirmed:
        """rule P-MAIL-1: store an unconfirmed registration; the outbox mails its link.

        Whether the address is registered already (rule T-REG-2) only chooses the mail; the
        answer never tells (a stranger learns nothing about who is registered).
        """
        request_id = uuid.uuid4()
        player_id = self._registrants.player_id_for(applicant.email)
        tournament = load_tournament(self._store, tournament_id)
        same_person = {
            player_id,
            *self._registrants.ids_of_same_address(tournament_id, applicant.email, player_id),
        }
        duplicate = self._registrants.is_registered(tournament_id, same_person)
        with self._store.keys.typed_in(player_id):  # a new key even after an erasure
            request = self._commands.create(
                requests.evolve,
                lambda now: requests.request_registration(
                    request_id,
                    tournament,
                    player_id=player_id,
                    applicant=applicant,
                    duplicate=duplicate,
                    token_hash=token_hash(self.confirmation_token(request_id)),
                    now=now,
                ),
                DECIDE_AGAIN,
            )
        return Unconfirmed(tournament_id, request.confirm_by.astimezone(self._zone))

    def confirm(self, token: str) -> Registration:
        """The link was followed: the seat (or waitlist place) is decided now.

        Confirming again answers the same registration while it holds its place (a second
        click, a lost answer); once cancelled, a confirmation is a 409.
        """
        request_id = _request_id(token)
        registration_id = uuid.uuid4()

        def attempt(now: datetime) -> Decision:
            request = self._load(request_id)
            requests.check_token(request, token)
            requests.check_not_erased(request)
            if request.registration_id is not None:
                return Decision.of()
            tournament = load_tournament(self._store, request.tournament_id)
            confirmed, registered = requests.confirm_registration(
                request,
                tournament,
                registration_id=registration_id,
                player_token_hash=token_hash(self._registrants.player_token(registration_id)),
                banned_until=self._registrants.banned_until(tournament, request.player_id),
                also_known_as=self._registrants.ids_of_same_address(
                    tournament.id, request.email, request.player_id
                ),
                now=now,
            )
            return Decision.of(
                Change.of(requests.evolve, request, confirmed),
                Change.of(tournaments.evolve, tournament, registered),
            )

        self._commands.run(attempt, DECIDE_AGAIN)
        request = self._load(request_id)
        assert request.registration_id is not None, "a confirmed request names its registration"
        tournament = load_tournament(self._store, request.tournament_id)
        if tournament.registration(request.registration_id).status not in (
            "registered",
            "waitlisted",
        ):
            raise ConflictError(
                "this registration was confirmed and has since been cancelled or has checked in",
                registration_id=str(request.registration_id),
            )
        return self._registrants.registered(tournament, request.registration_id)

    def _load(self, request_id: UUID) -> RegistrationRequest:
        return self._store.load_as(
            request_id,
            requests.evolve,
            RegistrationRequest,
            lambda: RegistrationRequestNotFoundError(UNKNOWN_TOKEN),
        )


def _request_id(token: str) -> UUID:
    """The request named by a token; a malformed token is as unknown as a wrong one."""
    head, dot, _ = token.partition(".")
    try:
        if not dot or len(head) != 32:
            raise ValueError(head)
        return UUID(hex=head)
    except ValueError:
        raise RegistrationRequestNotFoundError(UNKNOWN_TOKEN) from None
