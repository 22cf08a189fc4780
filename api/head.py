"""HEAD wherever GET is answered (RFC 9110, 9.3.2): the GET's status and headers, no body.

Litestar routes HEAD only to handlers declared for it. Declaring every GET handler for HEAD
as well would add a HEAD operation to each path of the OpenAPI document, and Litestar refuses
a body from a HEAD handler; so the request runs as its GET, before routing, and only the
answer's head reaches the client (its Content-Length still tells the GET's length, as HTTP
allows). A path without GET stays 405, an unknown one 404, a guarded one 401. The Allow
header of a 405 or an OPTIONS answer names HEAD beside GET.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, cast

import anyio
from litestar import Litestar
from litestar.enums import ScopeType
from litestar.routes import HTTPRoute
from litestar.types import (
    HTTPDisconnectEvent,
    HTTPScope,
    LifeSpanReceive,
    LifeSpanScope,
    LifeSpanSend,
    Message,
    Receive,
    ReceiveMessage,
    Scope,
    Send,
)

_GONE: HTTPDisconnectEvent = {"type": "http.disconnect"}


def with_head(allowed: str) -> str:
    """An Allow header's methods with HEAD beside GET: Litestar's routing knows only the
    declared handlers, and HEAD is answered wherever GET is."""
    methods = [method.strip() for method in allowed.split(",") if method.strip()]
    if "GET" in methods and "HEAD" not in methods:
        methods.append("HEAD")
    return ", ".join(methods)


def _allowing_head(send: Send, scope: HTTPScope, methods: Mapping[str, str]) -> Send:
    """``send`` with the Allow header of the answer's head naming every method of the path
    (``methods``, by the path's template) and HEAD beside GET.

    Litestar's OPTIONS answer names only the methods of the first handler declared for a path
    (``OPTIONS, POST`` for the seasons, whose GET another handler serves); the router has put
    the path's template into the scope by the time the answer starts."""

    async def send_allowing_head(message: Message) -> None:
        if message["type"] == "http.response.start":
            every = methods.get(cast(dict[str, Any], scope).get("path_template", ""))
            headers = [
                (name, with_head(every or value.decode("latin-1")).encode("latin-1"))
                if name.lower() == b"allow"
                else (name, value)
                for name, value in message.get("headers", [])
            ]
            message = {**message, "headers": headers}
        await send(message)

    return send_allowing_head


class ServiceApp(Litestar):
    """The service's Litestar application: it answers HEAD as the GET it asks about."""

    async def __call__(
        self,
        scope: Scope | LifeSpanScope,
        receive: Receive | LifeSpanReceive,
        send: Send | LifeSpanSend,
    ) -> None:
        method = cast(HTTPScope, scope)["method"] if scope["type"] == ScopeType.HTTP else None
        if method == "HEAD":
            await self._head(cast(HTTPScope, scope), cast(Receive, receive), cast(Send, send))
            return
        if method == "OPTIONS":
            send = _allowing_head(cast(Send, send), cast(HTTPScope, scope), self._methods)
        await super().__call__(scope, receive, send)

    @cached_property
    def _methods(self) -> dict[str, str]:
        """Every path's methods, by its template, as an Allow header lists them."""
        return {
            route.path_format: ", ".join(sorted(route.methods))
            for route in self.routes
            if isinstance(route, HTTPRoute)
        }

    async def _head(self, scope: HTTPScope, receive: Receive, send: Send) -> None:
        answered = anyio.Event()

        async def send_head(message: Message) -> None:
            if answered.is_set():
                return  # the GET's body
            await send(message)
            if message["type"] == "http.response.start":
                # the head is all a HEAD answer has: end it now, so that a stream (the live
                # feed) need not send a first part first
                answered.set()
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def receive_until_answered() -> ReceiveMessage:
            # A streaming GET runs until it hears that its client went: once the head is out,
            # that is what it hears.
            if answered.is_set():
                return _GONE
            received: list[ReceiveMessage] = []
            async with anyio.create_task_group() as group:

                async def forward() -> None:
                    received.append(await receive())
                    group.cancel_scope.cancel()

                group.start_soon(forward)
                await answered.wait()
                group.cancel_scope.cancel()
            return received[0] if received else _GONE

        as_get = cast(HTTPScope, {**scope, "method": "GET"})
        await super().__call__(as_get, receive_until_answered, send_head)
