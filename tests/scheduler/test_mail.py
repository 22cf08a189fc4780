"""The outbox's sender runs in the elected process only: processes sharing a PostgreSQL store
each project the same mails into their own views, and one of them sends them."""

# rule P-MAIL-1: never sends twice, also with several processes

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from domain.tournament import TournamentPlan
from scheduler import send_mail
from scheduler.leader import Leadership
from service.bootstrap import bootstrap
from service.clock import MovableClock
from service.settings import Settings
from tests.smtp_sink import Sink, sink

__all__ = ["sink"]  # the fixture, used by name


@pytest.mark.postgres
def test_two_processes_on_one_store_send_each_mail_once(
    tmp_path: Path, postgres_schema_url: str, sink: Sink
) -> None:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    processes = [
        bootstrap(
            Settings(
                data_dir=tmp_path / name,
                database_url=postgres_schema_url,
                secret_key="shared secret",
                dev=True,
                run_scheduler=False,
                smtp_url=sink.url,
            ),
            clock,
        )
        for name in ("first", "second")
    ]
    leaderships = [Leadership(postgres_schema_url) for _ in processes]
    try:
        first = processes[0]
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = first.tournaments.schedule_tournament(plan).id
        first.requests.request(
            tournament, first_name="Anna", last_name="M", email="anna@example.org", age=30
        )
        for _ in range(3):
            for services, leadership in zip(processes, leaderships, strict=True):
                send_mail(services, leadership)
        assert len(sink.messages) == 1
        # both processes know the mail; only the leader's row says it went out
        for services in processes:
            services.views.catch_up()
        statuses = [[mail.status for mail in p.outbox.list()] for p in processes]
        assert statuses == [["sent"], ["pending"]]
    finally:
        for services, leadership in zip(processes, leaderships, strict=True):
            leadership.release()
            services.close()


def test_a_single_sqlite_process_sends_its_mail(tmp_path: Path, sink: Sink) -> None:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    settings = Settings(data_dir=tmp_path, dev=True, run_scheduler=False, smtp_url=sink.url)
    services = bootstrap(settings, clock)
    try:
        plan = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
        tournament = services.tournaments.schedule_tournament(plan).id
        services.requests.request(
            tournament, first_name="Anna", last_name="M", email="anna@example.org", age=30
        )
        assert send_mail(services, Leadership(None)) == 1
        assert send_mail(services, Leadership(None)) == 0
    finally:
        services.close()
    assert [m["To"] for m in sink.messages] == ["anna@example.org"]
