"""Players' sessions on the table page: a player signs in once through the personal link of
their registration mail and then reports and confirms results with a session, as they would
over REST with their player token.

As the director's sessions (``service.people.sessions``), a session is a signed value under a
key of its own, not a server-side record, and holds no token: the registration it speaks for, a
keyed check of the token's hash, its expiry and a random nonce (its CSRF tokens derive from it).
Every request checks the registration again in the event store: a cancelled, withdrawn or
excluded registration's session stops working at once. The use cases still take the player
token (the same path as REST): the service derives it again from the registration id
(``Registrants.player_token``), it never travels in the cookie.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from domain.errors import UnauthenticatedError
from domain.people.tokens import token_hash
from domain.tournament import Tournament
from domain.tournament.errors import TournamentNotFoundError
from projections import tokens as player_tokens
from projections.runner import Views
from service.clock import Clock
from service.people.signing import SignedClaims, SignedSessions, TokenBoundClaims
from service.shared.registrants import Registrants
from service.storage.ended_sessions import EndedSessions

PLAYER_SESSION_LIFETIME = timedelta(hours=16)
"""A tournament day, from the check-in to the last final; then the player signs in again."""
SIGNED_IN = frozenset({"registered", "waitlisted", "standby", "checked_in"})
"""The registrations whose link signs in: a cancelled, withdrawn, excluded or no-show one's
link is revoked (its session ends too)."""
LEFT = frozenset({"withdrawn", "excluded"})
"""The registrations of players who left the tournament after its start (rule C-EXCL-1)."""


_ENDED = "player "
"""The kind of session, before its nonce, in the record of ended sessions."""


class PlayerClaims(TokenBoundClaims, frozen=True):
    """What a player's session cookie says, under the server's signature (its token check
    binds it to the registration's token)."""

    tournament: str
    registration: str


@dataclass(frozen=True, slots=True)
class PlayerSession:
    tournament_id: UUID
    registration_id: UUID
    player_id: UUID
    nonce: str


@dataclass(frozen=True, slots=True)
class OpenedPlayerSession:
    session: PlayerSession
    cookie: str
    """The signed value to set as the session cookie."""


class PlayerSessions(SignedSessions[PlayerClaims]):
    """Opens and checks players' sessions, and the CSRF tokens of their forms."""

    def __init__(
        self,
        views: Views,
        load: Callable[[UUID], Tournament],
        registrants: Registrants,
        clock: Clock,
        key: bytes,
        ended: EndedSessions,
    ) -> None:
        """``load`` reads a tournament from the event store; ``key`` is derived from the
        server's secret for this purpose only; ``ended`` records the sessions signed out of."""
        super().__init__(PlayerClaims, _ENDED, clock, key, ended)
        self._views = views
        self._load = load
        self._registrants = registrants
        self._tablets = TabletSessions(
            load, clock, hmac.digest(key, b"bgtd-table-tablet", "sha256"), ended
        )

    def open(self, token: str) -> OpenedPlayerSession:
        """A session for the registration holding ``token``; ``UnauthenticatedError`` for a
        token of no registration (a typo, a director's, a match's) or of a revoked one."""
        found = self._holder(token)
        if found is None:
            raise UnauthenticatedError("this link signs nobody in")
        tournament_id, registration_id, player_id, check = found
        expires_at = self._clock.now() + PLAYER_SESSION_LIFETIME
        claims = PlayerClaims(
            tournament=str(tournament_id),
            registration=str(registration_id),
            token_check=check,
            expires=int(expires_at.timestamp()),
            nonce=secrets.token_urlsafe(16),
        )
        session = PlayerSession(tournament_id, registration_id, player_id, claims.nonce)
        return OpenedPlayerSession(session, self._signer.sign(claims))

    def signs_in(self, token: str) -> bool:
        """Whether ``token`` would open a session (the link's page says so; it opens none)."""
        return self._holder(token) is not None

    def _holder(self, token: str) -> tuple[UUID, UUID, UUID, str] | None:
        """The tournament, registration and player of ``token``, with the session's check."""
        hashed = token_hash(token.strip()) if token.strip() else ""
        if not hashed:
            return None
        found = self._views.find(lambda db: player_tokens.registration_of(db, hashed))
        if found is None:
            return None
        tournament_id, registration_id = found
        check = self._signer.token_check(hashed)
        player_id = self._player(tournament_id, registration_id, check)
        if player_id is None:
            return None
        return tournament_id, registration_id, player_id, check

    def check(self, cookie: str | None) -> PlayerSession | None:
        """The session of ``cookie``: None when it is missing, forged, expired, or its
        registration no longer plays (checked in the event store, as the REST use case checks
        a player token)."""
        claims = self._live_claims(cookie)
        if claims is None:
            return None
        try:
            tournament_id = UUID(claims.tournament)
            registration_id = UUID(claims.registration)
        except ValueError:
            return None
        player_id = self._player(tournament_id, registration_id, claims.token_check)
        if player_id is None:
            return None
        return PlayerSession(tournament_id, registration_id, player_id, claims.nonce)

    def left(self, cookie: str | None) -> PlayerSession | None:
        """The session of ``cookie`` whose player has since left the tournament (withdrawn or
        excluded, rule C-EXCL-1): it acts for nothing, yet the report it sends is refused by the
        use case in its own words, not as an expired form."""
        claims = self._live_claims(cookie)
        if claims is None:
            return None
        try:
            tournament_id = UUID(claims.tournament)
            registration_id = UUID(claims.registration)
        except ValueError:
            return None
        player_id = self._player(tournament_id, registration_id, claims.token_check, LEFT)
        if player_id is None:
            return None
        return PlayerSession(tournament_id, registration_id, player_id, claims.nonce)

    def player_token(self, session: PlayerSession) -> str:
        """The session's player token, derived again on the server, for the use cases that
        take one (the same path as REST)."""
        return self._registrants.player_token(session.registration_id)

    def open_tablet(self, tournament_id: UUID, table: int) -> tuple[TableTablet, str]:
        """A tablet for table ``table`` of a running tournament (the director opens it there):
        the tablet and the signed value of its cookie (``service.people.tablets``)."""
        return self._tablets.open(tournament_id, table)

    def check_tablet(self, cookie: str | None) -> TableTablet | None:
        """The tablet of ``cookie``: None when it is missing, forged, expired or ended."""
        return self._tablets.check(cookie)

    def end_tablet(self, cookie: str | None) -> None:
        """The tablet's sign-out: it ends for every copy of its cookie."""
        self._tablets.end(cookie)

    def end_tablets_of(self, tournament_id: UUID) -> None:
        """The director ends every tablet of the tournament opened so far (a lost one)."""
        self._tablets.end_all(tournament_id)

    def side_token(self, tournament_id: UUID, player_id: UUID) -> str:
        """The player token of ``player_id``'s registration in the tournament, derived on the
        server: a tablet's command for that player's side is the player's own (as over REST).
        ``UnauthenticatedError`` when the registration no longer plays."""
        state = self._load(tournament_id)
        registration = next((r for r in state.registrations if r.player_id == player_id), None)
        if registration is None or registration.status not in SIGNED_IN:
            raise UnauthenticatedError("this player no longer plays in the tournament")
        return self._registrants.player_token(registration.id)

    def _player(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        check: str,
        statuses: frozenset[str] = SIGNED_IN,
    ) -> UUID | None:
        """The registration's player while its token is the one checked and it plays (or has
        one of ``statuses``)."""
        try:
            state = self._load(tournament_id)
        except TournamentNotFoundError:
            return None
        registration = next((r for r in state.registrations if r.id == registration_id), None)
        if registration is None or registration.status not in statuses:
            return None
        if not self._signer.checks_token(check, registration.token_hash):
            return None
        return registration.player_id


# --- tables' tablets ---------------------------------------------------------------------
# Tables' tablets: the device the director opens at a table, on which both players of the match
# there play (API.md "Playing at the table").
#
# A tablet is a signed session like the others (``service.people.signing``), under a key of its
# own, so a tablet's cookie is never a player's session nor the reverse. Its sign-out is recorded
# server-side, as every sign-out is: a copied cookie stops too. A lost tablet is ended by the
# director without the device: ``end_all`` ends every tablet of a tournament opened so far.
#
# ``end_all`` needs no list of the tablets opened. Each tablet carries the tournament's tablet
# *generation* at its opening; ending them all records the current generation as ended, and the
# next tablet opened gets the one after. The generations live in the record of ended sessions,
# kept for ``_GENERATION_KEPT`` (longer than any tournament day), and are probed in order: a
# tournament ends its tablets a handful of times at most.

TABLET_LIFETIME = PLAYER_SESSION_LIFETIME
_TABLET_ENDED = "tablet "
"""The kind of session, before its nonce, in the record of ended sessions."""
_GENERATION_KEPT = timedelta(days=400)


class TabletClaims(SignedClaims, frozen=True):
    """What a table's tablet cookie says, under the server's signature (a key of its own)."""

    tournament: str
    table: int
    generation: int = 0
    """The tournament's tablet generation at the opening: ``end_all`` ends it."""


@dataclass(frozen=True, slots=True)
class TableTablet:
    """A tablet the director opened at a table: it acts for both sides of the match there."""

    tournament_id: UUID
    table: int
    nonce: str


class TabletSessions(SignedSessions[TabletClaims]):
    """Opens, checks and ends tables' tablets; ``end`` (inherited) is one tablet's sign-out."""

    def __init__(
        self, load: Callable[[UUID], Tournament], clock: Clock, key: bytes, ended: EndedSessions
    ) -> None:
        """``load`` reads a tournament (a 404 for an unknown one)."""
        super().__init__(TabletClaims, _TABLET_ENDED, clock, key, ended)
        self._load = load

    def open(self, tournament_id: UUID, table: int) -> tuple[TableTablet, str]:
        """A tablet for table ``table`` of a tournament: the tablet and its cookie's value.
        It holds no token; the players' tokens are derived again for each command."""
        self._load(tournament_id)
        expires_at = self._clock.now() + TABLET_LIFETIME
        claims = TabletClaims(
            tournament=str(tournament_id),
            table=table,
            expires=int(expires_at.timestamp()),
            nonce=secrets.token_urlsafe(16),
            generation=self._generation(tournament_id),
        )
        return TableTablet(tournament_id, table, claims.nonce), self._signer.sign(claims)

    def check(self, cookie: str | None) -> TableTablet | None:
        """The tablet of ``cookie``: None when it is missing, forged, expired or ended (its
        own sign-out, or the director's ``end_all``)."""
        claims = self._live_claims(cookie)
        if claims is None:
            return None
        try:
            tournament_id = UUID(claims.tournament)
        except ValueError:
            return None
        if self._ended.has_ended(_generation_key(tournament_id, claims.generation)):
            return None
        return TableTablet(tournament_id, claims.table, claims.nonce)

    def end_all(self, tournament_id: UUID) -> None:
        """End every tablet of the tournament opened so far (a lost one included)."""
        now = self._clock.now()
        self._ended.end(
            _generation_key(tournament_id, self._generation(tournament_id)),
            int((now + _GENERATION_KEPT).timestamp()),
            int(now.timestamp()),
        )

    def _generation(self, tournament_id: UUID) -> int:
        generation = 0
        while self._ended.has_ended(_generation_key(tournament_id, generation)):
            generation += 1
        return generation


def _generation_key(tournament_id: UUID, generation: int) -> str:
    return f"tablets of {tournament_id} {generation}"
