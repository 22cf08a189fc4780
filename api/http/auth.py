"""Roles from the bearer token: directors (the club's bootstrap token from the settings and the
named directors, rule C-DIR-1), players' tokens from the store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property, partial
from typing import Any, TypeVar
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import HttpMethod, Litestar, MediaType, Request, Response
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from litestar.handlers import HTTPRouteHandler
from litestar.handlers.base import BaseRouteHandler
from litestar.serialization import encode_json
from litestar.types import ASGIApp, Receive, Scope, Send

from api.http.schemas import ActingDirectorDep
from domain.errors import ForbiddenError
from domain.people.director import BOOTSTRAP, CLUB_WIDE, ActingDirector, Target
from service.bootstrap import Services
from service.storage.events import UnknownAggregateError

T = TypeVar("T")

_ACTING_DIRECTOR = "acting_director"
"""Where the director guards leave the director they found, for ``provide_acting_director``."""


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


def refuse_unknown_token(services: Services, token: str) -> None:
    """401 when nobody holds ``token`` (a typo, a token from another service): API.md keeps
    403 for a token that is somebody's without the right. Blocking (reads the views): from a
    handler run in a thread, or through ``refuse_unknown_token_in_thread``."""
    if not services.tokens.is_known(token):
        raise NotAuthorizedException(
            "unknown token: no director or player holds it", headers={"WWW-Authenticate": "Bearer"}
        )


async def refuse_unknown_token_in_thread(services: Services, token: str) -> None:
    """``refuse_unknown_token`` where it does not hold up the event loop (a shared store)."""
    await in_thread(services, partial(refuse_unknown_token, services, token))


@contextmanager
def unknown_token_refused(services: Services, token: str) -> Iterator[None]:
    """Around a use case run in a thread that checks a player's token: the 403 it raises for
    a token nobody holds becomes a 401 (the lookup only on that path, never on the happy one)."""
    try:
        yield
    except ForbiddenError:
        refuse_unknown_token(services, token)
        raise


def is_director_token(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    """Quick, from the local views: whether the token is a director's (not checked against a
    revocation in another process; for the rate limit, not for authority)."""
    services: Services = connection.app.state.services
    return services.directors.is_known_token(bearer_token(connection))


def director_of(connection: ASGIConnection[Any, Any, Any, Any]) -> ActingDirector | None:
    """The director sending the request, or None (a player's token, or none). Blocking: may
    read the event store; call it from a handler run in a thread (or through ``in_thread``).
    A named director's revoked or unknown token is a 401."""
    services: Services = connection.app.state.services
    return services.directors.acting(bearer_token(connection))


async def in_thread(services: Services, work: Callable[[], T]) -> T:
    """Run blocking ``work`` where it does not hold up the event loop (a shared store)."""
    if services.store.is_shared:
        return await anyio.to_thread.run_sync(work)
    return work()


async def _identify(connection: ASGIConnection[Any, Any, Any, Any]) -> ActingDirector:
    """The director sending the request: 401 without a token, 403 with another role's."""
    token = require_token(connection, "a director")
    services: Services = connection.app.state.services
    acting = (
        BOOTSTRAP
        if services.directors.is_bootstrap(token)
        else await in_thread(services, lambda: services.directors.acting(token))
    )
    if acting is None:
        # a player's token, valid elsewhere: the role is wrong (403); nobody's token: 401
        await refuse_unknown_token_in_thread(services, token)
        raise PermissionDeniedException("only a tournament director may do this")
    connection.state[_ACTING_DIRECTOR] = acting
    return acting


async def director_only(
    connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler
) -> None:
    """Guard: a director whose scope covers what the path names (rule C-DIR-1).

    The path's match, dispute, audited stream, tournament or season decides; a path naming
    none of them is the club's (a new season, the jobs): club directors only. 401 without a
    token, 403 with another role's token or outside the director's scope.
    """
    acting = await _identify(connection)
    if acting.scope.kind != "club":
        services: Services = connection.app.state.services
        params = dict(connection.path_params)
        target = await in_thread(services, lambda: _path_target(services, params))
        acting.authorize(target)


async def any_director(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard: any director; the use case checks the scope against the request's body."""
    await _identify(connection)


def provide_acting_director(request: Request[Any, Any, Any]) -> ActingDirector:
    """The director a director guard found (a dependency of director handlers)."""
    acting = request.state.get(_ACTING_DIRECTOR)
    if not isinstance(acting, ActingDirector):
        raise PermissionDeniedException("only a tournament director may do this")
    return acting


def provide_actor(acting_director: ActingDirectorDep) -> str:
    """The actor a director's command records: the director a director guard found."""
    return acting_director.actor


def _path_target(services: Services, params: dict[str, Any]) -> Target:
    directors = services.directors
    if isinstance(match_id := params.get("match_id"), UUID):
        return directors.match_target(match_id)
    if isinstance(dispute_id := params.get("dispute_id"), UUID):
        return directors.match_target(services.disputes.load(dispute_id).match_id)
    if isinstance(stream_id := params.get("stream_id"), UUID):
        first = services.store.stream(stream_id, until_version=1)
        if not first:
            raise UnknownAggregateError(f"no record with id {stream_id}")
        return directors.stream_target(first[0])
    if isinstance(tournament_id := params.get("tournament_id"), UUID):
        return directors.tournament_target(tournament_id)
    if isinstance(season_id := params.get("season_id"), UUID):
        return directors.season_target(season_id)
    return CLUB_WIDE


DIRECTOR_GUARDS = (director_only, any_director)


class TokenRequired:
    """Guard: some bearer token (401 without); the handler decides whose it must be.

    The OpenAPI document declares bearer security on the operations guarded by this or by a
    director guard (api/http/openapi.py).
    """

    def __init__(self, whose: str) -> None:
        self.whose = whose

    async def __call__(
        self, connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler
    ) -> None:
        # a coroutine: Litestar runs a plain guard in a worker thread, a thread hand-off per
        # match command for a look at one header
        require_token(connection, self.whose)


MATCH_PLAYER = TokenRequired("a player token of this match (or a director)")
REGISTERED_PLAYER = TokenRequired("the player token of the registration (or a director)")


class _SelfGuardedRouteHandler(HTTPRouteHandler):
    """A route handler whose guards are handed the handler itself, and whose Struct answers
    are encoded straight into their ASGI answer.

    Litestar hands each guard a copy of the handler (``copy.copy`` of its many attributes:
    about 12 microseconds per request, 2 % of a match command's CPU), so that a guard may
    change it unseen by other requests. No guard of this service reads or changes the
    handler.

    Litestar answers a returned value through a ``Response`` that it then turns into an
    ``ASGIResponse`` (its headers kept in a mutable multi-dict, the body encoded by a new
    msgspec encoder each time): about 20 microseconds of a match command. A handler with no
    headers, cookies, background task, DTO, type encoders, ``after_request`` hook or other
    response class of its own answers a Struct here with the same status, the same two
    headers in the same order and the same bytes (``JsonAnswer``); anything else as before."""

    async def authorize_connection(self, connection: ASGIConnection[Any, Any, Any, Any]) -> None:
        for guard in self.resolve_guards():
            await guard(connection, self)  # type: ignore[misc]

    async def to_response(
        self, app: Litestar, data: Any, request: Request[Any, Any, Any]
    ) -> ASGIApp:
        if isinstance(data, msgspec.Struct) and self._answers_plain_json:
            return JsonAnswer(self.status_code, encode_json(data))
        return await super().to_response(app, data, request)

    @cached_property
    def _answers_plain_json(self) -> bool:
        """Whether Litestar would answer a Struct with only its JSON and the two headers."""
        return (
            self.media_type == MediaType.JSON
            and self.resolve_response_class() is Response
            and not self.resolve_response_headers()
            and not self.resolve_response_cookies()
            and not self.resolve_type_encoders()
            and self.resolve_return_dto() is None
            and self.background is None
            and not any(layer.after_request for layer in self.ownership_layers)
        )


class JsonAnswer:
    """An ASGI answer of JSON bytes, as Litestar's ``ASGIResponse`` sends a JSON body: the
    status, ``content-type`` then ``content-length``, then the body in one message."""

    __slots__ = ("body", "status")

    def __init__(self, status: int, body: bytes) -> None:
        self.status = status
        self.body = body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", b"%d" % len(self.body)),
        ]
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": self.body, "more_body": False})


def guarded_post(path: str, **options: Any) -> HTTPRouteHandler:
    """``post`` for the hottest guarded path, the match commands: the guards cost no copy of
    the handler, and a Struct answer no ``Response`` (``_SelfGuardedRouteHandler``)."""
    return _SelfGuardedRouteHandler(path, http_method=HttpMethod.POST, **options)
