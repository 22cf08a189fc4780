"""The director's console: sign-in with a director token, the tournaments, the desk.

Server-rendered pages with plain HTML forms (Post/Redirect/Get, no script). Every action calls
the same use case as its REST endpoint, with the signed-in director as the actor and inside
their scope (rule C-DIR-1): the pages are no second path into the domain.

Security (API.md "Pages for people"):
- the session cookie is signed with a key of its own and holds no token
  (``service.people.sessions``); HttpOnly, SameSite=Strict, Secure behind https, path
  ``/director``, expiring; each request checks the director again (a revoked one is out);
- every form carries ``_csrf_token``, derived from the session's nonce (the sign-in form's from
  a nonce cookie of its own): a POST without it, or with another, is a 403 and changes nothing;
- no GET changes anything; a console page without a session is a 303 to the sign-in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from litestar import Controller, MediaType, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath
from litestar.response import Redirect, Template

from api.console.desk_view import desk_flash, desk_sections
from api.console.refusals import in_words
from api.console.terms import table_variant, tournament_terms
from api.console.texts import TEXT
from api.http.clients import ClientAddress
from api.http.cookies import SignInCookies
from api.http.errors import status_of
from api.http.forms import (
    CSRF_FIELD,
    FormData,
    FormError,
    FormRefusedError,
    form_error,
    sign_in_nonce,
)
from api.http.schemas import ServicesDep
from api.pages.pages import TEXT as PAGE_TEXT
from api.pages.pages import Lang, language, local_date
from domain.errors import DomainError, UnauthenticatedError
from domain.people.director import Target
from service.bootstrap import Services
from service.people.sessions import SESSION_LIFETIME, Session

CONSOLE_TEMPLATES = Path(__file__).parent / "templates"
COOKIES = SignInCookies(
    session="bgtd_director_session",
    session_path="/director",
    session_lifetime=SESSION_LIFETIME,
    sign_in="bgtd_director_sign_in",
    sign_in_path="/director",
)
"""The director's session and the sign-in form's nonce, both sent to the console only."""
SIGN_IN = "/director/sign-in"
HOME = "/director"
_EUROS = re.compile(r"\s*(\d{1,7})(?:[.,](\d{2}))?\s*(?:€|EUR)?\s*", re.IGNORECASE)
SUMMARIES = {
    "sign_in": "Page: the director's sign-in form (a director token opens a session)",
    "sign_in_post": "Page form: sign in with a director token; 303 to the console",
    "sign_out": "Page form: end the director's session",
    "home": "Page: the director's tournaments, each linking to its desk, and their seasons",
    "desk": "Page: the desk of one tournament: registrations with a search by name, check-in, "
    "start",
}


class SignInRequiredError(Exception):
    """A console page asked for without a valid session: 303 to the sign-in."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


@dataclass(slots=True)
class Console:
    """What every console page needs: the language, the services, the signed-in session."""

    lang: Lang
    path: str
    query_lang: str | None
    services: Services
    session: Session | None
    csrf: str = field(default="")

    @property
    def t(self) -> dict[str, str]:
        return TEXT[self.lang]

    def render(self, name: str, *, status: int = 200, **context: Any) -> Template:
        lang = self.lang
        acting = self.session.acting if self.session else None
        error = context.get("error")
        if isinstance(error, FormError) and error.kind:
            context["error"] = replace(error, message=in_words(error.kind, error.message, lang))
        return Template(
            template_name=f"console/{name}",
            context={
                "lang": lang,
                "t": TEXT[lang],
                "pt": PAGE_TEXT[lang],
                "local_date": lambda day: local_date(day, lang),
                "local_time": lambda instant: local_time(instant, lang),
                "terms_of": partial(tournament_terms, lang),
                "variant_at": partial(table_variant, lang),
                "path": self.path,
                "lang_query": self.lang_query,
                "csrf_field": CSRF_FIELD,
                "csrf": self.csrf,
                "director": acting,
                "director_name": (
                    TEXT[lang]["club_director"]
                    if acting is not None and acting.director_id is None
                    else acting.name
                    if acting
                    else None
                ),
                **context,
            },
            status_code=status,
            headers={
                "Content-Language": lang,
                "Vary": "Accept-Language, Cookie",
                "Cache-Control": "no-store",
                "X-Frame-Options": "DENY",
                "Referrer-Policy": "same-origin",
            },
        )

    @property
    def public_url(self) -> str:
        return self.services.settings.effective_public_url

    @property
    def lang_query(self) -> str:
        """``lang=..`` to keep in the console's own links and redirects, when it was asked for."""
        return f"lang={self.query_lang}" if self.query_lang else ""

    def back_to(self, path: str, **query: str) -> Redirect:
        """Post/Redirect/Get: a 303 to ``path`` with ``query`` (and the language asked for)."""
        if self.query_lang:
            query["lang"] = self.query_lang
        shown = {key: value for key, value in query.items() if value}
        return Redirect(f"{path}?{urlencode(shown)}" if shown else path, status_code=303)

    def require_csrf(self, data: dict[str, Any]) -> None:
        nonce = self.session.nonce if self.session else None
        if not self.services.sessions.is_csrf_token(nonce, data.get(CSRF_FIELD)):
            raise FormRefusedError


def local_time(instant: datetime, lang: Lang) -> str:
    return f"{local_date(instant.date(), lang)}, {instant:%H:%M}{TEXT[lang]['oclock']}"


def euros(cents: int, lang: Lang) -> str:
    separator = "," if lang == "de" else "."
    return f"{cents // 100}{separator}{cents % 100:02d}"


def parse_euros(text: object) -> int | None:
    """``100``, ``100,00`` or ``100.00`` (euros) as cents; None for anything else."""
    if not isinstance(text, str):
        return None
    found = _EUROS.fullmatch(text)
    if found is None:
        return None
    return int(found.group(1)) * 100 + int(found.group(2) or 0)


def is_local_path(path: str) -> bool:
    """``next`` after the sign-in: a path of this service only, never another site."""
    return (
        path.startswith("/")
        and not path.startswith("//")
        and "\\" not in path
        and not any(ord(c) < 32 for c in path)
    )


def _console(
    request: Request[Any, Any, Any], services: Services, session: Session | None
) -> Console:
    asked = request.query_params.get("lang")
    console = Console(
        lang=language(request),
        path=request.url.path,
        query_lang=asked if asked in TEXT else None,
        services=services,
        session=session,
    )
    if session is not None:
        console.csrf = services.sessions.csrf_token(session.nonce)
    return console


def provide_console(request: Request[Any, Any, Any], services: ServicesDep) -> Console:
    """The signed-in director's console; without a valid session a 303 to the sign-in."""
    session = services.sessions.check(request.cookies.get(COOKIES.session))
    if session is None:
        wanted = request.url.path
        if request.method == "GET" and request.url.query:
            wanted += f"?{request.url.query}"
        raise SignInRequiredError(wanted)
    return _console(request, services, session)


def provide_visitor(request: Request[Any, Any, Any], services: ServicesDep) -> Console:
    """The sign-in page's console: no session needed."""
    return _console(request, services, None)


def sign_in_required(request: Request[Any, Any, Any], error: SignInRequiredError) -> Response[Any]:
    query = {"next": error.next_path}
    if (asked := request.query_params.get("lang")) in TEXT:
        query["lang"] = asked
    return Redirect(f"{SIGN_IN}?{urlencode(query)}", status_code=303)


def form_refused(request: Request[Any, Any, Any], _: FormRefusedError) -> Response[Any]:
    return _refused_page(request, 403, TEXT[language(request)]["forbidden_form"])


def domain_refused(request: Request[Any, Any, Any], error: DomainError) -> Response[Any]:
    """A refusal outside a form (an unknown tournament, one outside the director's scope)."""
    detail = in_words(error.type_slug, error.detail, language(request))
    return _refused_page(request, status_of(error), detail)


def _refused_page(request: Request[Any, Any, Any], status: int, detail: str) -> Response[Any]:
    lang = language(request)
    engine = request.app.template_engine
    assert engine is not None
    html = engine.get_template("console/refused.html").render(
        lang=lang, t=TEXT[lang], detail=detail, path=request.url.path, director=None
    )
    return Response(
        html,
        status_code=status,
        media_type=MediaType.HTML,
        headers={"Content-Language": lang, "Cache-Control": "no-store"},
    )


ConsoleDep = NamedDependency[Console]
"""The signed-in director's console, as every console handler takes it."""
console_get = Provide(provide_console, sync_to_thread=True)
"""Checks the director in the event store (a revoked one is out): a worker thread."""


class ConsolePages(Controller):
    """What every controller of the console shares: its path, the signed-in director's
    session check, CSRF and the refusal pages. It handles no route itself."""

    path = "/director"
    tags = ["pages"]  # noqa: RUF012
    dependencies = {  # noqa: RUF012
        "console": console_get,
        "visitor": Provide(provide_visitor, sync_to_thread=False),
    }
    exception_handlers = {  # noqa: RUF012
        SignInRequiredError: sign_in_required,
        FormRefusedError: form_refused,
        DomainError: domain_refused,
    }


class ConsoleController(ConsolePages):
    """Sign-in and sign-out, the director's tournaments and a tournament's desk."""

    # Sign-in and sign-out ----------------------------------------------------------------

    @get("/sign-in", sync_to_thread=False, summary=SUMMARIES["sign_in"])
    def sign_in_form(self, request: Request[Any, Any, Any], visitor: ConsoleDep) -> Template:
        nonce = COOKIES.form_nonce(request)
        page = _sign_in_page(visitor, nonce, request.query_params.get("next", ""))
        return COOKIES.with_form_nonce(page, visitor.public_url, nonce)

    @post("/sign-in", sync_to_thread=True, summary=SUMMARIES["sign_in_post"])
    def sign_in(
        self,
        request: Request[Any, Any, Any],
        data: FormData,
        visitor: ConsoleDep,
        client_address: NamedDependency[ClientAddress],
    ) -> Template | Redirect:
        services = visitor.services
        sessions = services.sessions
        nonce = sign_in_nonce(request, COOKIES.sign_in, data, sessions.is_csrf_token)
        next_path = str(data.get("next") or "")
        token = str(data.get("token") or "")
        client, now = client_address(request), services.clock.now()
        if wait := services.sign_in_attempts.wait("director", client, now):
            error = FormError("sign-in", "token", visitor.t["too_many"], 429)
            page = _sign_in_page(visitor, nonce, next_path, error)
            page.headers["Retry-After"] = str(wait)
            return page
        if not token.strip():
            error = FormError("sign-in", "token", visitor.t["token_missing"], 422)
            return _sign_in_page(visitor, nonce, next_path, error)
        try:
            opened = sessions.open(token)
        except UnauthenticatedError:
            services.sign_in_attempts.failed("director", client, now)
            error = FormError("sign-in", "token", visitor.t["token_refused"], 401)
            return _sign_in_page(visitor, nonce, next_path, error)
        target = next_path if next_path and is_local_path(next_path) else HOME
        return COOKIES.signed_in(
            Redirect(target, status_code=303), visitor.public_url, opened.cookie
        )

    @post("/sign-out", sync_to_thread=True, summary=SUMMARIES["sign_out"])
    def sign_out(
        self, request: Request[Any, Any, Any], data: FormData, console: ConsoleDep
    ) -> Redirect:
        console.require_csrf(data)
        return COOKIES.signed_out(
            console.back_to(SIGN_IN), console.public_url, request, console.services.sessions.end
        )

    # The tournaments and the desk --------------------------------------------------------

    @get("/", sync_to_thread=True, summary=SUMMARIES["home"])
    def home(self, console: ConsoleDep) -> Template:
        assert console.session is not None
        scope = console.session.acting.scope
        tournaments = [
            view
            for view in console.services.tournaments.list_tournaments()
            if scope.covers(Target(season_id=view.row.season_id, tournament_id=view.id))
        ]
        seasons = [
            season
            for season in console.services.seasons.list_seasons()
            if scope.covers(Target(season_id=season.id))
        ]
        return console.render("tournaments.html", tournaments=tournaments, seasons=seasons)

    @get("/tournaments/{tournament_id:uuid}", sync_to_thread=True, summary=SUMMARIES["desk"])
    def desk(
        self,
        request: Request[Any, Any, Any],
        tournament_id: FromPath[UUID],
        console: ConsoleDep,
    ) -> Template:
        return _desk(
            console,
            tournament_id,
            query=request.query_params.get("q", ""),
            done=request.query_params.get("done", ""),
            done_for=request.query_params.get("registration", ""),
        )


def _authorized(console: Console, tournament_id: UUID) -> Any:
    """The signed-in director, inside whose scope the tournament lies (else a 403 page)."""
    assert console.session is not None
    acting = console.session.acting
    console.services.directors.authorize_tournament(acting, tournament_id)
    return acting


def _form_error(where: str, refused: DomainError) -> FormError:
    """The use case's refusal next to the field it names (the desk's sum paid is in euros,
    the use case's in cents)."""
    error = form_error(where, refused)
    return replace(error, field="buy_in_paid") if error.field == "buy_in_paid_cents" else error


def _desk(
    console: Console,
    tournament_id: UUID,
    *,
    query: str = "",
    done: str = "",
    done_for: str = "",
    error: FormError | None = None,
    form: dict[str, Any] | None = None,
    typed: dict[str, str] | None = None,
) -> Template:
    """The desk; ``form``: the register form as typed, ``typed``: the inputs of another
    refused form (its ``error.where``), refilled in its row."""
    _authorized(console, tournament_id)
    services = console.services
    tournament = services.tournaments.get_tournament(tournament_id)
    registrations = services.tournaments.list_registrations(tournament_id)
    wanted = query.strip().casefold()
    shown = [
        row
        for row in registrations
        if not wanted
        or wanted in f"{row.first_name} {row.last_name}".casefold()
        or wanted in f"{row.last_name} {row.first_name}".casefold()
        or wanted in row.display_name.casefold()
    ]
    flash = ""
    if done == "check-in":
        name = next(
            (r.display_name for r in registrations if str(r.registration_id) == done_for), ""
        )
        flash = console.t["done_check_in"].format(name=name)
    elif done == "start":
        flash = console.t["done_start"]
    elif done:
        money = partial(euros, lang=console.lang)
        flash = desk_flash(console.t, done, done_for, registrations, money)
    return console.render(
        "desk.html",
        status=error.status if error else 200,
        tournament=tournament,
        registrations=shown,
        total=len(registrations),
        query=query,
        flash=flash,
        error=error,
        buy_in=euros(tournament.row.buy_in_cents, console.lang),
        started=tournament.started_at is not None,
        form=form or {},
        typed=typed or {},
        **desk_sections(services, tournament, registrations, error.where if error else None),
    )


def _sign_in_page(
    visitor: Console, nonce: str, next_path: str, error: FormError | None = None
) -> Template:
    return visitor.render(
        "sign_in.html",
        status=error.status if error else 200,
        csrf=visitor.services.sessions.csrf_token(f"sign-in:{nonce}"),
        next_path=next_path if is_local_path(next_path) else "",
        error=error,
    )
