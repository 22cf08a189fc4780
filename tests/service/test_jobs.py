"""The jobs slice at the service level: each deadline's job falls due when the (movable)
clock passes it and runs once (rules T-CANCEL-1, T-CHECKIN-1, T-CHECKIN-2, C-BREAK-1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from service.bootstrap import Services
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from tests.service.conftest import registered_tournament

CANCELLATION_ENDS = datetime(2026, 4, 16, 16, 0, tzinfo=UTC)  # Thursday 18:00 in Amberg
CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)
STARTS = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)


def move_to(clock: MovableClock, instant: datetime) -> None:
    clock.advance((instant - clock.now()).total_seconds())


def test_a_tournaments_deadlines_are_listed_and_fall_due_with_the_clock(
    services: Services, clock: MovableClock
) -> None:
    day = registered_tournament(services, 2)
    jobs = {job.kind: job for job in services.jobs.list_jobs() if job.target == day.tournament_id}
    assert {kind: job.deadline for kind, job in jobs.items()} == {
        "close_cancellation": CANCELLATION_ENDS,
        "open_check_in": CHECK_IN_OPENS,
        "start_tournament": STARTS,
    }
    assert {job.status for job in jobs.values()} == {"pending"}
    assert services.jobs.due(clock.now()) == []
    move_to(clock, CANCELLATION_ENDS)
    assert [job.kind for job in services.jobs.due(clock.now())] == ["close_cancellation"]


def test_each_deadline_job_records_its_event_once(services: Services, clock: MovableClock) -> None:
    # rule T-CANCEL-1: the cancellation closes; T-CHECKIN-1: the check-in opens
    day = registered_tournament(services, 2)
    move_to(clock, CANCELLATION_ENDS + timedelta(seconds=1))  # a cancellation at 18:00 is in time
    assert services.jobs.close_cancellation(day.tournament_id) == "CancellationClosed"
    assert services.jobs.close_cancellation(day.tournament_id) is None
    move_to(clock, CHECK_IN_OPENS)
    assert services.jobs.open_check_in(day.tournament_id) == "CheckInOpened"
    assert services.jobs.open_check_in(day.tournament_id) is None
    assert services.tournaments.get_tournament(day.tournament_id).status == "check_in"
    done = {j.kind for j in services.jobs.list_jobs() if j.status == "done"}
    assert done == {"close_cancellation", "open_check_in"}


def test_at_the_start_time_the_tournament_starts_itself_and_then_watches_the_breaks(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-2: the start releases no-shows and pairs round 1; C-BREAK-1: the
    # scheduler flags over-long breaks, here none
    day = registered_tournament(services, 3)
    move_to(clock, CHECK_IN_OPENS)
    for receipt in day.registrations[:2]:
        services.tournaments.check_in(
            day.tournament_id,
            receipt.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00),
        )
    assert services.jobs.start_tournament(day.tournament_id, clock.now()) is None  # not yet
    move_to(clock, STARTS)
    effect = services.jobs.start_tournament(day.tournament_id, clock.now())
    assert effect == "TournamentStarted: 2 players, 1 no-shows released, round 1 paired"
    assert services.tournaments.get_tournament(day.tournament_id).status == "running"
    assert services.jobs.flag_breaks(day.tournament_id) is None


def test_one_run_does_every_deadline_passed_and_a_job_that_fails_waits_for_the_next_run(
    services: Services,
    clock: MovableClock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # rules T-CANCEL-1, T-CHECKIN-1: both deadlines passed while nobody ran the jobs
    day = registered_tournament(services, 2)
    move_to(clock, CHECK_IN_OPENS)

    def broken(target: UUID, now: datetime) -> str | None:
        raise OSError("the disk is full")

    with monkeypatch.context() as patched:
        patched.setitem(services.jobs.runners, "close_cancellation", broken)
        first = services.jobs.run_due(clock.now())
    assert [(run.kind, run.target, run.effect) for run in first] == [
        ("close_cancellation", day.tournament_id, None),
        ("open_check_in", day.tournament_id, "CheckInOpened"),
    ]
    assert "failed; it is tried again at the next run" in caplog.text

    second = services.jobs.run_due(clock.now())
    assert [(run.kind, run.effect) for run in second] == [
        ("close_cancellation", "CancellationClosed")
    ]
    assert services.jobs.run_due(clock.now()) == []  # each ran once
    assert services.tournaments.get_tournament(day.tournament_id).status == "check_in"
