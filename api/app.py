"""The Litestar application factory: one place that wires settings, services and controllers."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Litestar, Request
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.middleware import DefineMiddleware
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, Receive, Scope, Send

from api.conduct.conduct import ConductController
from api.console.console import CONSOLE_TEMPLATES, ConsoleController
from api.console.desk import DeskController
from api.console.rounds import RoundPageController
from api.console.season import SeasonPageController
from api.evidence.audit import AuditController
from api.evidence.disputes import DisputeController, DisputeDecisionController
from api.evidence.videos import VideoController
from api.http.access_log import redact_tokens_in_access_log
from api.http.auth import is_director_token, provide_acting_director, provide_actor
from api.http.clients import ClientAddress
from api.http.errors import exception_handlers
from api.http.head import ServiceApp
from api.http.health import DevClockController, HealthController
from api.http.idempotency import IdempotencyMiddleware
from api.http.openapi import document_problems, document_request_bodies, document_security
from api.http.schemas import strict_json_data
from api.jobs.jobs import JobController
from api.live.slots import LiveStreamSlots, stream_cap
from api.live.streams import LiveController, live_feed
from api.mail.outbox import OutboxController
from api.matches.analysis import AnalysisController
from api.matches.match_analysis import MatchAnalysisController
from api.matches.matches import MatchController
from api.pages.pages import PageController, template_config
from api.people.directors import DirectorController
from api.people.erasure import PeopleController
from api.ratings.pages import RATING_TEMPLATES, RatingPageController
from api.ratings.ratings import PlayerController, RatingController
from api.registration.requests import RegistrationConfirmationController
from api.registration.tournaments import RegistrationController, TournamentController
from api.rounds.rounds import TournamentDayController
from api.seasons.calendar_feed import CalendarFeedController
from api.seasons.seasons import SeasonController
from api.table.play import PlayController
from api.table.table import TABLE_TEMPLATES, TableController
from api.table.tablet import TabletController
from api.table.tablet_sign_out import TabletsEndController, TabletSignOutController
from api.venue.print import PrintController
from api.venue.venue import VenueController
from scheduler import start_scheduler
from service.bootstrap import Services, bootstrap
from service.clock import Clock
from service.live.feed import LiveFeed
from service.settings import Settings
from service.storage.answers import LIFETIME as ANSWER_LIFETIME
from service.storage.answers import open_answer_store

CONTROLLERS: list[Any] = [
    HealthController,
    DevClockController,
    AnalysisController,
    SeasonController,
    TournamentController,
    RegistrationController,
    RegistrationConfirmationController,
    OutboxController,
    TournamentDayController,
    ConductController,
    VenueController,
    PrintController,
    MatchController,
    MatchAnalysisController,
    RatingController,
    PlayerController,
    RatingPageController,
    AuditController,
    DisputeController,
    DisputeDecisionController,
    VideoController,
    PeopleController,
    JobController,
    DirectorController,
    LiveController,
    PageController,
    CalendarFeedController,
    ConsoleController,
    DeskController,
    RoundPageController,
    SeasonPageController,
    TableController,
    PlayController,
    TabletController,
    TabletSignOutController,
    TabletsEndController,
]


SWAGGER_UI_STATIC = "/schema/static"
"""Swagger UI's own files, served by the service: a laptop at the venue is often offline."""
SWAGGER_UI_FILES = Path(str(files("swagger_ui").joinpath("static")))
"""Swagger UI 5 as the swagger-ui-py package ships it (4 cannot render OpenAPI 3.1)."""

_REGISTRATIONS = re.compile(r"/api/v1/tournaments/[^/]+/registrations/?")


async def is_anonymous_registration(request: Request[Any, Any, Any]) -> bool:
    """Registration is public: a client without the director's token is rate-limited.

    Asked of every request, so a coroutine: Litestar runs a plain function here in a worker
    thread, a thread hand-off per request for a look at its path. Only a registration's token
    is looked up, in a worker thread: the views may be busy with a catch-up."""
    if request.method != "POST" or _REGISTRATIONS.fullmatch(request.url.path) is None:
        return False
    return not await anyio.to_thread.run_sync(is_director_token, request)


class RegistrationRateLimit:
    """ASGI middleware: the rate limit, entered only by a POST that may be a registration.

    Litestar's rate limit builds a request and asks ``is_anonymous_registration`` of every
    request; a look at the raw method and path first spares a match command that work. The
    look only lets fewer requests through to that question, never more: the question decides
    as before."""

    def __init__(self, app: ASGIApp, config: RateLimitConfig) -> None:
        self.app = app
        self.limited = config.middleware(app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == ScopeType.HTTP
            and scope["method"] == "POST"
            and scope["path"].rstrip("/").endswith("/registrations")
        ):
            await self.limited(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def create_app(settings: Settings, *, clock: Clock | None = None) -> Litestar:
    """Build the service: event store, read models, scheduler and REST controllers."""
    services = bootstrap(settings, clock)
    live = live_feed(services)
    # one notion of "a client" for the rate limit and the live streams' caps
    client_address = ClientAddress(settings.trusted_proxies)
    live_slots = LiveStreamSlots(
        per_client=settings.live_streams_per_client, total=stream_cap(settings.live_streams_total)
    )
    idempotency = open_answer_store(services.store, settings.idempotency_path, services.answer_key)

    def forget_answers(_: UUID) -> None:
        idempotency.forget_answers()  # a kept answer may show the erased person's data

    services.store.erasure_listeners.append(forget_answers)
    # An erasure read while starting came before the listener: an answer kept before it (by
    # this process before a restart, or by another of a PostgreSQL store that had not read
    # it yet) may still show the person, unless it is older than any kept answer.
    erased = services.store.latest_erasure
    if erased is not None and erased > services.clock.now() - ANSWER_LIFETIME:
        idempotency.forget_answers()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        # the server set its logging up before this: the access log keeps no token
        redact_tokens_in_access_log()
        scheduler = start_scheduler(services) if settings.run_scheduler else None
        try:
            yield
        finally:
            if scheduler is not None:
                # a running job (a mail being sent) finishes before the views close under it
                services.outbox.stop()
                await anyio.to_thread.run_sync(lambda: scheduler.shutdown(wait=True))
            services.store.erasure_listeners.remove(forget_answers)
            services.close()
            idempotency.close()

    def provide_services() -> Services:
        return services

    def provide_live() -> LiveFeed:
        return live

    def provide_live_slots() -> LiveStreamSlots:
        return live_slots

    def provide_client_address() -> ClientAddress:
        return client_address

    # outermost: a replayed answer is not rate-limited again
    middleware: list[Any] = [
        DefineMiddleware(IdempotencyMiddleware, store=idempotency, clock=services.clock)
    ]
    if settings.registration_rate_limit > 0:
        rate_limit = RateLimitConfig(
            rate_limit=("minute", settings.registration_rate_limit),
            check_throttle_handler=is_anonymous_registration,
            identifier_for_request=client_address,
        )
        middleware.append(DefineMiddleware(RegistrationRateLimit, config=rate_limit))
    app = ServiceApp(
        route_handlers=[
            *CONTROLLERS,
            create_static_files_router(
                path=SWAGGER_UI_STATIC,
                directories=[SWAGGER_UI_FILES],
                include_in_schema=False,
                name="swagger-ui",
            ),
        ],
        middleware=middleware,
        dependencies={
            "services": Provide(provide_services, use_cache=True, sync_to_thread=False),
            "live": Provide(provide_live, use_cache=True, sync_to_thread=False),
            "live_slots": Provide(provide_live_slots, use_cache=True, sync_to_thread=False),
            "client_address": Provide(provide_client_address, use_cache=True, sync_to_thread=False),
            "acting_director": Provide(provide_acting_director, sync_to_thread=False),
            "actor": Provide(provide_actor, sync_to_thread=False),
        },
        template_config=template_config(CONSOLE_TEMPLATES, TABLE_TEMPLATES, RATING_TEMPLATES),
        exception_handlers=exception_handlers,
        before_request=strict_json_data,
        lifespan=[lifespan],
        openapi_config=OpenAPIConfig(
            title="bgtd — backgammon tournament director",
            version="1.0.0",
            path="/schema",
            use_handler_docstrings=True,
            render_plugins=[
                SwaggerRenderPlugin(
                    path="/",
                    js_url=f"{SWAGGER_UI_STATIC}/swagger-ui-bundle.js",
                    css_url=f"{SWAGGER_UI_STATIC}/swagger-ui.css",
                    standalone_preset_js_url=f"{SWAGGER_UI_STATIC}/swagger-ui-standalone-preset.js",
                    favicon=f"<link rel='icon' href='{SWAGGER_UI_STATIC}/favicon-32x32.png'>",
                )
            ],
            components=Components(
                security_schemes={
                    "bearer": SecurityScheme(type="http", scheme="bearer", description="token")
                }
            ),
        ),
        debug=False,
    )
    app.state.services = services
    app.state.live_slots = live_slots
    document_problems(app)
    document_security(app)
    document_request_bodies(app)
    return app
