"""The scheduler's jobs (director): pending and past, derived from the events."""

from __future__ import annotations

import msgspec
from litestar import Controller

from api.http.routes import director_get
from api.http.schemas import ServicesDep
from service.jobs.jobs import Job


class JobController(Controller):
    path = "/api/v1/jobs"
    tags = ["jobs"]  # noqa: RUF012

    @director_get("/", summary="Pending and past jobs")
    def list_jobs(self, services: ServicesDep) -> list[Job]:
        zone = services.zone
        # the same jobs, their instants in the club's time zone
        return [
            msgspec.structs.replace(
                job,
                deadline=job.deadline.astimezone(zone) if job.deadline else None,
                done_at=job.done_at.astimezone(zone) if job.done_at else None,
            )
            for job in services.jobs.list_jobs()
        ]
