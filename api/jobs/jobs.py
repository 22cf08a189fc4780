"""The scheduler's jobs (director): pending and past, derived from the events."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec
from litestar import Controller, get

from api.http.auth import director_only
from api.http.schemas import ServicesDep
from service.jobs.jobs import JobStatus


class Job(msgspec.Struct):
    id: str
    kind: str
    target: UUID
    deadline: datetime | None
    """None: waiting for an event (a recording's game still being played)."""
    status: JobStatus
    done_at: datetime | None
    effect: str | None
    attempts: int


class JobController(Controller):
    path = "/api/v1/jobs"
    tags = ["jobs"]  # noqa: RUF012

    @get("/", guards=[director_only], sync_to_thread=True, summary="Pending and past jobs")
    def list_jobs(self, services: ServicesDep) -> list[Job]:
        zone = services.zone
        return [
            Job(
                id=job.id,
                kind=job.kind,
                target=job.target,
                deadline=job.deadline.astimezone(zone) if job.deadline else None,
                status=job.status,
                done_at=job.done_at.astimezone(zone) if job.done_at else None,
                effect=job.effect,
                attempts=job.attempts,
            )
            for job in services.jobs.list_jobs()
        ]
