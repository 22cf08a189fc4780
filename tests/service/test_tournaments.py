"""The tournament use cases over the event store: snapshots and reloading."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from domain import tournament
from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.settings import Settings
from service.storage.events import EventStore, Snapshot
from service.storage.persistence import persistence_environment


@pytest.fixture
def services(tmp_path: Path, database_url: str | None) -> Iterator[Services]:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    settings = Settings(data_dir=tmp_path, database_url=database_url, dev=True, run_scheduler=False)
    built = bootstrap(settings, clock)
    yield built
    built.close()


def test_a_long_registration_stream_reloads_from_its_snapshot(services: Services) -> None:
    # 20 seats and 89 on the waitlist: version 100 is stored as a snapshot as well
    tournaments = services.tournaments
    tournament_id = tournaments.schedule_tournament(
        TournamentPlan(
            name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg", waitlist_limit=100
        )
    ).id
    for n in range(109):
        tournaments.register(
            tournament_id,
            Applicant(first_name="V", last_name=f"N{n}", email=f"p{n}@example.org", age=30),
        )
    store = services.store
    assert store.snapshots is not None
    [snapshot] = list(store.snapshots.get(tournament_id))
    assert isinstance(snapshot, Snapshot)
    assert snapshot.originator_version == 100

    fresh = EventStore(env=persistence_environment(services.settings.event_store_url))
    try:
        reloaded = fresh.load(tournament_id, tournament.evolve)
    finally:
        fresh.close()
    replayed = store.load(tournament_id, tournament.evolve, version=110)
    assert reloaded == replayed
    assert reloaded.version == 110
    assert reloaded.seats_taken == 20
    assert len(reloaded.with_status("waitlisted")) == 89
    assert tournaments.get_seats(tournament_id).waitlist == 89
