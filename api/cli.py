"""The ``bgtd`` command: ``bgtd serve`` runs the REST service."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path


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
    backup = commands.add_parser(
        "backup", help="copy the SQLite event store and views into one archive, while running"
    )
    backup.add_argument("file", type=Path, help="the archive to write (a tar file)")
    backup.add_argument("--data-dir", type=Path, default=None, help="SQLite files (default ./data)")
    backup.add_argument("--database-url", default=None, help="postgresql://... (use pg_dump)")
    return root


def backup(arguments: argparse.Namespace) -> int:
    """``bgtd backup FILE``: see ``service.backup`` and the README on restoring."""
    from service.backup import PostgresBackupError
    from service.backup import backup as write_backup
    from service.settings import Settings

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


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.command == "backup":
        return backup(arguments)
    if arguments.start_time and not arguments.dev:
        print("bgtd: --start-time needs --dev", file=sys.stderr)
        return 2
    import uvicorn

    from api.app import create_app
    from service.settings import Settings

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # a poll a second is no news
    settings = Settings.from_environment(
        host=arguments.host,
        port=arguments.port,
        data_dir=arguments.data_dir,
        database_url=arguments.database_url,
        dev=arguments.dev or None,
        start_time=arguments.start_time,
    )
    if settings.dev and not settings.director_token:
        print(f"bgtd: dev mode, director token: {settings.effective_director_token}", flush=True)
    elif not settings.director_token:
        print(
            "bgtd: BGTD_DIRECTOR_TOKEN is not set: director endpoints refuse every request",
            flush=True,
        )
    # A request allocates many short-lived objects; collecting the young generation every
    # 100,000 allocations instead of 700 cuts the time of a match command by about a tenth.
    gc.set_threshold(100_000, 50, 50)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
