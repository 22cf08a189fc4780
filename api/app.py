"""The Litestar application factory: one place that wires settings, services and controllers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from api.analysis import AnalysisController
from api.audit import AuditController
from api.errors import exception_handlers
from api.health import DevClockController, HealthController
from api.matches import MatchController
from api.openapi import document_problems
from api.print import PrintController
from api.rounds import TournamentDayController
from api.seasons import SeasonController
from api.tournaments import RegistrationController, TournamentController
from api.venue import VenueController
from scheduler import start_scheduler
from service.bootstrap import Services, bootstrap
from service.clock import Clock
from service.settings import Settings

CONTROLLERS: list[Any] = [
    HealthController,
    DevClockController,
    AnalysisController,
    SeasonController,
    TournamentController,
    RegistrationController,
    TournamentDayController,
    VenueController,
    PrintController,
    MatchController,
    AuditController,
]


def create_app(settings: Settings, *, clock: Clock | None = None) -> Litestar:
    """Build the service: event store, read models, scheduler and REST controllers."""
    services = bootstrap(settings, clock)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        scheduler = start_scheduler(services) if settings.run_scheduler else None
        try:
            yield
        finally:
            if scheduler is not None:
                scheduler.shutdown(wait=False)
            services.close()

    def provide_services() -> Services:
        return services

    app = Litestar(
        route_handlers=CONTROLLERS,
        dependencies={"services": Provide(provide_services, use_cache=True, sync_to_thread=False)},
        exception_handlers=exception_handlers,
        lifespan=[lifespan],
        openapi_config=OpenAPIConfig(
            title="bgtd — backgammon tournament director",
            version="1.0.0",
            path="/schema",
            render_plugins=[SwaggerRenderPlugin(path="/")],
            components=Components(
                security_schemes={
                    "bearer": SecurityScheme(type="http", scheme="bearer", description="token")
                }
            ),
        ),
        debug=False,
    )
    app.state.services = services
    document_problems(app)
    return app
