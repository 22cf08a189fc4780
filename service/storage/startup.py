"""Checks before the service starts: it refuses to start rather than start empty.

A store that lost its events, or the key that its player ids and dice seeds depend on, must
not come up as a new, empty club beside the traces of the old one (views, kept answers, mails,
a key file): the director would take in registrations on an empty history and the old one
would be harder to restore. What counts as a trace of an earlier run:

- SQLite (the default): the store's file is missing while the data directory holds any file the
  service writes once a store exists (``secret.key``, ``views.sqlite3``, ``idempotency.sqlite``,
  mails in ``outbox/``, the store's own ``-wal`` file).
- Any store (PostgreSQL too): the store holds no events and no secret fingerprint while the
  views in the data directory were built from events of that same store.
- The key: the store has run before (it holds the fingerprint of its secret, or events) while
  the key file is missing and ``BGTD_SECRET_KEY`` is not set: a new key would give every person
  a new player id and break the sealed dice seeds.

A store that has events but fewer than the views (a restored older backup) starts: the views
are rebuilt from it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Protocol

from service.settings import Settings
from service.storage.persistence import sqlite_path
from service.storage.secret import SECRET_KEY_FILE


class StartRefusedError(RuntimeError):
    """Starting would lose or hide data: the message says what is wrong and what to do."""


class StoreMissingError(StartRefusedError):
    """The event store is missing or empty while the data directory shows an earlier run."""


class SecretKeyMissingError(StartRefusedError):
    """The store has run with a key file that is gone."""


class StoreHistory(Protocol):
    def latest_notification_id(self) -> int: ...

    def recorded_fingerprint(self) -> str | None: ...


def own_files(settings: Settings) -> list[Path]:
    """The files and folders the service keeps besides recordings: never evidence."""
    event_file = sqlite_path(settings.event_store_url)
    return [
        settings.data_dir / SECRET_KEY_FILE,
        *([event_file] if event_file else []),
        settings.views_path,
        settings.idempotency_path,
        settings.ended_sessions_path,
        settings.data_dir / "outbox",
    ]


def check_store_file(settings: Settings) -> None:
    """Before the store is opened (which would create an empty one): an SQLite store's file
    must exist if the data directory shows an earlier run."""
    event_file = sqlite_path(settings.event_store_url)
    if event_file is None or event_file.exists():
        return
    traces = _traces_of_an_earlier_run(settings, event_file)
    if traces:
        raise StoreMissingError(
            f"the event store {event_file} is missing, but the data directory holds data of "
            f"an earlier run ({', '.join(traces)}): restore {event_file.name} (and "
            f"{SECRET_KEY_FILE}) from a backup (README, Backups), or move the data directory "
            f"away to start a new, empty club; the service does not start empty"
        )


def check_store_history(store: StoreHistory, store_name: str, views_path: Path) -> None:
    """An open store without any history must not be one the views were built from."""
    if store.latest_notification_id() > 0 or store.recorded_fingerprint() is not None:
        return
    applied = _events_applied(views_path, store_name)
    if applied:
        raise StoreMissingError(
            f"the event store {store_name} holds no events, but the views in {views_path} "
            f"were built from {applied} of its events: restore the store from a backup, or "
            f"move the data directory away to start a new, empty club; the service does not "
            f"start empty"
        )


def check_secret_key_file(settings: Settings, store: StoreHistory) -> None:
    """The key file must still be there once the store has run with it."""
    key_file = settings.data_dir / SECRET_KEY_FILE
    if settings.secret_key or key_file.exists():
        return
    if store.recorded_fingerprint() is not None or store.latest_notification_id() > 0:
        raise SecretKeyMissingError(
            f"the key file {key_file} is missing, but the event store has run with it: "
            f"restore the data directory's {SECRET_KEY_FILE} or set BGTD_SECRET_KEY to that "
            f"secret (a new key would give every person a new player id); the service does "
            f"not start with a new key"
        )


def _traces_of_an_earlier_run(settings: Settings, event_file: Path) -> list[str]:
    candidates = [
        *([settings.data_dir / SECRET_KEY_FILE] if not settings.secret_key else []),
        settings.views_path,
        settings.idempotency_path,
        event_file.with_name(f"{event_file.name}-wal"),
    ]
    traces = [path.name for path in candidates if path.exists()]
    outbox = settings.data_dir / "outbox"
    if outbox.is_dir() and any(outbox.iterdir()):
        traces.append("mails in outbox/")
    return traces


def _events_applied(views_path: Path, store_name: str) -> int:
    """How far the views were built from the store ``store_name`` (0: not from it, none)."""
    if not views_path.exists():
        return 0
    try:
        connection = sqlite3.connect(f"{views_path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    try:
        source = connection.execute("SELECT name FROM view_source").fetchone()
        if source is None or source[0] != store_name:
            return 0
        row = connection.execute("SELECT MAX(position) FROM view_positions").fetchone()
    except sqlite3.Error:  # not views of this service (yet): no trace
        return 0
    finally:
        connection.close()
    return int(row[0] or 0)
