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


def is_director(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    services: Services = connection.app.state.services
    expected = services.settings.effective_director_token
    token = bearer_token(connection)
    return bool(expected and token and hmac.compare_digest(token, expected))


def director_only(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: a valid director token, else 401 (no token) or 403 (another token)."""
    if bearer_token(connection) is None:
        raise NotAuthorizedException(
            "a director token is required", headers={"WWW-Authenticate": "Bearer"}
        )
    if not is_director(connection):
        raise PermissionDeniedException("only a tournament director may do this")
