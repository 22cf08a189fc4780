"""The server's secret: made once per data directory, shared by processes, one key per use."""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from domain.tournament import TournamentPlan
from service.bootstrap import bootstrap
from service.settings import Settings
from service.storage.secret import SecretMismatchError, derived_key, load_secret_key
from service.storage.startup import SecretKeyMissingError


def test_the_secret_key_is_made_once_in_the_data_directory(tmp_path: Path) -> None:
    first = load_secret_key(None, tmp_path)

    assert load_secret_key(None, tmp_path) == first
    assert (tmp_path / "secret.key").stat().st_mode & 0o777 == 0o600
    assert load_secret_key("configured", tmp_path) != first


def test_a_secret_key_file_another_process_has_created_but_not_yet_written_is_waited_for(
    tmp_path: Path,
) -> None:
    path = tmp_path / "secret.key"
    path.touch()  # created with O_EXCL by an older process, not yet written
    writer = threading.Timer(0.1, path.write_text, args=("the-key-of-the-other-process",))
    writer.start()
    try:
        key = load_secret_key(None, tmp_path)
    finally:
        writer.join()

    assert key == hashlib.sha256(b"the-key-of-the-other-process").digest()


def test_processes_starting_at_once_all_get_the_one_secret_key_and_none_is_replaced(
    tmp_path: Path,
) -> None:
    start = threading.Barrier(8)

    def start_process() -> bytes:
        start.wait()
        return load_secret_key(None, tmp_path)

    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: start_process(), range(8)))

    assert len(keys) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["secret.key"]  # no temporary file left
    written = (tmp_path / "secret.key").read_text()
    assert load_secret_key(None, tmp_path) == keys.pop()
    assert (tmp_path / "secret.key").read_text() == written


def test_each_use_of_the_secret_gets_its_own_key() -> None:
    secret = b"the server secret"
    assert derived_key(secret, "dice seeds") != derived_key(secret, "player ids")
    assert derived_key(secret, "dice seeds") == derived_key(secret, "dice seeds")
    assert derived_key(b"another", "dice seeds") != derived_key(secret, "dice seeds")


def test_the_data_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    services = bootstrap(Settings(data_dir=data_dir, dev=True, run_scheduler=False))
    try:
        services.tournaments.schedule_tournament(
            TournamentPlan(name="Monthly", date="2030-04-20", venue="Club")
        )
    finally:
        services.close()
    files = sorted(path.name for path in data_dir.iterdir() if path.is_file())
    assert {"events.sqlite3", "views.sqlite3", "secret.key"} <= set(files)
    assert {name: (data_dir / name).stat().st_mode & 0o777 for name in files} == dict.fromkeys(
        files, 0o600
    )
    assert data_dir.stat().st_mode & 0o777 == 0o700
    assert (data_dir / "evidence").stat().st_mode & 0o777 == 0o700  # rule C-VIDEO-1


def test_a_lost_secret_key_file_stops_the_service_instead_of_rekeying_everyone(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path, dev=True, run_scheduler=False)
    bootstrap(settings).close()
    bootstrap(settings).close()  # the same key: starts again
    (tmp_path / "secret.key").unlink()
    with pytest.raises(SecretKeyMissingError, match=r"secret\.key or set BGTD_SECRET_KEY"):
        bootstrap(settings)
    assert not (tmp_path / "secret.key").exists()  # no new key left to restore over


@pytest.mark.postgres
def test_a_second_process_with_another_secret_on_one_postgresql_store_refuses_to_start(
    tmp_path: Path, postgres_schema_url: str
) -> None:
    def settings(name: str, secret: str) -> Settings:
        return Settings(
            data_dir=tmp_path / name,
            database_url=postgres_schema_url,
            secret_key=secret,
            dev=True,
            run_scheduler=False,
        )

    first = bootstrap(settings("first", "the shared secret"))
    try:
        bootstrap(settings("second", "the shared secret")).close()
        with pytest.raises(SecretMismatchError):
            bootstrap(settings("third", "another secret"))
    finally:
        first.close()
