"""What a session cookie carries, signed: the one signature, token check and CSRF token of the
director's console sessions and the players' table-page sessions.

Each kind of session has its own key, derived from the server's secret for it alone, so a
cookie of one kind is never valid as the other. A cookie is ``<payload>.<signature>``, both
base64url without padding; the payload is the claims as JSON.
"""

from __future__ import annotations

import base64
import hmac
from typing import Generic, TypeVar

import msgspec

from service.clock import Clock
from service.storage.ended_sessions import EndedSessions

C = TypeVar("C")


class CookieSigner:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def sign(self, claims: msgspec.Struct) -> str:
        payload = msgspec.json.encode(claims)
        return f"{_b64(payload)}.{_b64(self._digest(payload))}"

    def claims(self, cookie: str | None, kind: type[C]) -> C | None:
        """The claims of ``cookie`` if this key signed it, else None (missing, forged, cut)."""
        if not cookie or cookie.count(".") != 1:
            return None
        body, signature = cookie.split(".")
        try:
            payload = _unb64(body)
            if not hmac.compare_digest(self._digest(payload), _unb64(signature)):
                return None
            return msgspec.json.decode(payload, type=kind)
        except (ValueError, msgspec.DecodeError):
            return None

    def token_check(self, hashed: str) -> str:
        """A keyed digest of a token's hash: binds a session to the token it was opened with,
        without the cookie holding the token or its hash."""
        return hmac.digest(self._key, f"token {hashed}".encode(), "sha256").hex()[:32]

    def checks_token(self, check: str, hashed: str) -> bool:
        return hmac.compare_digest(check, self.token_check(hashed))

    def csrf_token(self, nonce: str) -> str:
        """The CSRF token of every form of a session (or of a sign-in form's own nonce)."""
        return hmac.digest(self._key, f"csrf {nonce}".encode(), "sha256").hex()

    def is_csrf_token(self, nonce: str | None, sent: object) -> bool:
        if not nonce or not isinstance(sent, str):
            return False
        return hmac.compare_digest(self.csrf_token(nonce).encode(), sent.encode())

    def _digest(self, payload: bytes) -> bytes:
        return hmac.digest(self._key, payload, "sha256")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SignedClaims(msgspec.Struct, frozen=True):
    """What every session's claims say besides whose session it is (a cookie holds them as a
    JSON object: a field is found by its name)."""

    expires: int
    """Unix seconds."""
    nonce: str


class TokenBoundClaims(SignedClaims, frozen=True):
    """The claims of a session opened with a token (a director's, a player's)."""

    token_check: str
    """A keyed digest of the token's hash: binds the session to the token it was opened with."""


E = TypeVar("E", bound=SignedClaims)


class SignedSessions(Generic[E]):
    """One kind of session (a director's, a player's): its cookies signed under the kind's own
    key, good until they expire or are signed out of; a sign-out is recorded in ``ended``
    under the kind's name and the session's nonce."""

    def __init__(
        self, claims: type[E], kind: str, clock: Clock, key: bytes, ended: EndedSessions
    ) -> None:
        self._claims = claims
        self._kind = kind
        self._clock = clock
        self._signer = CookieSigner(key)
        self._ended = ended

    def _live_claims(self, cookie: str | None) -> E | None:
        """The claims of ``cookie``: None when it is missing, forged, expired or signed out."""
        claims = self._signer.claims(cookie, self._claims)
        if claims is None or claims.expires <= self._clock.now().timestamp():
            return None
        if self._ended.has_ended(self._kind + claims.nonce):
            return None
        return claims

    def end(self, cookie: str | None) -> None:
        """Sign-out: the session of ``cookie`` ends for every copy of the cookie, in every
        process of the store, until it would have expired anyway."""
        claims = self._signer.claims(cookie, self._claims)
        if claims is not None:
            now = int(self._clock.now().timestamp())
            self._ended.end(self._kind + claims.nonce, claims.expires, now)

    def csrf_token(self, nonce: str) -> str:
        """The CSRF token of every form of a session (or of the sign-in form's own nonce)."""
        return self._signer.csrf_token(nonce)

    def is_csrf_token(self, nonce: str | None, sent: object) -> bool:
        return self._signer.is_csrf_token(nonce, sent)
