"""Liveness and the dev clock."""

from __future__ import annotations

from datetime import datetime
from importlib.metadata import version
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, get, post
from litestar.exceptions import NotFoundException
from litestar.params import JSONBody

from api.http.auth import director_only
from api.http.schemas import ServicesDep, strict_body
from service.bootstrap import Services
from service.clock import MovableClock

VERSION = version("bgtd")


class Health(msgspec.Struct):
    status: str
    time: datetime
    dev: bool
    event_store: str
    version: str


MAX_ADVANCE_SECONDS = 10 * 366 * 86_400
"""Ten years: enough to demonstrate any deadline, small enough for every date computation."""


class ClockAdvance(msgspec.Struct, forbid_unknown_fields=True):
    seconds: Annotated[float, msgspec.Meta(ge=0, le=MAX_ADVANCE_SECONDS)]
    """A JSON number (an integer or a fraction), never a string or a boolean; JSON has no
    NaN or infinity, and a number too large for a float is refused by the bound."""


class ClockState(msgspec.Struct):
    now: datetime


class HealthController(Controller):
    path = "/health"
    tags = ["service"]  # noqa: RUF012

    @get("/", summary="Liveness, the service's current time and the kind of event store")
    async def health(self, services: ServicesDep) -> Health:
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
    async def show(self, services: ServicesDep) -> ClockState:
        return ClockState(now=_movable_clock(services).now())

    @post(
        "/advance",
        guards=[director_only],
        status_code=200,
        summary="Move the dev clock forward by a number of seconds (director; at most to "
        "9999-12-31)",
    )
    async def advance(
        self, data: JSONBody[ClockAdvance], request: Request[Any, Any, Any], services: ServicesDep
    ) -> ClockState:
        clock = _movable_clock(services)
        # ``data`` documents the body and checks its shape; its values passed Litestar's lax
        # conversion ({"seconds": "10"} among others)
        advance = await strict_body(request, ClockAdvance)
        return ClockState(now=clock.advance(advance.seconds))


def _movable_clock(services: Services) -> MovableClock:
    if not services.settings.dev or not isinstance(services.clock, MovableClock):
        raise NotFoundException("the dev clock exists only when the service runs with --dev")
    return services.clock
