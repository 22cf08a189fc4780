"""Whose a bearer token is, as far as 401 or 403 goes (API.md): a token nobody holds is
unauthenticated (401); a director's or a player's token without the right is forbidden (403)."""

from __future__ import annotations

from domain.people.tokens import token_hash
from projections import tokens as player_tokens
from projections.runner import Views
from service.people.directors import DirectorService


class TokenService:
    def __init__(self, views: Views, directors: DirectorService) -> None:
        self._views = views
        self._directors = directors

    def is_known(self, token: str) -> bool:
        """Whether anybody holds ``token``: the club's director token, a named director's
        (revoked too: its holder is told so elsewhere) or a player's, of a registration or a
        match. Blocking: reads the views, catching up once on a miss (a token just handed out
        by another process)."""
        if self._directors.is_known_token(token):
            return True
        hashed = token_hash(token)
        found = self._views.find(lambda db: player_tokens.holds(db, hashed) or None)
        return found is not None
