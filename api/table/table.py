"""The players' pages at the venue: the personal link's sign-in and the table page, where the
two players of a match report its result and confirm each other's report.

Server-rendered with plain HTML forms (Post/Redirect/Get); a few lines of script only redraw
the live score. Every action calls the same use case as its REST endpoint
(``POST .../reports`` → ``VenueService.report`` with the player's token): the pages are no
second path into the domain.

Security (API.md "Pages for people"):
- the personal link's GET only shows a button: a mail scanner's prefetch opens no session;
- the session cookie is signed with a key of its own and holds no token
  (``service.people.player_sessions``); HttpOnly, SameSite=Strict, Secure behind https, path
  ``/pages``, expiring; each request checks the registration again in the event store;
- every form carries ``_csrf_token`` (the sign-in form's derived from a nonce cookie of its own,
  the others' from the session): a POST without it, or with another, is a 403 and changes
  nothing; a POST without a session is a 403 too;
- without a session the table page shows display names, the score and the status only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from litestar import Controller, MediaType, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath
from litestar.response import Redirect, Template

from api.console.refusals import in_words
from api.http.clients import ClientAddress
from api.http.cookies import SignInCookies
from api.http.forms import CSRF_FIELD, form_id, sign_in_nonce, whole_number

# re-exported: the playing forms (``api.table.play``) take them from here
from api.http.forms import FormData as FormData
from api.http.forms import FormError as FormError
from api.http.forms import FormRefusedError as FormRefusedError
from api.http.forms import form_error as form_error
from api.http.schemas import AsCommand, ServicesDep
from api.pages.pages import TEXT as PAGE_TEXT
from api.pages.pages import Lang, language
from api.table.game import PLAY_ACTIONS, Game, game_of
from api.table.texts import TEXT
from domain.errors import DomainError, UnauthenticatedError
from domain.match import SIDES, Side
from domain.match import Match as MatchRecord
from domain.tournament.errors import RoundNotFoundError
from service.analysis.analysis import AnalysisView
from service.bootstrap import Services
from service.people.player_sessions import PLAYER_SESSION_LIFETIME, PlayerSession, TableTablet
from service.shared.match_play import Caller
from service.venue.venue import PendingReport, Table, TableReport

TABLE_TEMPLATES = Path(__file__).parent / "templates"
COOKIES = SignInCookies(
    session="bgtd_player_session",
    session_path="/pages",
    session_lifetime=PLAYER_SESSION_LIFETIME,
    sign_in="bgtd_player_sign_in",
    sign_in_path="/pages/players/sign-in",
)
"""The player's session, sent to the players' pages; the sign-in form's nonce, to the form."""
TABLET_COOKIE = "bgtd_table_tablet"
"""The table's tablet (``api.table.tablet``): its path is the table page's."""
TABLE = "/tournaments/{tournament_id:uuid}/tables/{number:int}"
TournamentId = FromPath[UUID]
TableNumber = FromPath[int]
MAX_POINTS = 999
"""As ``POST .../reports`` takes them."""
SUMMARIES = {
    "sign_in": "Page: the personal link of the registration mail; its button signs the player "
    "in (a GET opens no session)",
    "sign_in_post": "Page form: sign a player in with the personal link's token; 303 to the "
    "table page of their match, or to the tournament page",
    "table": "Page: the match now played at a table with its live score; the signed-in "
    "players of that match report and confirm its result",
    "sign_out": "Page form: end the player's session (on the server too); 303 to the "
    "tournament page",
    "report": "Page form: a player reports the result of their match (as POST .../reports)",
    "confirm_report": "Page form: a player confirms the opponent's report (the equal POST "
    ".../reports)",
}


@dataclass(frozen=True, slots=True)
class Visit:
    """What every page of the slice needs: the language, the services, the player's session."""

    lang: Lang
    path: str
    query_lang: str | None
    services: Services
    session: PlayerSession | None
    tablet: TableTablet | None = None
    left: PlayerSession | None = None
    """The session of a player who has since left the tournament (``PlayerSessions.left``)."""

    @property
    def t(self) -> dict[str, str]:
        return TEXT[self.lang]

    @property
    def public_url(self) -> str:
        return self.services.settings.effective_public_url

    def render(self, name: str, *, status: int = 200, **context: Any) -> Template:
        lang = self.lang
        error = context.get("error")
        if isinstance(error, FormError) and error.kind:
            # a use case's refusal in the page's language, as on the console
            context["error"] = replace(error, message=in_words(error.kind, error.message, lang))
        return Template(
            template_name=f"table/{name}",
            context={"lang": lang, "t": TEXT[lang], "pt": PAGE_TEXT[lang], "path": self.path}
            | context,
            status_code=status,
            headers={
                "Content-Language": lang,
                "Vary": "Accept-Language, Cookie",
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
            },
        )

    def is_stale(self, tournament_id: UUID, number: int, match_id: UUID) -> bool:
        """A form names its match; it must be the one at this table now (a form of an earlier
        round, or one sent to another table's address, is stale: 409, as ``If-Match``)."""
        return self.services.venue.get_table(tournament_id, number).match_id != match_id

    def back_to(self, path: str) -> Redirect:
        """Post/Redirect/Get: a 303 to ``path`` (in the language asked for)."""
        query = f"?{urlencode({'lang': self.query_lang})}" if self.query_lang else ""
        return Redirect(f"{path}{query}", status_code=303)

    def tablet_at(self, tournament_id: UUID, number: int) -> TableTablet | None:
        """The director's tablet of this table, if this device is it."""
        tablet = self.tablet
        if tablet is None or (tablet.tournament_id, tablet.table) != (tournament_id, number):
            return None
        return tablet

    def play_caller(
        self, data: dict[str, Any], tournament_id: UUID, number: int
    ) -> Callable[[UUID, Side], Caller]:
        """Who a playing form's command comes from, for the match and side the form names: the
        player of that side with their player token, as over REST. On the table's tablet, the
        side's player; with a player's session, that player (the use case refuses a side that
        is not theirs). A form without its session or CSRF token is a 403."""
        sessions = self.services.player_sessions
        tablet = self.tablet_at(tournament_id, number)
        if tablet is not None:
            if not sessions.is_csrf_token(f"tablet:{tablet.nonce}", data.get(CSRF_FIELD)):
                raise FormRefusedError

            def side_player(match_id: UUID, side: Side) -> Caller:
                ids = self.services.matches.get(match_id).player_ids
                if ids is None:
                    raise FormRefusedError
                player = ids[0] if side == "a" else ids[1]
                return Caller(token=sessions.side_token(tournament_id, player), side=side)

            return side_player
        session = self.require_csrf(data)
        if session.tournament_id != tournament_id:
            raise FormRefusedError
        token = sessions.player_token(session)
        return lambda _match_id, side: Caller(token=token, side=side)

    def acting_sides(
        self, tournament_id: UUID, number: int, state: MatchRecord
    ) -> tuple[Side, ...]:
        """The sides of ``state`` the visitor plays: both on the table's tablet, the
        signed-in player's own side with a session, none for the public."""
        if self.tablet_at(tournament_id, number) is not None:
            return SIDES
        session = self.session
        if session is None or session.tournament_id != tournament_id:
            return ()
        ids = state.player_ids or ()
        return tuple(
            side for side, player in zip(SIDES, ids, strict=False) if player == session.player_id
        )

    def csrf(self, tournament_id: UUID, number: int) -> str:
        """The CSRF token of the page's forms: the tablet's, or the player's session's."""
        sessions = self.services.player_sessions
        tablet = self.tablet_at(tournament_id, number)
        if tablet is not None:
            return sessions.csrf_token(f"tablet:{tablet.nonce}")
        if self.session is not None and self.session.tournament_id == tournament_id:
            return sessions.csrf_token(self.session.nonce)
        return ""

    def require_csrf(self, data: dict[str, Any], *, left: bool = False) -> PlayerSession:
        """The session of a form's POST with its CSRF token; else ``FormRefusedError``.
        ``left``: the session of a player who has left the tournament will do too (a report,
        which the use case then refuses saying why)."""
        sessions = self.services.player_sessions
        session = self.session or (self.left if left else None)
        if session is None or not sessions.is_csrf_token(session.nonce, data.get(CSRF_FIELD)):
            raise FormRefusedError
        return session


def provide_visit(request: Request[Any, Any, Any], services: ServicesDep) -> Visit:
    """The visit, with the player's session when its cookie is valid (checked in the store)."""
    asked = request.query_params.get("lang")
    cookie = request.cookies.get(COOKIES.session)
    session = services.player_sessions.check(cookie)
    return Visit(
        lang=language(request),
        path=request.url.path,
        query_lang=asked if asked in TEXT else None,
        services=services,
        session=session,
        tablet=services.player_sessions.check_tablet(request.cookies.get(TABLET_COOKIE)),
        left=services.player_sessions.left(cookie) if session is None and cookie else None,
    )


VisitDep = NamedDependency[Visit]
"""The visit, as every handler of the table's pages takes it."""
visit_get = Provide(provide_visit, sync_to_thread=True)
"""Checks the player's session in the event store: a worker thread."""


def form_refused(request: Request[Any, Any, Any], _: FormRefusedError) -> Response[Any]:
    lang = language(request)
    engine = request.app.template_engine
    assert engine is not None
    html = engine.get_template("table/refused.html").render(
        lang=lang, t=TEXT[lang], pt=PAGE_TEXT[lang], path=request.url.path
    )
    return Response(
        html,
        status_code=403,
        media_type=MediaType.HTML,
        headers={"Content-Language": lang, "Cache-Control": "no-store"},
    )


class TablePages(Controller):
    """What every controller of the players' pages shares: the visit (with the player's
    session or the table's tablet) and the refusal page of a form. It handles no route itself."""

    path = "/pages"
    tags = ["pages"]  # noqa: RUF012
    dependencies = {"visit": visit_get}  # noqa: RUF012
    exception_handlers = {FormRefusedError: form_refused}  # noqa: RUF012


class TableController(TablePages):
    """The personal link's sign-in and sign-out, the table page and its report forms."""

    # The personal link -------------------------------------------------------------------

    @get("/players/sign-in", sync_to_thread=True, summary=SUMMARIES["sign_in"])
    def sign_in_form(
        self,
        request: Request[Any, Any, Any],
        visit: VisitDep,
        client_address: NamedDependency[ClientAddress],
    ) -> Template:
        """Only a button: nothing is opened here (a mail scanner follows the link too). It
        says whether the link is valid, yet counts nothing (a GET changes no state, so it
        cannot change what a later sign-in is answered); a client already beyond the limit of
        failed sign-ins hears 429 for a wrong link, a right link always gets its button."""
        nonce = COOKIES.form_nonce(request)
        token = request.query_params.get("token", "")
        services = visit.services
        known = services.player_sessions.signs_in(token)
        if not known and token.strip():  # a link without a token guesses nothing
            client, now = client_address(request), services.clock.now()
            if wait := services.sign_in_attempts.wait("player", client, now):
                page = _sign_in_page(visit, nonce, token, refused=429)
                page.headers["Retry-After"] = str(wait)
                return page
        # an unknown or revoked link: a page that says so (404: nothing to sign in to)
        page = _sign_in_page(visit, nonce, token, refused=404 if not known else None)
        return COOKIES.with_form_nonce(page, visit.public_url, nonce)

    @post("/players/sign-in", sync_to_thread=True, summary=SUMMARIES["sign_in_post"])
    def sign_in(
        self,
        request: Request[Any, Any, Any],
        data: FormData,
        visit: VisitDep,
        client_address: NamedDependency[ClientAddress],
    ) -> Template | Redirect:
        sessions = visit.services.player_sessions
        nonce = sign_in_nonce(request, COOKIES.sign_in, data, sessions.is_csrf_token)
        token = str(data.get("token") or "")
        services = visit.services
        try:
            # a right token always signs in, whatever the address tried before: the players
            # of a venue share its address, and a player token is too long to guess
            opened = sessions.open(token)
        except UnauthenticatedError:
            client, now = client_address(request), services.clock.now()
            if wait := services.sign_in_attempts.wait("player", client, now):
                page = _sign_in_page(visit, nonce, token, refused=429)
                page.headers["Retry-After"] = str(wait)
                return page
            services.sign_in_attempts.failed("player", client, now)
            return _sign_in_page(visit, nonce, token, refused=401)
        session = opened.session
        table = visit.services.venue.table_of(session.tournament_id, session.player_id)
        target = f"/pages/tournaments/{session.tournament_id}"
        redirect = visit.back_to(f"{target}/tables/{table}" if table else target)
        return COOKIES.signed_in(redirect, visit.public_url, opened.cookie)

    @post("/players/sign-out", sync_to_thread=True, summary=SUMMARIES["sign_out"])
    def sign_out(
        self, request: Request[Any, Any, Any], data: FormData, visit: VisitDep
    ) -> Redirect:
        session = visit.require_csrf(data)
        redirect = visit.back_to(f"/pages/tournaments/{session.tournament_id}")
        return COOKIES.signed_out(
            redirect, visit.public_url, request, visit.services.player_sessions.end
        )

    # The table page ----------------------------------------------------------------------

    @get(TABLE, sync_to_thread=True, summary=SUMMARIES["table"])
    def table(self, tournament_id: TournamentId, number: TableNumber, visit: VisitDep) -> Template:
        return table_page(visit, tournament_id, number)

    @post(f"{TABLE}/report", sync_to_thread=True, summary=SUMMARIES["report"])
    def report(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        return _reported(visit, tournament_id, number, data, "report")

    @post(f"{TABLE}/confirm-report", sync_to_thread=True, summary=SUMMARIES["confirm_report"])
    def confirm_report(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        return _reported(visit, tournament_id, number, data, "confirm-report")


def _reported(
    visit: Visit, tournament_id: UUID, number: int, data: dict[str, Any], where: str
) -> Template | Redirect:
    """``report`` and ``confirm-report``: both are the player's report (``POST .../reports``);
    a confirmation sends the opponent's result back, equal, and so confirms it. A player who
    has left the tournament is told so by the use case (rule C-EXCL-1), as over REST."""
    session = visit.require_csrf(data, left=True)
    if session.tournament_id != tournament_id:
        raise FormRefusedError
    # a refused report keeps what the player typed (a confirmation's inputs are hidden)
    typed = {key: str(data.get(key) or "") for key in ("winner", "points_a", "points_b")}
    kept = typed if where == "report" else None
    reported = _report_of(data, visit.t)
    if isinstance(reported, tuple):
        field_name, message = reported
        refusal = FormError(where, field_name, message, 422)
        return table_page(visit, tournament_id, number, refusal, typed=kept)
    try:
        if visit.is_stale(tournament_id, number, reported.match_id):
            return table_page(
                visit, tournament_id, number, FormError(where, "", visit.t["form_stale"], 409)
            )
        visit.services.venue.report(
            tournament_id,
            TABLE_REPORT(reported),
            player_token=visit.services.player_sessions.player_token(session),
        )
    except DomainError as refused:
        return table_page(visit, tournament_id, number, form_error(where, refused), typed=kept)
    return visit.back_to(f"/pages/tournaments/{tournament_id}/tables/{number}")


@dataclass(frozen=True, slots=True)
class ReportForm:
    """A report form's inputs, as ``POST .../reports`` takes them."""

    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int


TABLE_REPORT = AsCommand(ReportForm, TableReport)


def _report_of(data: dict[str, Any], t: dict[str, str]) -> ReportForm | tuple[str, str]:
    """The form's report, or the first field that is not one, with what to say next to it."""
    match_id, winner = form_id(data, "match_id"), form_id(data, "winner")
    if match_id is None:  # a hidden id is no field to correct: the message stands above the forms
        return "", t["form_stale"]
    if winner is None:
        return "winner", t["winner_missing"]
    points: dict[str, int] = {}
    for name in ("points_a", "points_b"):
        number = whole_number(data.get(name), MAX_POINTS)
        if number is None:
            return name, t["points_invalid"]
        points[name] = number
    return ReportForm(match_id, winner, points["points_a"], points["points_b"])


def table_page(
    visit: Visit,
    tournament_id: UUID,
    number: int,
    error: FormError | None = None,
    *,
    typed: dict[str, str] | None = None,
) -> Template:
    """The table page; ``typed``: the report form's inputs as sent, refilled after a refusal."""
    services = visit.services
    tournament = services.tournaments.get_tournament(tournament_id)
    try:
        now: Table | None = services.venue.get_table(tournament_id, number)
    except RoundNotFoundError:
        now = None  # before the first round, or a table this round does not use
    session = (
        visit.session if visit.session and visit.session.tournament_id == tournament_id else None
    )
    plays = (
        session is not None
        and now is not None
        and now.match_id is not None
        and session.player_id in (now.player_a, now.player_b)
        and now.status not in ("decided", "bye")
    )
    reports: list[PendingReport] = (
        services.venue.reports_at(tournament_id, now.match_id)
        if plays and now is not None and now.match_id is not None
        else []
    )
    game = _game(visit, tournament_id, now)
    mine = next((r for r in reports if session and r.player_id == session.player_id), None)
    theirs = next((r for r in reports if session and r.player_id != session.player_id), None)
    return visit.render(
        "table.html",
        status=error.status if error else 200,
        tournament=tournament,
        number=number,
        now=now,
        analysis=_analysis(services, now),
        signed_in=session is not None,
        plays=plays,
        mine=mine,
        to_confirm=theirs if theirs is not None and not _agree(mine, theirs) else None,
        names=(
            {now.player_a: now.player_a_name, now.player_b: now.player_b_name or ""}
            if now is not None
            else {}
        ),
        game=game,
        play_actions=PLAY_ACTIONS,
        csrf_field=CSRF_FIELD,
        csrf=visit.csrf(tournament_id, number),
        tablet=visit.tablet_at(tournament_id, number) is not None,
        error=error,
        typed=typed or {},
    )


def _game(visit: Visit, tournament_id: UUID, now: Table | None) -> Game | None:
    """The match at the table as it is played move by move: None without a match, for a bye,
    and for a match whose result was reported without playing it here."""
    if now is None or now.match_id is None or now.phase in ("bye", "decided"):
        return None
    services = visit.services
    state = services.matches.get(now.match_id)
    title = visit.t["board_title"].format(a=now.player_a_name, b=now.player_b_name or "")
    return game_of(
        state, services.clock.now(), visit.acting_sides(tournament_id, now.table, state), title
    )


def _analysis(services: Services, now: Table | None) -> AnalysisView | None:
    """rule A-ANALYSIS-1: gnubg's figures under the finished match played at the table."""
    if now is None or now.match_id is None or now.status != "decided":
        return None
    try:
        return services.analyses.analysis(now.match_id)
    except DomainError:  # a result recorded without a match played through bgtd
        return None


def _agree(mine: PendingReport | None, theirs: PendingReport) -> bool:
    """Whether the player's own report already says what the opponent's does."""
    return mine is not None and (mine.winner, mine.points_a, mine.points_b) == (
        theirs.winner,
        theirs.points_a,
        theirs.points_b,
    )


def _sign_in_page(visit: Visit, nonce: str, token: str, *, refused: int | None = None) -> Template:
    return visit.render(
        "sign_in.html",
        status=refused or 200,
        token=token,
        csrf_field=CSRF_FIELD,
        csrf=visit.services.player_sessions.csrf_token(f"sign-in:{nonce}"),
        refused=refused is not None,
        refusal="too_many" if refused == 429 else "link_refused",
    )
