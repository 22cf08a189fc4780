"""Idempotency-Key: a retried POST answers the first response and changes nothing twice.

A phone at the venue loses its answer on a bad network and sends the command again: with the
same ``Idempotency-Key`` header the service replays the stored answer instead of registering a
player twice or applying a roll again. Keys are scoped by method, path and the caller's bearer
token (its hash); a key is pending while its first request runs, its answer is kept for any
status below 500 (a 5xx drops it, so the retry runs again) and expires after 24 hours.

Where the keys live follows the event store: beside an SQLite store (one process) in a small
SQLite file of the data directory (``IdempotencyStore``); on PostgreSQL in a table of the
store's schema (``PostgresIdempotencyStore``), so that a retry that reaches another process of
the store answers the first answer too. There the claim of a key is one atomic insert, and a
key left pending by a process that died may be claimed again after ``PENDING_TIMEOUT``.

An answer may show a person's data (a name in a match's state), so when a process learns of
an erasure (its own, or another process's read from the log) every stored answer loses its
body and the file (on PostgreSQL the table) is vacuumed: a retry is then told that its request
was carried out (``idempotency-answer-erased``), and nothing runs twice. An answer computed
across an erasure that its process has learnt of is not kept. Kept answers are sealed
(``AnswerSeal``): they may hold bearer tokens.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from uuid import UUID, uuid4

import anyio
from litestar.enums import ScopeType
from litestar.types import ASGIApp, HTTPRequestEvent, Message, Receive, ReceiveMessage, Scope, Send

from domain.errors import ConflictError, InvalidInputError
from service.clock import Clock
from service.persistence import create_private_files
from service.personal import open_sealed, seal_bytes

if TYPE_CHECKING:
    from eventsourcing.postgres import PostgresDatastore

    from service.bootstrap import Services

log = logging.getLogger(__name__)

HEADER = "idempotency-key"
LIFETIME = timedelta(hours=24)
PENDING_TIMEOUT = timedelta(minutes=10)
"""On PostgreSQL a key pending for longer was left by a process that died while its request ran,
and may be claimed again: a request runs for seconds at most once its body has arrived (the
middleware reads the whole body before it claims the key). The SQLite store instead drops its
pending keys at the start, owning its file; a PostgreSQL store's other processes may be running
theirs."""
TABLE = "idempotency_keys"
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


KeyScope = tuple[str, str, str, str]
"""An idempotency key with what it is scoped by: key, method, path and the caller's hash."""


@dataclass(frozen=True)
class Claim:
    """A key held by the request that runs under it: what finishes or abandons it."""

    scope: KeyScope
    token: UUID | None = None
    """On PostgreSQL the claim's own id: a claim taken over (``PENDING_TIMEOUT``) is no longer
    this request's to finish or abandon, and a later claim of the same key is another's."""


class AnswerStore(Protocol):
    """Keys and their answers: the middleware's view of either store."""

    erasures: int
    """How many erasures this process has learnt of (an answer computed across one is not
    kept)."""

    def begin(self, scope: KeyScope, request_hash: str, now: datetime) -> Claim | StoredAnswer:
        """Claim the key, or the answer stored for it; raise while it is pending."""
        ...

    def finish(self, claim: Claim, answer: StoredAnswer, *, erasures: int) -> None:
        """Keep the answer; ``erasures``: the count when the request began (an erasure
        since then: the answer's body is not kept)."""
        ...

    def forget_answers(self) -> None:
        """A person was erased: no kept answer may show their data again."""
        ...

    def abandon(self, claim: Claim) -> None:
        """The request failed without an answer: its retry runs again."""
        ...

    def close(self) -> None: ...


class AnswerSeal:
    """Kept answers are sealed (AES-GCM under a key derived from the server's secret): they may
    hold bearer tokens (a registration's player token, a new director's), which the event store
    keeps only as hashes, so a copy of the keys' file or table alone shows none. Each body is
    bound to its key's scope: no row's body can be replayed for another key."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def seal(self, scope: KeyScope, body: bytes) -> bytes:
        return seal_bytes(self._key, body, _bound(scope))

    def open(self, scope: KeyScope, sealed: bytes | None) -> bytes | None:
        """The body, or ``None`` for none kept or one that does not open (an erased answer, or
        one kept unsealed by an earlier version: both are discarded answers)."""
        return None if sealed is None else open_sealed(self._key, sealed, _bound(scope))


_SEALED_VERSION = 1
"""The SQLite file's ``user_version`` once its answers are sealed: a file of an earlier
version loses its unsealed answers (their keys stay) when first opened."""


def _bound(scope: KeyScope) -> bytes:
    return json.dumps(scope).encode()


def _answer_of(
    request_hash: str, stored_hash: str, status: int | None, headers: str | None, body: bytes | None
) -> StoredAnswer:
    """The answer kept for a key claimed before (its body opened); raise if it cannot be
    replayed."""
    if stored_hash != request_hash:
        raise IdempotencyKeyReusedError(
            "Idempotency-Key", "was used for another request: use a new key"
        )
    if status is None:
        raise IdempotencyKeyInUseError(
            "the first request with this Idempotency-Key is still running: retry later"
        )
    if headers is None or body is None:
        raise IdempotencyAnswerErasedError(
            "the request with this Idempotency-Key was carried out; its answer was "
            "discarded when a person's data was erased: read the current state"
        )
    return StoredAnswer(status, [(k, v) for k, v in json.loads(headers)], body)


class IdempotencyStore:
    """Keys and their answers in a small SQLite file of the data directory (0600), for a
    process that owns its SQLite event store."""

    def __init__(self, path: Path, seal: AnswerSeal) -> None:
        create_private_files(path)
        self._seal = seal
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA secure_delete=ON")  # a forgotten answer's bytes are zeroed
        self.erasures = 0
        self._db.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} ("
            " key TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,"
            " caller TEXT NOT NULL, request_hash TEXT NOT NULL, created_at TEXT NOT NULL,"
            " status INTEGER, headers TEXT, body BLOB,"
            " PRIMARY KEY (key, method, path, caller))"
        )
        # one process owns the data directory: a key still pending at the start belongs to a
        # request that died with the last process, and may be tried again
        self._db.execute(f"DELETE FROM {TABLE} WHERE status IS NULL")
        if self._db.execute("PRAGMA user_version").fetchone()[0] < _SEALED_VERSION:
            self._forget_all()
            self._db.execute(f"PRAGMA user_version = {_SEALED_VERSION}")

    def begin(self, scope: KeyScope, request_hash: str, now: datetime) -> Claim | StoredAnswer:
        with self._lock:
            self._db.execute(
                f"DELETE FROM {TABLE} WHERE created_at < ?", ((now - LIFETIME).isoformat(),)
            )
            row = self._db.execute(
                f"SELECT request_hash, status, headers, body FROM {TABLE}"
                " WHERE key = ? AND method = ? AND path = ? AND caller = ?",
                scope,
            ).fetchone()
            if row is None:
                self._db.execute(
                    f"INSERT INTO {TABLE} (key, method, path, caller, request_hash,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (*scope, request_hash, now.isoformat()),
                )
                return Claim(scope)
        stored_hash, status, headers, body = row
        return _answer_of(request_hash, stored_hash, status, headers, self._seal.open(scope, body))

    def finish(self, claim: Claim, answer: StoredAnswer, *, erasures: int) -> None:
        scope = claim.scope
        with self._lock:
            if answer.status >= 500:
                self._delete(scope)
                return
            kept = erasures == self.erasures
            self._db.execute(
                f"UPDATE {TABLE} SET status = ?, headers = ?, body = ?"
                " WHERE key = ? AND method = ? AND path = ? AND caller = ?",
                (
                    answer.status,
                    json.dumps(answer.headers) if kept else None,
                    self._seal.seal(scope, answer.body) if kept else None,
                    *scope,
                ),
            )

    def forget_answers(self) -> None:
        """Every answer loses its body (the key stays: its request still runs once), and the
        file and its log are rewritten, so that no old page holds one."""
        with self._lock:
            self.erasures += 1
            self._forget_all()

    def _forget_all(self) -> None:
        forgotten = self._db.execute(
            f"UPDATE {TABLE} SET headers = NULL, body = NULL WHERE body IS NOT NULL"
        ).rowcount
        if forgotten:
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def abandon(self, claim: Claim) -> None:
        with self._lock:
            self._delete(claim.scope)

    def _delete(self, scope: KeyScope) -> None:
        self._db.execute(
            f"DELETE FROM {TABLE} WHERE key = ? AND method = ? AND path = ? AND caller = ?",
            scope,
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresIdempotencyStore:
    """Keys and their answers in a table of the event store's PostgreSQL schema, shared by
    every process of the store (each statement its own transaction on the store's pool)."""

    def __init__(self, datastore: PostgresDatastore, seal: AnswerSeal) -> None:
        from psycopg.sql import SQL, Identifier

        self._datastore = datastore
        self._seal = seal
        self._lock = threading.Lock()
        self.erasures = 0
        self._running: Counter[KeyScope] = Counter()
        """The claims this process's requests hold, by key: none of them is taken over here
        (under ``_lock``)."""
        table = Identifier(datastore.schema, TABLE)
        key = "key = %s AND method = %s AND path = %s AND caller = %s"

        def render(statement: str) -> str:
            return SQL(statement).format(table=table, key=SQL(key)).as_string()

        with datastore.get_connection() as connection:
            connection.execute(
                render(
                    "CREATE TABLE IF NOT EXISTS {table} ("
                    " key TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,"
                    " caller TEXT NOT NULL, request_hash TEXT NOT NULL, claim UUID NOT NULL,"
                    " created_at TIMESTAMPTZ NOT NULL, status INTEGER, headers TEXT, body BYTEA,"
                    " PRIMARY KEY (key, method, path, caller))"
                )
            )
            connection.execute(
                SQL("CREATE INDEX IF NOT EXISTS {index} ON {table} (created_at)").format(
                    index=Identifier(f"{TABLE}_created_at"), table=table
                )
            )
        # Ages are measured on the database's clock, the one clock every process of the store
        # shares: a process's own clock (a dev clock moved forward, a host's clock off) would
        # purge or take over another process's claim while its request still runs.
        # Every process purges the expired keys, as the SQLite store does.
        self._expire = render("DELETE FROM {table} WHERE created_at < statement_timestamp() - %s")
        # one atomic statement: of two processes claiming a key at once, one inserts its row
        # and the other finds it; a row expired, or pending past PENDING_TIMEOUT (a dead
        # process's), is taken over
        self._claim = render(
            "INSERT INTO {table} AS kept"
            " (key, method, path, caller, request_hash, claim, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, statement_timestamp())"
            " ON CONFLICT (key, method, path, caller)"
            " DO UPDATE SET request_hash = excluded.request_hash, claim = excluded.claim,"
            " created_at = excluded.created_at, status = NULL, headers = NULL, body = NULL"
            " WHERE kept.created_at < statement_timestamp() - %s"
            " OR (kept.status IS NULL AND kept.created_at < statement_timestamp() - %s)"
            " RETURNING claim"
        )
        self._select = render("SELECT request_hash, status, headers, body FROM {table} WHERE {key}")
        self._keep = render(
            "UPDATE {table} SET status = %s, headers = %s, body = %s"
            " WHERE {key} AND claim = %s AND status IS NULL"
        )
        self._drop = render("DELETE FROM {table} WHERE {key} AND claim = %s AND status IS NULL")
        self._forget = render(
            "UPDATE {table} SET headers = NULL, body = NULL WHERE body IS NOT NULL"
        )
        self._vacuum = render("VACUUM {table}")

    def begin(self, scope: KeyScope, request_hash: str, now: datetime) -> Claim | StoredAnswer:
        """As ``AnswerStore.begin``; ``now`` is not read (ages are the database's)."""
        # a claim this process holds is its own running request's, never taken over here: it
        # is finished or abandoned by that request
        with self._lock:
            pending = LIFETIME if self._running[scope] else PENDING_TIMEOUT
        with self._datastore.get_connection() as connection:
            connection.execute(self._expire, (LIFETIME,))
            while True:
                claimed = connection.execute(
                    self._claim, (*scope, request_hash, uuid4(), LIFETIME, pending)
                ).fetchone()
                if claimed is not None:
                    with self._lock:
                        self._running[scope] += 1
                    return Claim(scope, claimed["claim"])
                row = connection.execute(self._select, scope).fetchone()
                if row is not None:
                    return _answer_of(
                        request_hash,
                        row["request_hash"],
                        row["status"],
                        row["headers"],
                        self._seal.open(scope, row["body"]),
                    )
                # its request failed (or its answer was a 5xx) since the claim: claim it now

    def finish(self, claim: Claim, answer: StoredAnswer, *, erasures: int) -> None:
        scope = claim.scope
        self._ended(scope)
        # under the lock: an erasure learnt meanwhile either comes first (the body is not
        # kept) or after the answer is stored (and forgets it)
        # the connection first: the lock is never held while the pool is waited for
        with self._datastore.get_connection() as connection, self._lock:
            if answer.status >= 500:
                connection.execute(self._drop, (*scope, claim.token))
                return
            kept = erasures == self.erasures
            connection.execute(
                self._keep,
                (
                    answer.status,
                    json.dumps(answer.headers) if kept else None,
                    self._seal.seal(scope, answer.body) if kept else None,
                    *scope,
                    claim.token,
                ),
            )

    def forget_answers(self) -> None:
        """Every answer loses its body (the key stays: its request still runs once), and the
        table is vacuumed, so that the space of the old row versions is reused (their bytes
        may stay in free pages and the server's WAL until overwritten, see the README). Each
        process of the store does so when it learns of the erasure: the answers another
        process kept meanwhile go too."""
        with self._datastore.get_connection() as connection, self._lock:
            self.erasures += 1
            forgotten = connection.execute(self._forget).rowcount
        if forgotten:
            # outside the lock (a retry's answer waits for no vacuum), and outside any
            # transaction, which VACUUM refuses (the pool's connections are in autocommit mode)
            with self._datastore.get_connection() as connection:
                connection.execute(self._vacuum)

    def abandon(self, claim: Claim) -> None:
        self._ended(claim.scope)
        with self._datastore.get_connection() as connection:
            connection.execute(self._drop, (*claim.scope, claim.token))

    def _ended(self, scope: KeyScope) -> None:
        with self._lock:
            self._running[scope] -= 1
            if self._running[scope] <= 0:
                del self._running[scope]

    def close(self) -> None:
        """Nothing to close: the pool is the event store's."""


def answer_store(services: Services) -> AnswerStore:
    """The keys of this process: in the event store's PostgreSQL schema, shared by every
    process of the store, or in a file of the data directory beside an SQLite store."""
    path = services.settings.idempotency_path
    seal = AnswerSeal(services.answer_key)
    if not services.store.is_shared:
        return IdempotencyStore(path, seal)
    # the file of a version that kept the keys per process: no erasure would reach its answers
    for stale in (path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")):
        stale.unlink(missing_ok=True)
    datastore = services.store.recorder.datastore  # type: ignore[attr-defined]
    return PostgresIdempotencyStore(datastore, seal)


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
