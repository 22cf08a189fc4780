"""Scheduled jobs: thin calls into the service with ``now``; APScheduler runs them."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from apscheduler.events import EVENT_SCHEDULER_SHUTDOWN
from apscheduler.schedulers.background import BackgroundScheduler

from scheduler.leader import Leadership
from service.bootstrap import Services
from service.jobs.jobs import JobRun

VIEW_POLL_SECONDS = 1.0
JOB_POLL_SECONDS = 1.0
"""How late a deadline's job may run at most (the dev clock moves; deadlines are polled)."""
MAIL_POLL_SECONDS = 2.0
SLOW_JOB_POLL_SECONDS = 2.0


def run_jobs(services: Services, leadership: Leadership) -> list[JobRun]:
    """The elected process runs every job due now (those missed while down included)."""
    if not leadership.is_leader():
        return []
    return services.jobs.run_due(services.clock.now())


def run_slow_jobs(services: Services, leadership: Leadership) -> list[JobRun]:
    """The elected process runs the next due slow job (a match's analysis by gnubg) in a
    thread of its own: the deadlines of play never wait for it (rule A-ANALYSIS-1)."""
    if not leadership.is_leader():
        return []
    return services.jobs.run_slow(services.clock.now())


def send_mail(services: Services, leadership: Leadership) -> int:
    """The elected process sends the outbox's due mails (rule P-MAIL-1): one sender, so that
    processes sharing a store never send a mail twice. Every process deletes its mail files
    of persons erased since (it may have sent them while it held the lock): an erasure in
    another process cannot reach this one's data directory."""
    if not leadership.is_leader():
        services.outbox.forget_erased()
        return 0
    return services.outbox.send_due()


def start_scheduler(services: Services) -> BackgroundScheduler:
    """Start the jobs of this process (views follow events written by other processes too)."""
    scheduler = BackgroundScheduler(timezone="UTC")
    leadership = Leadership(services.settings.database_url)
    # this process's claim to run the jobs is given up at shutdown
    scheduler.add_listener(lambda _: leadership.release(), EVENT_SCHEDULER_SHUTDOWN)
    # each job runs once at a time, and a late tick is not run twice to catch up
    every = partial(scheduler.add_job, trigger="interval", coalesce=True, max_instances=1)
    every(services.views.catch_up, seconds=VIEW_POLL_SECONDS, id="views.catch_up")
    # at start-up the deadlines that passed while down run now, and the mails a crash left
    started = datetime.now(UTC)
    for job, seconds, job_id in (
        (run_jobs, JOB_POLL_SECONDS, "jobs.run_due"),
        (send_mail, MAIL_POLL_SECONDS, "mail.send_due"),
        (run_slow_jobs, SLOW_JOB_POLL_SECONDS, "jobs.run_slow"),
    ):
        every(job, args=[services, leadership], seconds=seconds, id=job_id, next_run_time=started)
    scheduler.start()
    return scheduler
