"""Backups of a running service's SQLite files: one tar archive, restored by unpacking it.

Each database is copied with SQLite's online backup API in one step, which reads one
consistent snapshot while the service goes on writing (WAL readers never block the writer).
The views are copied before the event store, so that they are never ahead of the events
beside them: a restored service catches the views up from its log at start (and views ahead
of the log would be rebuilt anyway, see ``projections.runner.Views``).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tarfile
import tempfile
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

from service.settings import Settings

EVENTS = "events.sqlite3"
VIEWS = "views.sqlite3"
SECRET = "secret.key"


class PostgresBackupError(Exception):
    """The event store is on PostgreSQL: its own tools back it up."""


def backup(settings: Settings, target: Path) -> list[str]:
    """Write the archive ``target`` (a tar of the event store, the views and the secret key
    file when there is one); returns the names it holds."""
    if urlsplit(settings.event_store_url).scheme != "sqlite":
        raise PostgresBackupError(
            "the event store is on PostgreSQL: back it up with pg_dump "
            "(the SQLite views are rebuilt from it at start)"
        )
    events = settings.data_dir / EVENTS
    if not events.exists():
        raise FileNotFoundError(f"no event store at {events}")
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".bgtd-backup-") as folder:
        staged = Path(folder)
        names = []
        if settings.views_path.exists():
            _copy(settings.views_path, staged / VIEWS)
            names.append(VIEWS)
        _copy(events, staged / EVENTS)
        names.append(EVENTS)
        if (settings.data_dir / SECRET).exists():
            shutil.copy2(settings.data_dir / SECRET, staged / SECRET)  # mode 0600 kept
            names.append(SECRET)
        partial = staged / "archive.tar"
        _create_private(partial)  # the archive holds the keys: the owner's only, like the data
        with tarfile.open(partial, "w") as archive:
            for name in names:
                archive.add(staged / name, arcname=name, filter=_owner_only)
        partial.replace(target)  # a reader never sees half an archive
    return names


def _create_private(path: Path) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))


def _owner_only(member: tarfile.TarInfo) -> tarfile.TarInfo:
    """Restored files are readable by their owner only (the events hold the persons' keys)."""
    member.mode = 0o600
    return member


def _copy(source: Path, destination: Path) -> None:
    _create_private(destination)
    with (
        closing(sqlite3.connect(source, timeout=30)) as reading,
        closing(sqlite3.connect(destination)) as writing,
    ):
        reading.backup(writing)  # all pages in one step: one snapshot of the database
