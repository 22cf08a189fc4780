"""The ``bgtd`` command: ``bgtd serve`` runs the REST service; ``replay``, ``jobs`` and
``rebuild-projections`` read the event store of a data directory (or a PostgreSQL URL)."""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

if TYPE_CHECKING:
    from service.bootstrap import Services
    from service.settings import Settings

PROGRESS_WIDTH = 30
SHUTDOWN_GRACE_SECONDS = 5
"""How long a stopping ``bgtd serve`` lets open requests and live streams finish."""


def _instant(text: str) -> datetime:
    instant = datetime.fromisoformat(text)
    if instant.tzinfo is None:
        raise argparse.ArgumentTypeError(
            "give the instant with an offset, e.g. 2026-04-16T17:59:00+02:00"
        )
    return instant


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="bgtd", description="Backgammon tournament director")
    commands = root.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the REST service")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data-dir", type=Path, default=None, help="SQLite files (default ./data)")
    serve.add_argument("--database-url", default=None, help="postgresql://user@host:port/db")
    serve.add_argument("--dev", action="store_true", help="movable clock, default director token")
    serve.add_argument(
        "--start-time", type=_instant, default=None, help="dev clock start (ISO 8601)"
    )
    serve.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a log line per request (default off; BGTD_ACCESS_LOG)",
    )
    replay = commands.add_parser("replay", help="a match's story and its board as text")
    replay.add_argument("match_id", type=UUID)
    replay.add_argument("--at", type=int, default=None, help="the board right after event N")
    rebuild = commands.add_parser(
        "rebuild-projections", help="rebuild every read model from the event store"
    )
    jobs = commands.add_parser("jobs", help="pending and past scheduled jobs")
    for command in (replay, rebuild, jobs):
        command.add_argument("--data-dir", type=Path, default=None)
        command.add_argument("--database-url", default=None)
    backup = commands.add_parser(
        "backup", help="copy the SQLite event store and views into one archive, while running"
    )
    backup.add_argument("file", type=Path, help="the archive to write (a tar file)")
    backup.add_argument("--data-dir", type=Path, default=None, help="SQLite files (default ./data)")
    backup.add_argument("--database-url", default=None, help="postgresql://... (use pg_dump)")
    return root


def missing_driver(database_url: str) -> str | None:
    """What to install when the event store's database needs a driver that is missing."""
    if not database_url.startswith(("postgresql:", "postgres:")):
        return None
    try:
        importlib.import_module("psycopg")
    except ImportError:
        return (
            "a PostgreSQL event store needs the driver psycopg: "
            "install the postgres extra (pip install 'bgtd[postgres]')"
        )
    return None


def backup(arguments: argparse.Namespace) -> int:
    """``bgtd backup FILE``: see ``service.storage.backup`` and the README on restoring."""
    from service.settings import Settings
    from service.storage.backup import PostgresBackupError
    from service.storage.backup import backup as write_backup

    settings = Settings.from_environment(
        data_dir=arguments.data_dir, database_url=arguments.database_url
    )
    try:
        names = write_backup(settings, arguments.file)
    except (PostgresBackupError, FileNotFoundError) as error:
        print(f"bgtd: {error}", file=sys.stderr)
        return 2
    print(f"bgtd: {arguments.file}: {', '.join(names)}")
    return 0


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's proxy headers as the settings say: believed only from
    ``BGTD_TRUSTED_PROXIES``. uvicorn's own default trusts 127.0.0.1 (or its
    ``FORWARDED_ALLOW_IPS``), so any local client, or a proxy on the host that passes the header
    through, could name a new client address with each request."""
    return {
        "proxy_headers": bool(settings.trusted_proxies),
        "forwarded_allow_ips": list(settings.trusted_proxies),
    }


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.command == "backup":
        return backup(arguments)
    if arguments.command != "serve":
        return _offline(arguments)
    if arguments.start_time and not arguments.dev:
        print("bgtd: --start-time needs --dev", file=sys.stderr)
        return 2
    import uvicorn

    from api.app import create_app
    from api.live.slots import raise_open_file_limit
    from service.settings import Settings

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # a poll a second is no news
    try:
        settings = Settings.from_environment(
            host=arguments.host,
            port=arguments.port,
            data_dir=arguments.data_dir,
            database_url=arguments.database_url,
            dev=arguments.dev or None,
            start_time=arguments.start_time,
            access_log=arguments.access_log,
        )
    except ValueError as error:  # a value out of range, a mistyped proxy (msgspec says which)
        print(f"bgtd: {error}", file=sys.stderr)
        return 2
    if problem := missing_driver(settings.event_store_url):
        print(f"bgtd: {problem}", file=sys.stderr)
        return 2
    if settings.dev and not settings.director_token:
        print(f"bgtd: dev mode, director token: {settings.effective_director_token}", flush=True)
    elif not settings.director_token:
        print(
            "bgtd: BGTD_DIRECTOR_TOKEN is not set: only named directors' tokens act as "
            "directors, and no first director can be appointed",
            flush=True,
        )
    # A request allocates many short-lived objects; collecting the young generation every
    # 100,000 allocations instead of 700 cuts the time of a match command by about a tenth.
    gc.set_threshold(100_000, 50, 50)
    # each live stream holds a socket: their cap follows the limit of open files
    raise_open_file_limit()
    try:
        app = create_app(settings)
    except _refusals() as error:
        print(f"bgtd: {error}", file=sys.stderr)
        return 2
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        access_log=settings.access_log,
        # a stop (SIGTERM) ends the live streams after this grace instead of waiting for
        # them: the wallboard and the table pages hold theirs open all day, and reconnect
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        **proxy_options(settings),
    )
    return 0


def _refusals() -> tuple[type[Exception], ...]:
    """A start refused rather than lose or hide data: the message says what to do."""
    from service.storage.secret import SecretMismatchError
    from service.storage.startup import StartRefusedError

    return (StartRefusedError, SecretMismatchError)


def _offline(arguments: argparse.Namespace) -> int:
    """The commands that read the store without serving it."""
    from domain.errors import DomainError
    from service.bootstrap import bootstrap
    from service.settings import Settings

    settings = Settings.from_environment(
        data_dir=arguments.data_dir, database_url=arguments.database_url, run_scheduler=False
    )
    try:
        services = bootstrap(settings)
    except _refusals() as error:
        print(f"bgtd: {error}", file=sys.stderr)
        return 2
    try:
        if arguments.command == "replay":
            return _replay(services, arguments.match_id, arguments.at)
        if arguments.command == "jobs":
            return _jobs(services)
        return _rebuild(services)
    except DomainError as error:
        print(f"bgtd: {error.detail}", file=sys.stderr)
        return 1
    finally:
        services.close()


def _replay(services: Services, match_id: UUID, at: int | None) -> int:
    from api.matches.board import board, player_names, story

    events = services.matches.events(match_id, at)
    state = services.matches.get(match_id, at)
    directors = services.directors.names(event.actor for event in events)
    for line in story(events, services.zone, players=player_names(state), director_names=directors):
        print(line)
    print()
    for line in board(state, state.updated_at):
        print(line)
    return 0


def _jobs(services: Services) -> int:
    from domain.calendar import local_isoformat

    print(f"{'deadline':<26} {'kind':<19} {'status':<8} {'target':<36} {'done at':<26} effect")
    for job in services.jobs.list_jobs():
        deadline = local_isoformat(job.deadline, services.zone) if job.deadline else "-"
        done = local_isoformat(job.done_at, services.zone) if job.done_at else "-"
        print(
            f"{deadline:<26} {job.kind:<19} {job.status:<8} {job.target!s:<36} {done:<26} "
            f"{job.effect or ''}"
        )
    return 0


def _rebuild(services: Services) -> int:
    """Each view dropped and replayed from the log, with a progress bar over the views."""
    views = services.views
    total = len(views.projections)
    latest = services.store.latest_notification_id()
    print(f"rebuilding {total} views from {latest} events", flush=True)
    for number, projection in enumerate(views.projections, start=1):
        views.rebuild(projection.name)
        filled = PROGRESS_WIDTH * number // total
        bar = "#" * filled + "." * (PROGRESS_WIDTH - filled)
        print(f"[{bar}] {number}/{total} {projection.name}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
