"""Tables' tablets: the device the director opens at a table, on which both players of the match
there play (API.md "Playing at the table").

A tablet is a signed session like the others (``service.people.signing``), under a key of its
own, so a tablet's cookie is never a player's session nor the reverse. Its sign-out is recorded
server-side, as every sign-out is: a copied cookie stops too. A lost tablet is ended by the
director without the device: ``end_all`` ends every tablet of a tournament opened so far.

``end_all`` needs no list of the tablets opened. Each tablet carries the tournament's tablet
*generation* at its opening; ending them all records the current generation as ended, and the
next tablet opened gets the one after. The generations live in the record of ended sessions,
kept for ``_GENERATION_KEPT`` (longer than any tournament day), and are probed in order: a
tournament ends its tablets a handful of times at most.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

import msgspec

from domain.tournament import Tournament
from service.clock import Clock
from service.people.signing import SignedSessions
from service.storage.ended_sessions import EndedSessions

TABLET_LIFETIME = timedelta(hours=16)
"""A tournament day, as a player's session (``PLAYER_SESSION_LIFETIME``)."""
_ENDED = "tablet "
"""The kind of session, before its nonce, in the record of ended sessions."""
_GENERATION_KEPT = timedelta(days=400)


class TabletClaims(msgspec.Struct, frozen=True):
    """What a table's tablet cookie says, under the server's signature (a key of its own)."""

    tournament: str
    table: int
    expires: int
    nonce: str
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
        super().__init__(TabletClaims, _ENDED, clock, key, ended)
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
