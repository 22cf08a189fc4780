"""The outbox's sender runs in the elected process only: processes sharing a PostgreSQL store
each project the same mails into their own views, and one of them sends them. The ledger of
sent mails is the store's, shared by all: a process taking over sends nothing again."""

# rule P-MAIL-1: never sends twice, also with several processes

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import pytest

from domain.tournament import Applicant, TournamentPlan
from scheduler import send_mail
from scheduler.leader import Leadership
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.settings import Settings
from tests.conftest import processes_of_one_store
from tests.smtp_sink import Sink, sink

__all__ = ["sink"]  # the fixture, used by name


@pytest.mark.postgres
def test_two_processes_on_one_store_send_each_mail_once(
    tmp_path: Path, postgres_schema_url: str, sink: Sink
) -> None:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    processes = start(tmp_path, postgres_schema_url, sink, clock)
    leaderships = [Leadership(postgres_schema_url) for _ in processes]
    try:
        first = processes[0]
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = first.tournaments.schedule_tournament(plan).id
        ask(first, tournament, "anna@example.org")
        for _ in range(3):
            for services, leadership in zip(processes, leaderships, strict=True):
                send_mail(services, leadership)
        assert len(sink.messages) == 1
        # both processes know the mail, and that it went out (the shared ledger says so)
        for services in processes:
            services.views.catch_up()
        statuses = [[mail.status for mail in p.outbox.list()] for p in processes]
        assert statuses == [["sent"], ["sent"]]
    finally:
        for services, leadership in zip(processes, leaderships, strict=True):
            leadership.release()
            services.close()


def start(tmp_path: Path, url: str, sink: Sink, clock: MovableClock) -> list[Services]:
    """Two processes on one PostgreSQL store, sharing its secret, mailing to the sink."""
    return processes_of_one_store(tmp_path, url, clock, smtp_url=sink.url)


def ask(services: Services, tournament: UUID, email: str) -> None:
    services.requests.request(
        tournament, Applicant(first_name="Anna", last_name="M", email=email, age=30)
    )


@pytest.mark.postgres
def test_a_process_taking_over_the_sending_sends_no_mail_again(
    tmp_path: Path, postgres_schema_url: str, sink: Sink
) -> None:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    processes = start(tmp_path, postgres_schema_url, sink, clock)
    leaderships = [Leadership(postgres_schema_url) for _ in processes]
    try:
        first, second = processes
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = first.tournaments.schedule_tournament(plan).id
        ask(first, tournament, "anna@example.org")
        for services, leadership in zip(processes, leaderships, strict=True):
            send_mail(services, leadership)
        assert [m["To"] for m in sink.messages] == ["anna@example.org"]

        leaderships[0].release()  # the sender stops (a deploy, a crash); the other takes over
        clock.advance(60)
        ask(second, tournament, "bert@example.org")
        for _ in range(3):
            send_mail(second, leaderships[1])
        assert [m["To"] for m in sink.messages] == ["anna@example.org", "bert@example.org"]
    finally:
        for services, leadership in zip(processes, leaderships, strict=True):
            leadership.release()
            services.close()


@pytest.mark.postgres
def test_two_senders_at_once_send_each_mail_once(
    tmp_path: Path, postgres_schema_url: str, sink: Sink
) -> None:
    # no election at all (two leaders for a moment): each mail's claim in the ledger decides
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    processes = start(tmp_path, postgres_schema_url, sink, clock)
    try:
        first = processes[0]
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = first.tournaments.schedule_tournament(plan).id
        for number in range(6):
            ask(first, tournament, f"spieler{number}@example.org")
        with ThreadPoolExecutor(max_workers=2) as pool:
            sent = list(pool.map(lambda services: services.outbox.send_due(), processes))
        assert sum(sent) == 6
        assert sorted(m["To"] for m in sink.messages) == [
            f"spieler{number}@example.org" for number in range(6)
        ]
    finally:
        for services in processes:
            services.close()


def test_a_single_sqlite_process_sends_its_mail(tmp_path: Path, sink: Sink) -> None:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    settings = Settings(data_dir=tmp_path, dev=True, run_scheduler=False, smtp_url=sink.url)
    services = bootstrap(settings, clock)
    try:
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = services.tournaments.schedule_tournament(plan).id
        ask(services, tournament, "anna@example.org")
        assert send_mail(services, Leadership(None)) == 1
        assert send_mail(services, Leadership(None)) == 0
    finally:
        services.close()
    assert [m["To"] for m in sink.messages] == ["anna@example.org"]


@pytest.mark.postgres
def test_a_process_no_longer_sending_deletes_its_mail_files_of_a_person_another_one_erased(
    tmp_path: Path, postgres_schema_url: str
) -> None:
    # API.md "POST /api/v1/people/{player_id}/erasure" (personal data erased everywhere),
    # rule P-MAIL-1: without SMTP each mail is a file in the data directory of the process
    # that sent it; once another process holds the job lock and a third request erases the
    # person there, the files of the process that sent them must go too, not wait until it
    # sends again
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    first, second = processes = processes_of_one_store(tmp_path, postgres_schema_url, clock)
    leaderships = [Leadership(postgres_schema_url) for _ in processes]
    try:
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = first.tournaments.schedule_tournament(plan).id
        applicant = Applicant(first_name="Anna", last_name="M", email="anna@example.org", age=30)
        player_id = first.tournaments.register(tournament, applicant).player_id
        assert send_mail(second, leaderships[1]) == 1  # the second process sends, to a file
        [mail_file] = (tmp_path / "second" / "outbox").glob("*.eml")
        assert b"anna@example.org" in mail_file.read_bytes()
        leaderships[1].release()  # a new election: the first process sends from now on
        assert leaderships[0].is_leader()

        first.people.erase(player_id, actor="director")
        second.views.catch_up()  # the second runs on: its views follow the log
        assert send_mail(second, leaderships[1]) == 0  # and it sends nothing

        assert list((tmp_path / "second" / "outbox").glob("*.eml")) == []
    finally:
        for services, leadership in zip(processes, leaderships, strict=True):
            leadership.release()
            services.close()
