"""The server's secret, shared by every process of one event store."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
import time
from pathlib import Path
from typing import Protocol
from uuid import UUID

SECRET_KEY_FILE = "secret.key"


class SecretMismatchError(RuntimeError):
    """The event store was first started with another secret: starting would re-key everyone."""


class FingerprintRecord(Protocol):
    def record_fingerprint(self, fingerprint: str) -> str: ...


def fingerprint(secret: bytes) -> str:
    """Names the secret without revealing it (a key derived for this purpose only)."""
    return derived_key(secret, "fingerprint").hex()[:32]


def check_secret(store: FingerprintRecord, secret: bytes) -> None:
    """The store keeps the fingerprint of the secret it first ran with; another secret would
    give every person a new player id (the same address could register twice) and break the
    sealed dice seeds, so the service refuses to start with it."""
    expected = store.record_fingerprint(fingerprint(secret))
    if expected != fingerprint(secret):
        raise SecretMismatchError(
            f"this event store was first started with another secret (fingerprint "
            f"{expected[:12]}, this one {fingerprint(secret)[:12]}): restore the data "
            f"directory's {SECRET_KEY_FILE} or set BGTD_SECRET_KEY to that secret"
        )


def derived_key(secret: bytes, purpose: str) -> bytes:
    """A key for one purpose only: a leak of one use tells nothing about the others."""
    return hmac.digest(secret, f"bgtd {purpose}".encode(), "sha256")


def load_secret_key(configured: str | None, data_dir: Path) -> bytes:
    """The server's secret: ``BGTD_SECRET_KEY``, or a key file made once in the data dir.

    It seals server dice seeds and keys player ids, so several processes sharing one
    PostgreSQL store must share it (set the variable). Each use derives its own key from it.
    """
    if configured:
        return hashlib.sha256(configured.encode()).digest()
    path = data_dir / SECRET_KEY_FILE
    if not path.exists():
        _create_key_file(path)
    return hashlib.sha256(_read_key_file(path).encode()).digest()


def _create_key_file(path: Path) -> None:
    """Write a new key beside ``path`` and link it into place: the key file appears whole or
    not at all, and a key another process linked first is never replaced."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # 0600
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_hex(32))
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # another process was first: its key stands
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


def _read_key_file(path: Path, attempts: int = 100) -> str:
    """The key in ``path``; an empty file is one an older process has created and is still
    writing (it wrote after creating), so it is read again for up to a second."""
    for _ in range(attempts):
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.01)
    raise RuntimeError(f"the key file {path} is empty: delete it or set BGTD_SECRET_KEY")


def keyed_token(key: bytes, subject: UUID) -> str:
    """A bearer token for ``subject`` that the service can derive again but nobody without
    ``key`` can: the player token of a registration, the confirmation token of a request.

    Events keep only its SHA-256; a mail (rule P-MAIL-1) can carry it without the views
    storing it, because the sender derives it when it writes the mail.
    """
    digest = hmac.digest(key, subject.bytes, "sha256")
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
