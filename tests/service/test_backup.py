"""``bgtd backup``: a consistent copy of a running service's SQLite files, restored by unpacking."""

from __future__ import annotations

import tarfile
import threading
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.settings import Settings
from service.storage.events import EventStore


def register_until(services: Services, stop: threading.Event, registered: list[int]) -> None:
    tournament_id = services.tournaments.schedule_tournament(
        TournamentPlan(name="Frühling", date="2026-04-18", venue="Amberg", capacity=1000)
    ).id
    while not stop.is_set():
        number = len(registered)
        services.tournaments.register(
            tournament_id,
            Applicant(
                first_name="Vorname",
                last_name=f"Nachname{number}",
                email=f"spieler{number}@example.org",
                age=30,
            ),
        )
        registered.append(number)


def log(store: EventStore) -> list[tuple[int, str, bytes]]:
    return [(n.id, n.topic, n.state) for n in store.notifications(0, 1_000_000)]


def view_rows(services: Services) -> dict[str, list[Any]]:
    with services.views.reading() as db:
        return {
            table: sorted(db.execute(f"SELECT * FROM [{table}]").fetchall(), key=repr)
            for projection in services.views.projections
            for table in projection.tables
        }


def test_a_backup_taken_while_events_are_written_restores_every_event_up_to_it(
    tmp_path: Path, clock: MovableClock
) -> None:
    settings = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)
    services = bootstrap(settings, clock)
    stop, registered = threading.Event(), list[int]()
    writer = threading.Thread(target=register_until, args=(services, stop, registered))
    writer.start()
    try:
        while len(registered) < 20 and writer.is_alive():
            stop.wait(0.01)  # a real writer thread, racing the backup: no clock could drive it
        archive = tmp_path / "club.tar"
        assert main(["backup", str(archive), "--data-dir", str(settings.data_dir)]) == 0
        after_backup = len(registered)
        while len(registered) < after_backup + 10 and writer.is_alive():
            stop.wait(0.01)  # the service goes on writing
    finally:
        stop.set()
        writer.join()
    assert len(registered) >= after_backup + 10, "the writer stopped"
    live = log(services.store)
    services.close()

    restored = tmp_path / "restored"
    # the archive holds the persons' keys and the secret: readable by its owner only
    assert archive.stat().st_mode & 0o777 == 0o600
    with tarfile.open(archive) as unpacked:
        assert sorted(unpacked.getnames()) == ["events.sqlite3", "secret.key", "views.sqlite3"]
        assert {member.mode for member in unpacked.getmembers()} == {0o600}
        unpacked.extractall(restored, filter="data")
    service = bootstrap(Settings(data_dir=restored, dev=True, run_scheduler=False), clock)
    try:
        backed_up = log(service.store)
        assert 20 < len(backed_up) < len(live)
        assert backed_up == live[: len(backed_up)]  # every event up to the backup, no gap
        caught_up = view_rows(service)
        assert caught_up["seats"] or caught_up["participants"]
        service.views.rebuild()
        assert view_rows(service) == caught_up  # the views agree with a fold of the events
    finally:
        service.close()


def test_a_backup_of_a_postgresql_store_points_to_pg_dump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://postgres@127.0.0.1:5432/club"
    assert main(["backup", str(tmp_path / "club.tar"), "--database-url", url]) == 2
    error = capsys.readouterr().err
    assert "pg_dump" in error
    assert error.count("\n") == 1
    assert not (tmp_path / "club.tar").exists()
