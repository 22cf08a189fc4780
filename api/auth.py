"""Roles from the bearer token: the director's token from the settings, players' from the store."""

from __future__ import annotations

import hmac
from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler

from service.bootstrap import Services


def bearer_token(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require_token(connection: ASGIConnection[Any, Any, Any, Any], whose: str) -> str:
    """The bearer token, or 401 saying ``whose`` token is required."""
    token = bearer_token(connection)
    if token is None:
        raise NotAuthorizedException(
            f"{whose} token is required", headers={"WWW-Authenticate": "Bearer"}
        )
    return token


def is_director(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    services: Services = connection.app.state.services
    expected = services.settings.effective_director_token
    token = bearer_token(connection)
    return bool(expected and token and hmac.compare_digest(token.encode(), expected.encode()))


def director_only(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: the director's token; 401 without a token, 403 with another one.

    Another token may well be a player's, valid elsewhere: then the role is wrong (403).
    """
    require_token(connection, "a director")
    if not is_director(connection):
        raise PermissionDeniedException("only a tournament director may do this")


class TokenRequired:
    """Guard: some bearer token (401 without); the handler decides whose it must be.

    The OpenAPI document declares bearer security on the operations guarded by this or by
    ``director_only`` (api/openapi.py).
    """

    def __init__(self, whose: str) -> None:
        self.whose = whose

    def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        require_token(connection, self.whose)


MATCH_PLAYER = TokenRequired("a player token of this match (or a director)")
REGISTERED_PLAYER = TokenRequired("the player token of the registration (or a director)")
