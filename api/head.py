"""HEAD wherever GET is answered (RFC 9110, 9.3.2): the GET's status and headers, no body.

Litestar routes HEAD only to handlers declared for it. Declaring every GET handler for HEAD
as well would add a HEAD operation to each path of the OpenAPI document, and Litestar refuses
a body from a HEAD handler; so the request runs as its GET, before routing, and only the
answer's head reaches the client (its Content-Length still tells the GET's length, as HTTP
allows). A path without GET stays 405, an unknown one 404, a guarded one 401.
"""

from __future__ import annotations

from typing import cast

import anyio
from litestar import Litestar
from litestar.enums import ScopeType
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


class ServiceApp(Litestar):
    """The service's Litestar application: it answers HEAD as the GET it asks about."""

    async def __call__(
        self,
        scope: Scope | LifeSpanScope,
        receive: Receive | LifeSpanReceive,
        send: Send | LifeSpanSend,
    ) -> None:
        if scope["type"] == ScopeType.HTTP and cast(HTTPScope, scope)["method"] == "HEAD":
            await self._head(cast(HTTPScope, scope), cast(Receive, receive), cast(Send, send))
            return
        await super().__call__(scope, receive, send)

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
