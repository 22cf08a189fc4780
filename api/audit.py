"""Audit: any aggregate's event stream with versions, timestamps and actors (rule C-DISPUTE-1)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from api.auth import director_only
from api.matches import StreamEvent
from service.bootstrap import Services
from service.matches import event_data
from service.store import UnknownAggregateError


class AuditController(Controller):
    path = "/api/v1/audit"
    tags = ["audit"]  # noqa: RUF012

    @get(
        "/streams/{stream_id:uuid}",
        guards=[director_only],
        sync_to_thread=True,
        summary="Any aggregate's events (director), up to ?until_version=N",
    )
    def stream(
        self,
        stream_id: FromPath[UUID],
        services: NamedDependency[Services],
        until_version: Annotated[int | None, QueryParameter(name="until_version", ge=1)] = None,
    ) -> list[StreamEvent]:
        events = services.store.stream(stream_id, until_version)
        if not events:
            raise UnknownAggregateError(f"no record with id {stream_id}")
        return [
            StreamEvent(
                version=event.originator_version,
                type=type(event).__name__,
                timestamp=event.timestamp,
                actor=event.actor,
                data=event_data(event),
            )
            for event in events
        ]
