"""The director's console sessions: a director signs in once with their token and then acts
through the console's pages with a session, as they would over REST with the token.

A session is a signed value, not a server-side record: every process of one store can check
it (they share the server's secret). Only a sign-out is recorded on the server
(``service.storage.ended_sessions``): a copy of the cookie taken before it stops working too.
It holds no token: only who signed in, a keyed check of their token's hash, its expiry and a random
nonce (the session's CSRF tokens derive from it). Every request checks the director again
through ``DirectorService``, as the REST guards do: a revoked named director's session stops
working at once, and so does a bootstrap session once the club's token changes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from domain.errors import UnauthenticatedError
from domain.people.director import BOOTSTRAP, ActingDirector, DirectorNotFoundError
from domain.people.tokens import token_hash
from service.clock import Clock
from service.people.directors import DirectorService
from service.people.signing import SignedSessions, TokenBoundClaims
from service.storage.ended_sessions import EndedSessions

SESSION_LIFETIME = timedelta(hours=12)
"""A console session lasts a tournament day; then the director signs in again."""
_BOOTSTRAP = "bootstrap"
_ENDED = "director "
"""The kind of session, before its nonce, in the record of ended sessions."""


class SessionClaims(TokenBoundClaims, frozen=True):
    """What a session cookie says, under the server's signature."""

    who: str
    """``bootstrap`` or a named director's id."""


@dataclass(frozen=True, slots=True)
class Session:
    acting: ActingDirector
    nonce: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Opened:
    session: Session
    cookie: str
    """The signed value to set as the session cookie."""


class DirectorSessions(SignedSessions[SessionClaims]):
    """Opens and checks directors' console sessions, and the CSRF tokens of their forms."""

    def __init__(
        self, directors: DirectorService, clock: Clock, key: bytes, ended: EndedSessions
    ) -> None:
        """``key`` is derived from the server's secret for this purpose only; ``ended``
        records the sessions signed out of."""
        super().__init__(SessionClaims, _ENDED, clock, key, ended)
        self._directors = directors

    def open(self, token: str) -> Opened:
        """A session for the director holding ``token``; ``UnauthenticatedError`` for a
        token that is no director's (a player's, a typo) or a revoked director's."""
        acting = self._directors.acting(token.strip()) if token.strip() else None
        if acting is None:
            raise UnauthenticatedError("this is not a director token")
        who = _BOOTSTRAP if acting.director_id is None else str(acting.director_id)
        expires_at = self._clock.now() + SESSION_LIFETIME
        claims = SessionClaims(
            who=who,
            token_check=self._signer.token_check(token_hash(token.strip())),
            expires=int(expires_at.timestamp()),
            nonce=secrets.token_urlsafe(16),
        )
        session = Session(acting=acting, nonce=claims.nonce, expires_at=expires_at)
        return Opened(session=session, cookie=self._signer.sign(claims))

    def check(self, cookie: str | None) -> Session | None:
        """The session of ``cookie``: None when it is missing, forged, expired, or its
        director is revoked (checked in the event store, as the REST guards check a token)."""
        claims = self._live_claims(cookie)
        if claims is None:
            return None
        acting = self._acting(claims)
        if acting is None:
            return None
        expires_at = datetime.fromtimestamp(claims.expires, tz=self._clock.now().tzinfo)
        return Session(acting=acting, nonce=claims.nonce, expires_at=expires_at)

    def _acting(self, claims: SessionClaims) -> ActingDirector | None:
        if claims.who == _BOOTSTRAP:
            expected = self._directors.bootstrap_token_hash()
            if expected is None or not self._matches(claims, expected):
                return None
            return BOOTSTRAP
        try:
            director_id = UUID(claims.who)
        except ValueError:
            return None
        try:
            state = self._directors.load(director_id)
        except DirectorNotFoundError:
            return None
        if not state.is_active or not self._matches(claims, state.token_hash):
            return None
        return state.acting()

    def _matches(self, claims: SessionClaims, hashed: str) -> bool:
        return self._signer.checks_token(claims.token_check, hashed)
