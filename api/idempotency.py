"""Idempotency-Key: a retried POST answers the first response and changes nothing twice.

A phone at the venue loses its answer on a bad network and sends the command again: with the
same ``Idempotency-Key`` header the service replays the stored answer instead of registering a
player twice or applying a roll again. Keys are scoped by method, path and the caller's bearer
token (its hash); a key is pending while its first request runs, its answer is kept for any
status below 500 (a 5xx drops it, so the retry runs again) and expires after 24 hours.

An answer may show a person's data (a name in a match's state), so when this process learns of
an erasure (its own, or another process's read from the log) every stored answer loses its
body and the file is rewritten: a retry is then told that its request was carried out
(``idempotency-answer-erased``), and nothing runs twice.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from litestar.enums import ScopeType
from litestar.types import ASGIApp, HTTPRequestEvent, Message, Receive, ReceiveMessage, Scope, Send

from domain.errors import ConflictError, InvalidInputError
from service.clock import Clock
from service.persistence import create_private_files

HEADER = "idempotency-key"
LIFETIME = timedelta(hours=24)
MAX_KEY_LENGTH = 255
_REPLAYED_HEADERS = ("content-type", "etag", "location")


class IdempotencyKeyInUseError(ConflictError):
    """The first request with this key still runs: retry when it has answered."""

    type_slug = "idempotency-key-in-use"


class IdempotencyKeyReusedError(InvalidInputError):
    """The key was used for another request body: a new request needs a new key."""

    type_slug = "idempotency-key-reused"


class IdempotencyAnswerErasedError(ConflictError):
    """The request with this key was carried out; its answer was discarded when a person's
    data was erased (it might have shown it): read the current state instead."""

    type_slug = "idempotency-answer-erased"


@dataclass(frozen=True)
class StoredAnswer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class IdempotencyStore:
    """Keys and their answers in a small SQLite file of the data directory (0600: the answers
    hold player tokens)."""

    def __init__(self, path: Path) -> None:
        create_private_files(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA secure_delete=ON")  # a forgotten answer's bytes are zeroed
        self.erasures = 0
        """How many erasures this process has learnt of (an answer computed across one is
        not kept)."""
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS idempotency_keys ("
            " key TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,"
            " caller TEXT NOT NULL, request_hash TEXT NOT NULL, created_at TEXT NOT NULL,"
            " status INTEGER, headers TEXT, body BLOB,"
            " PRIMARY KEY (key, method, path, caller))"
        )
        # one process owns the data directory: a key still pending at the start belongs to a
        # request that died with the last process, and may be tried again
        self._db.execute("DELETE FROM idempotency_keys WHERE status IS NULL")

    def begin(
        self, scope: tuple[str, str, str, str], request_hash: str, now: datetime
    ) -> StoredAnswer | None:
        """Claim the key (``None``), or the answer stored for it; raise while it is pending."""
        with self._lock:
            self._db.execute(
                "DELETE FROM idempotency_keys WHERE created_at < ?",
                ((now - LIFETIME).isoformat(),),
            )
            row = self._db.execute(
                "SELECT request_hash, status, headers, body FROM idempotency_keys"
                " WHERE key = ? AND method = ? AND path = ? AND caller = ?",
                scope,
            ).fetchone()
            if row is None:
                self._db.execute(
                    "INSERT INTO idempotency_keys (key, method, path, caller, request_hash,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (*scope, request_hash, now.isoformat()),
                )
                return None
        stored_hash, status, headers, body = row
        if stored_hash != request_hash:
            raise IdempotencyKeyReusedError(
                "Idempotency-Key", "was used for another request: use a new key"
            )
        if status is None:
            raise IdempotencyKeyInUseError(
                "the first request with this Idempotency-Key is still running: retry later"
            )
        if body is None:
            raise IdempotencyAnswerErasedError(
                "the request with this Idempotency-Key was carried out; its answer was "
                "discarded when a person's data was erased: read the current state"
            )
        return StoredAnswer(status, [(k, v) for k, v in json.loads(headers)], bytes(body))

    def finish(
        self, scope: tuple[str, str, str, str], answer: StoredAnswer, *, erasures: int
    ) -> None:
        """Keep the answer; ``erasures``: the count when the request began (an erasure
        since then: the answer's body is not kept)."""
        with self._lock:
            if answer.status >= 500:
                self._drop(scope)
                return
            kept = erasures == self.erasures
            self._db.execute(
                "UPDATE idempotency_keys SET status = ?, headers = ?, body = ?"
                " WHERE key = ? AND method = ? AND path = ? AND caller = ?",
                (
                    answer.status,
                    json.dumps(answer.headers) if kept else None,
                    answer.body if kept else None,
                    *scope,
                ),
            )

    def forget_answers(self) -> None:
        """A person was erased: no kept answer may show their data again. Every answer loses
        its body (the key stays: its request still runs once), and the file and its log are
        rewritten, so that no old page holds one."""
        with self._lock:
            self.erasures += 1
            forgotten = self._db.execute(
                "UPDATE idempotency_keys SET headers = NULL, body = NULL WHERE body IS NOT NULL"
            ).rowcount
            if forgotten:
                self._db.execute("VACUUM")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def abandon(self, scope: tuple[str, str, str, str]) -> None:
        with self._lock:
            self._drop(scope)

    def _drop(self, scope: tuple[str, str, str, str]) -> None:
        self._db.execute(
            "DELETE FROM idempotency_keys WHERE key = ? AND method = ? AND path = ? AND caller = ?",
            scope,
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()


class IdempotencyMiddleware:
    """ASGI middleware: POSTs with an ``Idempotency-Key`` run once per key."""

    def __init__(self, app: ASGIApp, store: IdempotencyStore, clock: Clock) -> None:
        self.app = app
        self.store = store
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(_headers(scope))
        key = headers.get(HEADER)
        if scope["type"] != ScopeType.HTTP or scope["method"] != "POST" or key is None:
            await self.app(scope, receive, send)
            return
        if not 0 < len(key) <= MAX_KEY_LENGTH:
            raise InvalidInputError("Idempotency-Key", f"give 1 to {MAX_KEY_LENGTH} characters")
        body, receive = await _buffered(receive)
        # an anonymous caller is told apart by its address, never sharing another's answers
        client = scope.get("client") or ("", 0)
        who = headers.get("authorization") or f"anonymous {client[0]}"
        caller = hashlib.sha256(who.encode()).hexdigest()
        key_scope = (key, "POST", scope["path"], caller)
        erasures = self.store.erasures
        stored = self.store.begin(key_scope, hashlib.sha256(body).hexdigest(), self.clock.now())
        if stored is not None:
            await _replay(stored, send)
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
            self.store.abandon(key_scope)
            raise
        self.store.finish(
            key_scope, StoredAnswer(status, kept, b"".join(chunks)), erasures=erasures
        )


def _headers(scope: Scope) -> list[tuple[str, str]]:
    return [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope["headers"]]


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    """Read the whole request body, and a ``receive`` that hands it to the app again."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
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
