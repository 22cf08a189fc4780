"""Personal data sealed under each person's own key (crypto-shredding).

Each person (player id) gets a random 256-bit data key, kept in the ``person_keys`` table of
the event store's own database (the SQLite events file, or the PostgreSQL schema), so that
every process of one store shares it; never in the events. A record that declares personal
fields (``DomainEvent.personal``, ``Aggregate.personal``) is stored with those fields set to
their erased values (the pseudonym, empty values) and the true values sealed with AES-GCM
under the person's key beside them. Reading unseals them while the key exists; once erasure
has deleted the key, the same stored bytes read as the erased record. Nothing is rewritten.

Records stored before sealing existed hold their personal data in plain text: they still
load, and once their person is erased (``erased_at`` set) they read as erased too, but their
bytes stay in the store (see the README).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, TypeVar, cast
from uuid import UUID

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from domain.events import PSEUDONYM, Personal
from domain.people.erasure import pseudonym

T = TypeVar("T")

KEY_TABLE = "person_keys"
NONCE_BYTES = 12
TAG_BYTES = 16
ENVELOPE_FIELD = "sealed_personal_data"
"""The JSON member of a stored record that holds its sealed parts (no record field has it)."""

_encoder = msgspec.json.Encoder()

_typed_in: ContextVar[frozenset[UUID]] = ContextVar("typed_in", default=frozenset())
"""The persons whose personal data the running command takes as typed in now (see
``PersonKeys.typed_in``)."""


class SealedPart(msgspec.Struct, frozen=True):
    """One person's fields of a record: nonce + AES-GCM ciphertext of their JSON."""

    subject: UUID
    data: bytes


class _Envelope(msgspec.Struct, frozen=True):
    sealed_personal_data: tuple[SealedPart, ...] = ()


_envelope_decoder = msgspec.json.Decoder(_Envelope)


class PersonKeys:
    """The key table: one data key per person, deleted (shredded) when they are erased.

    A row keeps ``erased_at`` after its key is gone: records stored in plain text before
    sealing existed are then still shown as erased. Keys are cached in memory; ``forget`` drops
    one (the erasing process at once, every other process when its views read the
    ``PersonErased``).
    """

    def __init__(self, datastore: Any, *, postgres: bool) -> None:
        self._datastore = datastore
        self._postgres = postgres
        self._keys: dict[UUID, bytes] = {}
        self._erased: set[UUID] = set()
        self._forgotten = 0
        """How often a key was forgotten: a key read from the table before is not cached."""
        self._lock = threading.Lock()
        blob = "BYTEA" if postgres else "BLOB"
        self._run(
            f"CREATE TABLE IF NOT EXISTS {{table}} (player_id TEXT PRIMARY KEY, "
            f"data_key {blob}, erased_at TEXT)"
        )
        rows = self._run("SELECT player_id FROM {table} WHERE erased_at IS NOT NULL")
        self._erased.update(UUID(row["player_id"]) for row in rows)

    @staticmethod
    @contextmanager
    def typed_in(player_id: UUID) -> Iterator[None]:
        """Within: the command records personal data of ``player_id`` typed in now (a
        registration, a registration request), so a person erased earlier gets a new key for
        it. Any other record of an erased person (a confirmation of a request read before the
        erasure, a match started from a registration, a snapshot of a state cached before it)
        is stored with its erased values: an erasure is never undone by a later write."""
        token = _typed_in.set(_typed_in.get() | {player_id})
        try:
            yield
        finally:
            _typed_in.reset(token)

    def key_for(self, player_id: UUID) -> bytes | None:
        """The key to seal the person's record with, drawn and stored at their first sealed
        record (of two processes drawing at once, the first stored key wins); None once they
        are erased, unless the record holds data ``typed_in`` now (then a new key)."""
        key = self._keys.get(player_id)
        if key is not None:
            return key
        if player_id in _typed_in.get():
            self._run(
                "INSERT INTO {table} (player_id, data_key) VALUES (?, ?) ON CONFLICT (player_id) "
                "DO UPDATE SET data_key = COALESCE({table}.data_key, excluded.data_key)",
                (str(player_id), AESGCM.generate_key(bit_length=256)),
            )
        else:  # an erased person's row keeps no key
            self._run(
                "INSERT INTO {table} (player_id, data_key) VALUES (?, ?) "
                "ON CONFLICT (player_id) DO NOTHING",
                (str(player_id), AESGCM.generate_key(bit_length=256)),
            )
        return self.key_of(player_id)

    def key_of(self, player_id: UUID) -> bytes | None:
        """The person's key; None once they are erased (or were never sealed)."""
        key = self._keys.get(player_id)
        if key is None:
            forgotten = self._forgotten
            rows = self._run("SELECT data_key FROM {table} WHERE player_id = ?", (str(player_id),))
            if rows and rows[0]["data_key"] is not None:
                key = bytes(rows[0]["data_key"])
                with self._lock:
                    # an erasure may have deleted the key since it was read: not kept then
                    if forgotten == self._forgotten:
                        self._keys[player_id] = key
        return key

    def is_erased(self, player_id: UUID) -> bool:
        return player_id in self._erased

    def known(self, player_id: UUID) -> bool:
        """Whether the table has a row for the person (a sealed record or an erasure)."""
        return bool(self._run("SELECT 1 FROM {table} WHERE player_id = ?", (str(player_id),)))

    def shred(
        self, player_ids: Iterable[UUID], now: datetime, *, unfinished_only: bool = False
    ) -> list[UUID]:
        """Delete the keys of erased persons: their sealed data is unreadable. Returns the ids
        whose keys were deleted; ``unfinished_only``: only of persons whose erasure never
        reached the key table (a person registered again after an erasure keeps the new key).

        On SQLite the deleted key bytes are overwritten in the file (``secure_delete``) and the
        write-ahead log is emptied, so that no copy of the key stays on disk.
        """
        ids = list(player_ids)
        if unfinished_only and ids:
            rows = self._run("SELECT player_id FROM {table} WHERE erased_at IS NOT NULL")
            finished = {UUID(row["player_id"]) for row in rows}
            ids = [player_id for player_id in ids if player_id not in finished]
        for player_id in ids:
            self.forget(player_id, erased=True)
            self._run(
                "INSERT INTO {table} (player_id, data_key, erased_at) VALUES (?, NULL, ?) "
                "ON CONFLICT (player_id) DO UPDATE SET data_key = NULL, "
                "erased_at = COALESCE({table}.erased_at, excluded.erased_at)",
                (str(player_id), now.isoformat()),
                secure=True,
            )
        if ids and not self._postgres:
            self._checkpoint()
        return ids

    def shred_named(self, player_id: UUID, fingerprint: str | None, erased_at: datetime) -> None:
        """Complete an erasure read from the log (idempotent): delete the person's key if it is
        the one the erasure named (``fingerprint``), never a key drawn after it; an erasure
        that named none completes only if it never reached the key table."""
        if fingerprint is None:
            self.shred([player_id], erased_at, unfinished_only=True)
            return
        self.forget(player_id, erased=True)
        rows = self._run("SELECT data_key FROM {table} WHERE player_id = ?", (str(player_id),))
        key = rows[0]["data_key"] if rows else None
        if key is None or key_fingerprint(bytes(key)) != fingerprint:
            return  # deleted already, or a later registration's key
        self._run(
            "UPDATE {table} SET data_key = NULL, erased_at = COALESCE(erased_at, ?) "
            "WHERE player_id = ? AND data_key = ?",
            (erased_at.isoformat(), str(player_id), bytes(key)),
            secure=True,
        )
        self.forget(player_id, erased=True)
        if not self._postgres:
            self._checkpoint()

    def forget(self, player_id: UUID, *, erased: bool) -> None:
        """Drop the cached key (another process may have shredded it); ``erased``: the
        person is erased (their plain-text records from before sealing read as erased)."""
        with self._lock:
            self._keys.pop(player_id, None)
            self._forgotten += 1
            if erased:
                self._erased.add(player_id)

    def _run(self, sql: str, params: tuple[Any, ...] = (), *, secure: bool = False) -> list[Any]:
        """One statement in its own transaction; rows as mappings by column name (a query
        takes a reader connection, so that it never waits for a writer)."""
        query = sql.startswith("SELECT")
        if self._postgres:
            from psycopg.sql import SQL, Identifier

            statement = SQL(sql.replace("?", "%s")).format(
                table=Identifier(self._datastore.schema, KEY_TABLE)
            )
            with self._datastore.transaction(commit=not query) as cursor:
                cursor.execute(statement, params)
                return list(cursor.fetchall()) if query else []
        with self._datastore.get_connection(commit=not query) as connection:
            if secure:  # a deleted key's bytes are overwritten in the file, not left free
                connection.cursor().execute("PRAGMA secure_delete=ON")
            with connection.transaction(commit=not query) as cursor:
                cursor.execute(sql.format(table=KEY_TABLE), params)
                return list(cursor.fetchall()) if query else []

    def _checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the file and empty it (it held the keys)."""
        with self._datastore.get_connection(commit=True) as connection:
            connection.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")


def key_fingerprint(key: bytes) -> str:
    """Names a data key in an erasure's event without revealing it (a one-way hash of 256
    random bits)."""
    return hashlib.sha256(b"bgtd person data key\x00" + key).hexdigest()


class PersonalCodec:
    """Encodes records as JSON with their personal fields sealed; decodes them back."""

    def __init__(self, keys: PersonKeys) -> None:
        self.keys = keys
        self.withheld = 0
        """How many records were stored with an erased person's values in place of the
        values they held (a write after the erasure): their states must not be cached."""

    def encode(self, record: Any) -> bytes:
        declared: tuple[Personal, ...] = getattr(type(record), "personal", ())
        parts: list[SealedPart] = []
        erased: dict[str, Any] = {}
        for personal in declared:
            subject = _subject(record, personal.subject)
            if subject is None:
                continue
            values = {name: getattr(record, name) for name in personal.erased}
            erased_values = _erased_values(personal, subject)
            if values == erased_values:
                continue  # nothing to hide (a state read after the erasure): no new key
            key = self.keys.key_for(subject)
            if key is None:  # erased meanwhile: the record keeps nothing of theirs
                erased.update(erased_values)
                self.withheld += 1
                continue
            parts.append(
                SealedPart(subject, seal_bytes(key, _encoder.encode(values), subject.bytes))
            )
            erased.update(erased_values)
        plain = _encoder.encode(msgspec.structs.replace(record, **erased) if erased else record)
        if not parts:
            return plain
        # the record's JSON object with one more member: its sealed parts
        return b'%s,"%s":%s}' % (plain[:-1], ENVELOPE_FIELD.encode(), _encoder.encode(parts))

    def decode(self, data: bytes, kind: type[T]) -> T:
        record = msgspec.json.decode(data, type=kind)
        declared: tuple[Personal, ...] = getattr(kind, "personal", ())
        if not declared:
            return record
        parts = _envelope_decoder.decode(data).sealed_personal_data
        if not parts:
            return self._unsealed(record, declared)
        values: dict[str, Any] = {}
        for part in parts:
            key = self.keys.key_of(part.subject)
            if key is None:
                continue  # erased: the stored record shows the erased values
            plain = open_sealed(key, part.data, part.subject.bytes)
            if plain is None:
                continue  # sealed under a key erasure deleted (the person registered again)
            values.update(msgspec.json.decode(plain))
        if not values:
            return record
        types = _field_types(cast(Hashable, kind))
        typed = {name: msgspec.convert(value, types[name]) for name, value in values.items()}
        return msgspec.structs.replace(record, **typed)  # type: ignore[type-var]

    def _unsealed(self, record: T, declared: tuple[Personal, ...]) -> T:
        """A record stored in plain text before sealing existed: shown erased once its
        person is (its bytes cannot be shredded)."""
        erased: dict[str, Any] = {}
        for personal in declared:
            subject = _subject(record, personal.subject)
            if subject is not None and self.keys.is_erased(subject):
                erased.update(_erased_values(personal, subject))
        return msgspec.structs.replace(record, **erased) if erased else record  # type: ignore[type-var]


def _subject(record: Any, path: str) -> UUID | None:
    value = record
    for name in path.split("."):
        value = getattr(value, name, None)
        if value is None:
            return None
    return value if isinstance(value, UUID) else None


def _erased_values(personal: Personal, subject: UUID) -> dict[str, Any]:
    return {
        name: pseudonym(subject) if value is PSEUDONYM else value
        for name, value in personal.erased.items()
    }


def seal_bytes(key: bytes, plain: bytes, bound_to: bytes) -> bytes:
    """``plain`` sealed under ``key``: a random nonce, then the AES-GCM ciphertext, which
    opens only with the same ``bound_to`` (its associated data)."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce + _cipher(key).encrypt(nonce, plain, bound_to)


def open_sealed(key: bytes, sealed: bytes, bound_to: bytes) -> bytes | None:
    """What ``seal_bytes`` sealed, or None for bytes that do not open under ``key`` and
    ``bound_to`` (another key, another binding, or bytes never sealed)."""
    if len(sealed) < NONCE_BYTES + TAG_BYTES:
        return None  # too short to be sealed (``decrypt`` would refuse the nonce)
    try:
        return _cipher(key).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], bound_to)
    except InvalidTag:
        return None


@lru_cache(maxsize=4096)
def _cipher(key: bytes) -> AESGCM:
    return AESGCM(key)


@cache
def _field_types(kind: Hashable) -> dict[str, Any]:
    return {field.name: field.type for field in msgspec.structs.fields(cast(type[Any], kind))}
