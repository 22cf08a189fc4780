"""Deadlines that enforce themselves: each job fires once and records its event once, after a
restart too, and with two processes on one PostgreSQL store (T-CANCEL-1, T-CHECKIN-1/2)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from scheduler import run_jobs
from scheduler.leader import Leadership
from service.bootstrap import Services
from service.clock import MovableClock
from service.jobs.jobs import JobRun
from service.settings import Settings
from service.storage.events import EventStore
from service.storage.persistence import persistence_environment
from tests.api.test_tournaments import person, schedule
from tests.conftest import DIRECTOR, processes_of_one_store

Client = TestClient[Any]
CANCELLATION_CLOSED = datetime(2026, 4, 16, 16, 0, 1, tzinfo=UTC)  # 18:00:01 in Berlin
CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)  # 12:30
STARTS_AT = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)  # 13:00
JOB_EVENTS = ("CancellationClosed", "CheckInOpened", "TournamentStarted", "TournamentStartFailed")


def recorded(services: Services) -> Counter[str]:
    """How often each job event is in the store, by type."""
    names = [n.topic.rpartition(":")[2] for n in services.store.notifications(0, 100_000)]
    return Counter(name for name in names if name in JOB_EVENTS)


def move_to(clock: MovableClock, instant: datetime) -> None:
    clock.advance((instant - clock.now()).total_seconds())


def after_the_next_poll(
    services: Services, seconds: float = 10, poll: str = "run_due"
) -> list[JobRun]:
    """What the scheduler's next poll of the jobs ran (``run_slow``: of the slow ones): waits
    for that poll, not a fixed time."""
    ran: list[list[JobRun]] = []
    polled = threading.Event()
    run = getattr(services.jobs, poll)

    def observed(now: datetime) -> list[JobRun]:
        runs: list[JobRun] = run(now)
        ran.append(runs)
        polled.set()
        return runs

    setattr(services.jobs, poll, observed)
    try:
        assert polled.wait(seconds), "the scheduler did not poll the jobs again"
    finally:
        setattr(services.jobs, poll, run)
    return ran[0]


def registered(client: Client, players: int) -> tuple[str, list[dict[str, Any]]]:
    created = schedule(client, capacity=20)
    answers = []
    for number in range(1, players + 1):
        response = client.post(
            f"/api/v1/tournaments/{created['id']}/registrations",
            json=person(number),
            headers=DIRECTOR,
        )
        assert response.status_code == 201, response.text
        answers.append(response.json())
    return created["id"], answers


def check_in(client: Client, tournament_id: str, registration: dict[str, Any]) -> None:
    response = client.post(
        f"/api/v1/tournaments/{tournament_id}/registrations/"
        f"{registration['registration_id']}/check-in",
        json={"id_document_seen": True, "buy_in_paid_cents": 10000},
        headers=DIRECTOR,
    )
    assert response.status_code == 200, response.text


def test_each_deadline_fires_once_and_at_13_00_the_tournament_starts_itself(
    client: Client, clock: MovableClock
) -> None:
    # rules T-CANCEL-1, T-CHECKIN-1, T-CHECKIN-2: nobody starts the tournament by hand
    services: Services = client.app.state.services
    tournament_id, registrations = registered(client, 5)
    url = f"/api/v1/tournaments/{tournament_id}"
    assert services.jobs.run_due(clock.now()) == []

    move_to(clock, CANCELLATION_CLOSED)
    assert [run.effect for run in services.jobs.run_due(clock.now())] == ["CancellationClosed"]
    assert services.jobs.run_due(clock.now()) == []
    assert client.get(url).json()["status"] == "cancellation_closed"

    move_to(clock, CHECK_IN_OPENS)
    assert [run.effect for run in services.jobs.run_due(clock.now())] == ["CheckInOpened"]
    for registration in registrations[:4]:  # the fifth does not come
        check_in(client, tournament_id, registration)

    move_to(clock, STARTS_AT)
    runs = services.jobs.run_due(clock.now())
    assert [run.effect for run in runs] == [
        "TournamentStarted: 4 players, 1 no-shows released, round 1 paired"
    ]
    assert services.jobs.run_due(clock.now()) == []
    assert recorded(services) == {
        "CancellationClosed": 1,
        "CheckInOpened": 1,
        "TournamentStarted": 1,
    }
    assert client.get(url).json()["status"] == "running"
    assert len(client.get(f"{url}/rounds/1").json()["pairings"]) == 2
    participants = client.get(f"{url}/registrations", headers=DIRECTOR).json()
    assert sorted(p["status"] for p in participants) == ["checked_in"] * 4 + ["no_show"]
    stream = client.get(f"/api/v1/audit/streams/{tournament_id}", headers=DIRECTOR).json()
    assert {e["actor"] for e in stream if e["type"] in JOB_EVENTS} == {"scheduler"}

    jobs = client.get("/api/v1/jobs", headers=DIRECTOR).json()
    assert [(j["kind"], j["status"]) for j in jobs] == [
        ("close_cancellation", "done"),
        ("open_check_in", "done"),
        ("start_tournament", "done"),
    ]
    assert jobs[0]["deadline"] == "2026-04-16T18:00:00+02:00"
    assert jobs[2]["effect"] == "TournamentStarted with 4 players by scheduler"


def test_a_start_with_fewer_than_two_players_is_recorded_as_failed_once(
    client: Client, clock: MovableClock
) -> None:
    services: Services = client.app.state.services
    tournament_id, registrations = registered(client, 3)
    move_to(clock, CHECK_IN_OPENS)
    check_in(client, tournament_id, registrations[0])
    move_to(clock, STARTS_AT)

    runs = services.jobs.run_due(clock.now())

    start = [run for run in runs if run.kind == "start_tournament"]
    assert start[0].effect is not None
    assert start[0].effect.startswith("TournamentStartFailed: 1 player(s) checked in")
    assert services.jobs.run_due(clock.now()) == []
    assert recorded(services)["TournamentStartFailed"] == 1
    assert client.get(f"/api/v1/tournaments/{tournament_id}").json()["status"] == "check_in"
    # the director may still start it by hand once a second player has checked in
    check_in(client, tournament_id, registrations[1])
    started = client.post(f"/api/v1/tournaments/{tournament_id}/start", headers=DIRECTOR)
    assert started.status_code == 200, started.text


def test_deadlines_passed_while_the_service_was_down_run_once_at_start_up(
    tmp_path: Path, clock: MovableClock
) -> None:
    settings = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)
    with TestClient(create_app(settings, clock=clock)) as client:
        tournament_id, _ = registered(client, 2)
    move_to(clock, CHECK_IN_OPENS)  # both deadlines pass while the service is stopped

    running = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=True)
    with TestClient(create_app(running, clock=clock)) as client:
        services: Services = client.app.state.services
        # The clock the deadlines follow is the movable one; what is waited on here is the
        # scheduler's own thread (a real interval): its first poll, then one further poll.
        deadline = time.monotonic() + 10
        while recorded(services)["CheckInOpened"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recorded(services)["CheckInOpened"] == 1, "the scheduler never ran the jobs"
        assert after_the_next_poll(services) == []  # a further poll finds nothing to do
        assert recorded(services) == {"CancellationClosed": 1, "CheckInOpened": 1}
        status = client.get(f"/api/v1/tournaments/{tournament_id}").json()["status"]
        assert status == "check_in"

    with TestClient(create_app(settings, clock=clock)) as client:
        services = client.app.state.services
        assert services.jobs.run_due(clock.now()) == []
        assert recorded(services) == {"CancellationClosed": 1, "CheckInOpened": 1}


def test_two_processes_on_one_postgresql_store_run_each_job_exactly_once(
    tmp_path: Path, postgres_schema_url: str, clock: MovableClock
) -> None:
    first, second = processes_of_one_store(tmp_path, postgres_schema_url, clock)
    try:
        with TestClient(create_app(first.settings, clock=clock)) as client:
            tournament_id, registrations = registered(client, 4)
            move_to(clock, CHECK_IN_OPENS)
            for registration in registrations[:3]:
                check_in(client, tournament_id, registration)
        move_to(clock, STARTS_AT)

        # without the lock both run every job at once: the events decide
        barrier = threading.Barrier(2)
        runs: list[Any] = []

        def run(services: Services) -> None:
            barrier.wait()
            runs.extend(services.jobs.run_due(clock.now()))

        threads = [threading.Thread(target=run, args=(s,)) for s in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        once = {"CancellationClosed": 1, "CheckInOpened": 1, "TournamentStarted": 1}
        assert recorded(first) == recorded(second) == once
        effects = Counter(run.kind for run in runs if run.effect)
        assert effects == {"close_cancellation": 1, "open_check_in": 1, "start_tournament": 1}
        assert first.jobs.run_due(clock.now()) == second.jobs.run_due(clock.now()) == []
    finally:
        first.close()
        second.close()


def test_one_process_of_a_postgresql_store_holds_the_job_lock_until_it_ends(
    postgres_schema_url: str,
) -> None:
    first, second = Leadership(postgres_schema_url), Leadership(postgres_schema_url)
    try:
        assert first.is_leader()
        assert first.is_leader()
        assert not second.is_leader()
        first.release()  # as if the holder died: its session ends, the lock is free
        assert second.is_leader()
        assert not first.is_leader()
    finally:
        first.release()
        second.release()


def test_every_spelling_of_one_stores_url_takes_the_same_job_lock() -> None:
    # rules T-CANCEL-1, P-MAIL-1: one process of a store runs its jobs and sends its mails; a
    # URL that leaves the database out names the store's default database bgtd, one without
    # ?schema= the schema public, and a percent-encoded name is the same name
    spellings = (
        "postgresql://postgres@db:5432/bgtd?schema=public",
        "postgresql://db",
        "postgres://club:secret@db/%62gtd",
    )
    assert len({Leadership(url).key for url in spellings}) == 1
    assert Leadership("postgresql://db/bgtd?schema=other").key != Leadership("postgresql://db").key
    assert Leadership("postgresql://db/other").key != Leadership("postgresql://db/bgtd").key


@pytest.mark.postgres
def test_two_processes_naming_one_store_in_two_spellings_share_its_job_lock(
    postgres_schema_url: str,
) -> None:
    # rule P-MAIL-1: one sender per store, however its URL is written
    path = postgres_schema_url.split("?", 1)[0].rsplit("/", 1)[1]
    encoded = postgres_schema_url.replace(f"/{path}?", f"/%{ord(path[0]):02x}{path[1:]}?", 1)
    assert encoded != postgres_schema_url
    first, second = Leadership(postgres_schema_url), Leadership(encoded)
    try:
        assert first.is_leader()
        assert not second.is_leader()
    finally:
        first.release()
        second.release()


def test_on_sqlite_the_one_process_runs_the_jobs(client: Client, clock: MovableClock) -> None:
    services: Services = client.app.state.services
    registered(client, 2)
    move_to(clock, CANCELLATION_CLOSED)
    assert [run.effect for run in run_jobs(services, Leadership(None))] == ["CancellationClosed"]


@pytest.mark.postgres
def test_the_job_lock_is_taken_where_the_store_is_with_the_stores_own_defaults(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rules T-CANCEL-1, T-CHECKIN-1, P-MAIL-1: the deadlines and the mails of a PostgreSQL
    # store run in the process holding its job lock; a URL without a user name is the store's
    # user "postgres" (README, BGTD_DATABASE_URL), so the lock is taken as that user too, not as
    # whatever the environment's PostgreSQL defaults name (here a role that does not exist)
    url = postgres_schema_url.replace("//postgres@", "//", 1)
    assert url != postgres_schema_url
    monkeypatch.setenv("PGUSER", "bgtd_no_such_role")
    store = EventStore(env=persistence_environment(url))  # the store opens with this URL
    leadership = Leadership(url)
    try:
        assert store.latest_notification_id() == 0
        assert leadership.is_leader()
    finally:
        leadership.release()
        store.close()
