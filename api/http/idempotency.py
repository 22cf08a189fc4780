"""Idempotency-Key: a retried POST answers the first response and changes nothing twice.

A phone at the venue loses its answer on a bad network and sends the command again: with the
same ``Idempotency-Key`` header the service replays the stored answer instead of registering a
player twice or applying a roll again. Keys are scoped by method, path and the caller's bearer
token (its hash); a key is pending while its first request runs, its answer is kept for any
status below 500 (a 5xx drops it, so the retry runs again) and expires after 24 hours.

The keys and their answers are kept by ``service/storage/answers.py`` (a file beside an SQLite
store, a table of a PostgreSQL store's schema), sealed, and forgotten when a person is erased.
"""

from __future__ import annotations

import functools
import hashlib
import logging

import anyio
from litestar.enums import ScopeType
from litestar.types import ASGIApp, HTTPRequestEvent, Message, Receive, ReceiveMessage, Scope, Send

from domain.errors import InvalidInputError
from service.clock import Clock
from service.storage.answers import AnswerStore, StoredAnswer

log = logging.getLogger(__name__)

HEADER = "idempotency-key"
MAX_KEY_LENGTH = 255
_REPLAYED_HEADERS = ("content-type", "etag", "location")


class IdempotencyMiddleware:
    """ASGI middleware: POSTs with an ``Idempotency-Key`` run once per key."""

    def __init__(self, app: ASGIApp, store: AnswerStore, clock: Clock) -> None:
        self.app = app
        self.store = store
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        key = _header(scope, HEADER)
        if key is None:
            await self.app(scope, receive, send)
            return
        if not 0 < len(key) <= MAX_KEY_LENGTH:
            raise InvalidInputError("Idempotency-Key", f"give 1 to {MAX_KEY_LENGTH} characters")
        body, receive = await _buffered(receive)
        if body is None:
            # A phone that lost its network sent part of the body: run nothing and claim
            # nothing, so that its retry with the whole body runs once.
            return
        # an anonymous caller is told apart by its address, never sharing another's answers
        client = scope.get("client") or ("", 0)
        who = _header(scope, "authorization") or f"anonymous {client[0]}"
        caller = hashlib.sha256(who.encode()).hexdigest()
        key_scope = (key, "POST", scope["path"], caller)
        erasures = self.store.erasures
        # The store's statements run in a worker thread: a pool or a file lock may make them
        # wait, and the event loop serves every other request meanwhile.
        claim = await anyio.to_thread.run_sync(
            self.store.begin, key_scope, hashlib.sha256(body).hexdigest(), self.clock.now()
        )
        if isinstance(claim, StoredAnswer):
            await _replay(claim, send)
            return
        status = 500
        kept: list[tuple[str, str]] = []
        chunks: list[bytes] = []

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                for name, value in message.get("headers", []):
                    if name.decode("latin-1").lower() in _REPLAYED_HEADERS:
                        kept.append((name.decode("latin-1"), value.decode("latin-1")))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        except BaseException:
            # the key is freed, also when the request was cancelled (a shutdown)
            with anyio.CancelScope(shield=True):
                try:
                    await anyio.to_thread.run_sync(self.store.abandon, claim)
                except Exception:  # the request's own error is the one to tell
                    log.exception("Idempotency-Key %r was not freed", key)
            raise
        answer = StoredAnswer(status, kept, b"".join(chunks))
        try:
            await anyio.to_thread.run_sync(
                functools.partial(self.store.finish, claim, answer, erasures=erasures)
            )
        except Exception:
            # The client has its answer; only its replay is lost. The key stays pending, so
            # a retry is told to wait rather than run the request again: on PostgreSQL until
            # PENDING_TIMEOUT, on SQLite until the next start or LIFETIME; after that a retry
            # runs the request again.
            log.exception("the answer to Idempotency-Key %r was not kept", key)


def _header(scope: Scope, name: str) -> str | None:
    """The last value of the header ``name`` (lower case), or None. Every POST asks for the
    key: the names are compared as bytes, and only the value found is decoded."""
    wanted = name.encode("latin-1")
    found = None
    for header, value in scope["headers"]:
        if header.lower() == wanted:
            found = value
    return None if found is None else found.decode("latin-1")


async def _buffered(receive: Receive) -> tuple[bytes | None, Receive]:
    """Read the whole request body, and a ``receive`` that hands it to the app again; ``None``
    if the client went before it had sent it all."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None, receive
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    sent = False

    async def replaying_receive() -> ReceiveMessage:
        nonlocal sent
        if not sent:
            sent = True
            first: HTTPRequestEvent = {"type": "http.request", "body": body, "more_body": False}
            return first
        return await receive()

    return body, replaying_receive


async def _replay(answer: StoredAnswer, send: Send) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers]
    headers.append((b"idempotent-replayed", b"true"))
    headers.append((b"content-length", str(len(answer.body)).encode()))
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": answer.body, "more_body": False})
