"""Shared fixtures: a service per test on SQLite, and on PostgreSQL where one answers."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN, Settings

POSTGRES_URL = os.environ.get("BGTD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REQUIRE_POSTGRES = os.environ.get("BGTD_REQUIRE_POSTGRES") == "1"
REQUIRE_GNUBG = os.environ.get("BGTD_REQUIRE_GNUBG") == "1"
DIRECTOR = {"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}"}


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(_plain_postgres_url(), connect_timeout=2):
            return True
    except Exception:
        return False


def _plain_postgres_url() -> str:
    return POSTGRES_URL.split("?", 1)[0]


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The PostgreSQL test database, or a skip (a failure where CI requires PostgreSQL)."""
    if not postgres_available():
        if REQUIRE_POSTGRES:
            pytest.fail("BGTD_REQUIRE_POSTGRES=1 but PostgreSQL does not answer at " + POSTGRES_URL)
        pytest.skip("PostgreSQL is not running here")
    return _plain_postgres_url()


@pytest.fixture
def postgres_schema_url(postgres_url: str) -> Iterator[str]:
    """A fresh schema per test, dropped afterwards: tests never see each other's events."""
    import psycopg

    schema = "bgtd_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    yield f"{postgres_url}?schema={schema}"
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """Run a test once on the embedded SQLite store and once on PostgreSQL."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_schema_url")
    return url


@pytest.fixture
def gnubg() -> str:
    """The installed GNU Backgammon, or a skip (a failure where CI requires it:
    ``BGTD_REQUIRE_GNUBG=1``, set by ``.ci/run``)."""
    found = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
    if found is None:
        if REQUIRE_GNUBG:
            pytest.fail("BGTD_REQUIRE_GNUBG=1 but GNU Backgammon is not installed")
        pytest.skip("GNU Backgammon is not installed")
    return found


@pytest.fixture
def clock() -> MovableClock:
    """A dev clock that stands still unless a test moves it."""
    return MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path / "data", dev=True, run_scheduler=False, registration_rate_limit=10_000
    )


@pytest.fixture
def client(settings: Settings, clock: MovableClock) -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(create_app(settings, clock=clock)) as test_client:
        yield test_client


def processes_of_one_store(
    tmp_path: Path, database_url: str, clock: MovableClock, **settings: object
) -> list[Services]:
    """Two processes on one PostgreSQL store, as two ``bgtd serve`` would be: each with its
    own data directory (``tmp_path / "first"``, ``tmp_path / "second"``), the store's one
    secret, no scheduler of their own; ``settings`` adds to that (a mail server, say)."""
    return [
        bootstrap(
            Settings(
                data_dir=tmp_path / name,
                database_url=database_url,
                secret_key="one store's secret",
                dev=True,
                run_scheduler=False,
                **settings,  # type: ignore[arg-type]
            ),
            clock,
        )
        for name in ("first", "second")
    ]
