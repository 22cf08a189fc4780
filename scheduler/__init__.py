"""Scheduled jobs: thin calls into the service with ``now``; APScheduler runs them."""

from __future__ import annotations

from apscheduler.schedulers.background import BackgroundScheduler

from service.bootstrap import Services

VIEW_POLL_SECONDS = 1.0


def start_scheduler(services: Services) -> BackgroundScheduler:
    """Start the jobs of this process (views follow events written by other processes too)."""
    scheduler = BackgroundScheduler(timezone="UTC")
    scheduler.add_job(
        services.views.catch_up,
        "interval",
        seconds=VIEW_POLL_SECONDS,
        id="views.catch_up",
        coalesce=True,
        max_instances=1,
    )
    scheduler.start()
    return scheduler
