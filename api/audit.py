"""Audit: any aggregate's event stream with versions, timestamps and actors (rule C-DISPUTE-1)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from api.auth import director_only
from domain.events import DomainEvent
from service.bootstrap import Services
from service.store import UnknownAggregateError

MAX_VERSION = 2**31 - 1
"""The highest event version a request may name: the stores' integer columns hold it, and no
match or tournament comes near it."""


def version_query(name: str, description: str) -> Any:
    """A query parameter naming an event version, 1 to ``MAX_VERSION`` (else a 422)."""
    return QueryParameter(name=name, ge=1, le=MAX_VERSION, description=description)


UntilVersion = Annotated[
    int | None, version_query("until_version", "only the events up to this version")
]


class StreamEvent(msgspec.Struct):
    version: int
    type: str
    timestamp: datetime
    actor: str | None
    data: dict[str, Any]
    """The event's own fields, without secrets (token hashes, sealed seeds)."""


def stream_events(events: Iterable[DomainEvent]) -> list[StreamEvent]:
    """Events as the API lists them: the envelope as fields, the rest as ``data``."""
    return [
        StreamEvent(
            version=event.originator_version,
            type=type(event).__name__,
            timestamp=event.timestamp,
            actor=event.actor,
            data=_event_data(event),
        )
        for event in events
    ]


def _event_data(event: DomainEvent) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event)
    for key in _HIDDEN_FIELDS.intersection(data):
        del data[key]
    return data


_ENVELOPE = frozenset({"originator_id", "originator_version", "timestamp", "actor"})
_SECRET_FIELDS = frozenset({"sealed_seed", "token_hash", "token_hash_a", "token_hash_b"})
"""Fields of any aggregate's events that never leave the service: player token hashes
(registrations, matches) and sealed server dice seeds."""
_HIDDEN_FIELDS = _ENVELOPE | _SECRET_FIELDS


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
        until_version: UntilVersion = None,
    ) -> list[StreamEvent]:
        events = services.store.stream(stream_id, until_version)
        if not events:
            raise UnknownAggregateError(f"no record with id {stream_id}")
        return stream_events(events)
