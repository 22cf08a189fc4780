"""A start that finds its event store or key missing while other data is present refuses to
start with a clear message: it never comes up as a new, empty club (issue 19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli import main
from domain.tournament import TournamentPlan
from service.bootstrap import bootstrap
from service.evidence.folder import EvidenceFolderError
from service.settings import Settings
from service.storage.startup import SecretKeyMissingError, StoreMissingError


def a_club_with_a_tournament(settings: Settings) -> None:
    services = bootstrap(settings)
    try:
        services.tournaments.schedule_tournament(
            TournamentPlan(name="Monthly", date="2030-04-20", venue="Club")
        )
    finally:
        services.close()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)


def test_a_lost_event_store_beside_the_other_data_stops_the_start(settings: Settings) -> None:
    a_club_with_a_tournament(settings)
    events = settings.data_dir / "events.sqlite3"
    for stale in (events, events.with_name("events.sqlite3-wal")):
        stale.unlink(missing_ok=True)

    with pytest.raises(StoreMissingError) as refused:
        bootstrap(settings)

    message = str(refused.value)
    assert f"the event store {events} is missing" in message
    assert "secret.key" in message
    assert "views.sqlite3" in message
    assert "restore events.sqlite3" in message
    assert not events.exists()  # no empty store was made in its place


def test_a_lost_event_store_and_key_with_views_left_stop_the_start(settings: Settings) -> None:
    a_club_with_a_tournament(settings)
    key = (settings.data_dir / "secret.key").read_text()
    for name in ("events.sqlite3", "events.sqlite3-wal", "secret.key"):
        (settings.data_dir / name).unlink(missing_ok=True)

    with pytest.raises(StoreMissingError, match=r"views\.sqlite3"):
        bootstrap(settings)

    assert not (settings.data_dir / "secret.key").exists()  # no new key either
    assert key


def test_an_emptied_event_store_file_with_views_built_from_it_stops_the_start(
    settings: Settings,
) -> None:
    a_club_with_a_tournament(settings)
    for name in ("events.sqlite3-wal", "events.sqlite3-shm"):
        (settings.data_dir / name).unlink(missing_ok=True)
    (settings.data_dir / "events.sqlite3").write_bytes(b"")  # the file is there, but empty

    with pytest.raises(StoreMissingError, match=r"holds no events, but the views .* built from"):
        bootstrap(settings)


def test_a_lost_key_file_beside_a_store_that_has_run_stops_the_start(settings: Settings) -> None:
    a_club_with_a_tournament(settings)
    (settings.data_dir / "secret.key").unlink()

    with pytest.raises(SecretKeyMissingError, match=r"secret\.key is missing"):
        bootstrap(settings)

    assert not (settings.data_dir / "secret.key").exists()


def test_bgtd_says_why_it_does_not_start_and_exits_2(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    a_club_with_a_tournament(settings)
    (settings.data_dir / "events.sqlite3").unlink()
    data_dir = str(settings.data_dir)

    assert main(["serve", "--dev", "--data-dir", data_dir]) == 2
    assert "is missing, but the data directory holds data of an earlier run" in (
        capsys.readouterr().err
    )
    assert main(["jobs", "--data-dir", data_dir]) == 2
    assert "bgtd: the event store" in capsys.readouterr().err


def test_a_new_data_directory_starts_and_so_does_an_evidence_folder_made_beforehand(
    settings: Settings,
) -> None:
    (settings.data_dir / "evidence").mkdir(parents=True)
    (settings.data_dir / "evidence" / "table1.mp4").write_bytes(b"\x00video")
    a_club_with_a_tournament(settings)
    bootstrap(settings).close()  # and again


def test_an_evidence_folder_that_holds_the_stores_files_stops_the_start(
    settings: Settings,
) -> None:
    # rule C-VIDEO-1: recordings there are deleted, so the store's files must not be there
    for folder in (settings.data_dir, settings.data_dir.parent):
        with pytest.raises(EvidenceFolderError, match=r"holds the service's own files"):
            bootstrap(Settings(data_dir=settings.data_dir, evidence_dir=folder, dev=True))
    assert not (settings.data_dir / "events.sqlite3").exists()


# --- PostgreSQL: "other data" is the store's own history --------------------------------------


@pytest.mark.postgres
def test_a_lost_key_file_while_the_postgresql_store_has_events_stops_the_start(
    tmp_path: Path, postgres_schema_url: str
) -> None:
    settings = Settings(
        data_dir=tmp_path / "data", database_url=postgres_schema_url, dev=True, run_scheduler=False
    )
    a_club_with_a_tournament(settings)
    (settings.data_dir / "secret.key").unlink()

    with pytest.raises(SecretKeyMissingError, match=r"the event store has run with it"):
        bootstrap(settings)
    # another process's data directory, without the key file: refused the same way
    with pytest.raises(SecretKeyMissingError):
        bootstrap(Settings(data_dir=tmp_path / "other", database_url=postgres_schema_url))

    assert not (settings.data_dir / "secret.key").exists()


@pytest.mark.postgres
def test_an_empty_postgresql_store_that_the_views_were_built_from_stops_the_start(
    tmp_path: Path, postgres_url: str, postgres_schema_url: str
) -> None:
    settings = Settings(
        data_dir=tmp_path / "data",
        database_url=postgres_schema_url,
        secret_key="the club's secret",
        dev=True,
        run_scheduler=False,
    )
    a_club_with_a_tournament(settings)
    import psycopg

    schema = postgres_schema_url.rpartition("schema=")[2]
    with psycopg.connect(postgres_url, autocommit=True) as connection:  # the store is wiped
        connection.execute(f"DROP SCHEMA {schema} CASCADE")
        connection.execute(f"CREATE SCHEMA {schema}")

    with pytest.raises(StoreMissingError, match=r"holds no events, but the views"):
        bootstrap(settings)
