"""Who registers: a person's player id and token, a season's ban, an address registered twice.

Registration at the desk and online (``service/registration``) and the mails that carry a
cancellation link (``service/mail``) derive the same ids and tokens from the server's keys.
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Collection
from datetime import date
from typing import Literal, cast
from uuid import UUID

import msgspec

from domain import tournament as tournaments
from domain.tournament import ACTIVE, Tournament
from projections import participants
from projections.runner import Views
from service.shared.loading import load_season
from service.storage.events import EventStore
from service.storage.secret import keyed_token

PLAYER_NAMESPACE = UUID("6f1c7f0e-5a43-4c52-9a7e-0c4b1f3d2a90")
DEVELOPMENT_KEY = b"bgtd development key: not a secret"
"""Only for a service built without a server key (tests, tools): its player ids are guessable."""


def player_id_for(key: bytes, email: str) -> UUID:
    """One id per person (``email_key``: NFKC, then lowercase) in every tournament here.

    The public participant list shows player ids: keyed with a server secret, an id tells
    nobody without the key whether a given e-mail address is registered. Ids stored before
    the NFKC key were derived from the casefolded address: the same for an ASCII address,
    another one for some others (see ``Registrants.ids_of_same_address``).
    """
    address = tournaments.email_key(email).encode("utf-8", "surrogateescape")
    return uuid.uuid5(PLAYER_NAMESPACE, hmac.new(key, address, "sha256").hexdigest())


class Registration(msgspec.Struct, frozen=True, kw_only=True):
    registration_id: UUID
    tournament_id: UUID
    player_id: UUID
    status: Literal["registered", "waitlisted"]
    player_token: str
    """Bearer token for self-service (cancellation); shown once, the events keep only its
    hash."""
    waitlist_position: int | None


class Registrants:
    """Player ids and tokens keyed with the server's secret, and what a registration checks."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        *,
        player_key: bytes = DEVELOPMENT_KEY,
        token_key: bytes = DEVELOPMENT_KEY,
    ) -> None:
        """``player_key`` keys player ids, ``token_key`` player tokens: both derived from the
        server's secret (service.storage.secret)."""
        self._store = store
        self._views = views
        self._player_key = player_key
        self._token_key = token_key

    def registered(self, state: Tournament, registration_id: UUID) -> Registration:
        """The answer to a registration: its place and its player token (derived again)."""
        registration = state.registration(registration_id)
        return Registration(
            registration_id=registration_id,
            tournament_id=state.id,
            player_id=registration.player_id,
            status=cast(Literal["registered", "waitlisted"], registration.status),
            player_token=self.player_token(registration_id),
            waitlist_position=waitlist_position(state, registration_id),
        )

    def player_id_for(self, email: str) -> UUID:
        return player_id_for(self._player_key, email)

    def player_token(self, registration_id: UUID) -> str:
        """The registration's player token: the mails' cancellation link carries it (rule
        P-MAIL-1), so the service derives it from the registration id with a server key."""
        return keyed_token(self._token_key, registration_id)

    def banned_until(self, state: Tournament, player_id: UUID) -> date | None:
        """The end of the season whose director banned the person, if so (rule C-EXCL-1)."""
        if state.season_id is None:
            return None
        season = load_season(self._store, state.season_id)
        return season.ends_on if player_id in season.banned else None

    def is_registered(self, tournament_id: UUID, player_ids: Collection[UUID]) -> bool:
        """Whether one of ``player_ids`` holds a seat or a waitlist place (the views' word)."""
        with self._views.reading() as db:
            rows = participants.list_registrations(db, str(tournament_id))
        return any(row.player_id in player_ids and row.status in ACTIVE for row in rows)

    def ids_of_same_address(
        self, tournament_id: UUID, email: str, player_id: UUID
    ) -> tuple[UUID, ...]:
        """Other player ids under which this address is registered in the tournament.

        Only a non-ASCII address can have one: an id derived before the NFKC key (from the
        casefolded address). The views know every such old registration by its address.
        """
        if email.isascii():
            return ()
        key = tournaments.email_key(email)
        with self._views.reading() as db:
            rows = participants.list_registrations(db, str(tournament_id))
        return tuple(
            {
                row.player_id
                for row in rows
                if row.player_id != player_id and tournaments.email_key(row.email) == key
            }
        )


def waitlist_position(state: Tournament, registration_id: UUID) -> int | None:
    waiting = state.waiting()
    return next((i for i, r in enumerate(waiting, start=1) if r.id == registration_id), None)


def confirmation_token(key: bytes, request_id: UUID) -> str:
    """The token of the request's confirmation link: its id, then a keyed part."""
    return f"{request_id.hex}.{keyed_token(key, request_id)}"
