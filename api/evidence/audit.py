"""Audit: any aggregate's event stream with versions, timestamps and actors (rule C-DISPUTE-1)."""

from __future__ import annotations

from uuid import UUID

from litestar import Controller
from litestar.params import FromPath

from api.http.routes import director_get
from api.http.schemas import ServicesDep, StreamEvent, UntilVersion, stream_events
from service.storage.events import UnknownAggregateError


class AuditController(Controller):
    path = "/api/v1/audit"
    tags = ["audit"]  # noqa: RUF012

    @director_get(
        "/streams/{stream_id:uuid}",
        summary="Any aggregate's events (director), up to ?until_version=N",
    )
    def stream(
        self, stream_id: FromPath[UUID], services: ServicesDep, until_version: UntilVersion = None
    ) -> list[StreamEvent]:
        events = services.store.stream(stream_id, until_version)
        if not events:
            raise UnknownAggregateError(f"no record with id {stream_id}")
        return stream_events(events, services.directors.names(e.actor for e in events))
