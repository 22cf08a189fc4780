"""Liveness and the dev clock."""

from __future__ import annotations

from datetime import datetime
from importlib.metadata import version

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.params import JSONBody

from domain.errors import InvalidInputError
from service.bootstrap import Services
from service.clock import MovableClock

VERSION = version("bgtd")


class Health(msgspec.Struct):
    status: str
    time: datetime
    dev: bool
    event_store: str
    version: str


class ClockAdvance(msgspec.Struct):
    seconds: float = msgspec.field()


class ClockState(msgspec.Struct):
    now: datetime


class HealthController(Controller):
    path = "/health"
    tags = ["service"]  # noqa: RUF012

    @get("/", summary="Liveness, the service's current time and the kind of event store")
    async def health(self, services: NamedDependency[Services]) -> Health:
        scheme = services.settings.event_store_url.split(":", 1)[0]
        return Health(
            status="ok",
            time=services.clock.now(),
            dev=services.settings.dev,
            event_store="postgresql" if scheme.startswith("postgres") else scheme,
            version=VERSION,
        )


class DevClockController(Controller):
    """Only with ``--dev``: move the clock forward to demonstrate deadlines (404 otherwise)."""

    path = "/api/v1/dev/clock"
    tags = ["dev"]  # noqa: RUF012

    @get("/", summary="The dev clock's current instant")
    async def show(self, services: NamedDependency[Services]) -> ClockState:
        return ClockState(now=_movable_clock(services).now())

    @post("/advance", status_code=200, summary="Move the dev clock forward by a number of seconds")
    async def advance(
        self, data: JSONBody[ClockAdvance], services: NamedDependency[Services]
    ) -> ClockState:
        clock = _movable_clock(services)
        if data.seconds < 0:
            raise InvalidInputError("seconds", "the clock only moves forward")
        return ClockState(now=clock.advance(data.seconds))


def _movable_clock(services: Services) -> MovableClock:
    if not services.settings.dev or not isinstance(services.clock, MovableClock):
        raise NotFoundException("the dev clock exists only when the service runs with --dev")
    return services.clock
