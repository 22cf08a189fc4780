"""A table's tablet, opened by the director: one device at the table on which both players of
the match there play it move by move (API.md "Playing at the table": "both on one tablet
opened by the director for that table").

The director, signed in on the tablet, opens it with the form ``open-tablet`` at
``/director/tournaments/{id}/tables/{n}/tablet`` (the table page links there). The answer sets
the tablet's cookie (signed with a key of its own, no token in it, HttpOnly, SameSite=Strict,
its path the table page only, expiring after a day) and ends the director's session on this
device: the players get the table, never the console. Every command from the tablet is the
player's own, with the token of the side's registration derived again on the server, as over
REST with that token.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from litestar import Request, get, post
from litestar.datastructures import Cookie
from litestar.response import Redirect, Template

from api.console.console import COOKIES, ConsoleDep, ConsolePages
from api.http.cookies import session_cookie
from api.http.forms import FormData
from api.pages.pages import TEXT as PAGE_TEXT
from api.table.table import TABLET_COOKIE, TableNumber, TournamentId
from api.table.texts import TEXT
from service.people.player_sessions import PLAYER_SESSION_LIFETIME

SUMMARIES = {
    "tablet": "Page: open a table's tablet for both players of its match (director)",
    "open_tablet": "Page form: open the table's tablet; 303 to the table page, the director's "
    "session on this device ends",
}


def table_path(tournament_id: UUID, number: int) -> str:
    return f"/pages/tournaments/{tournament_id}/tables/{number}"


def tablet_cookie(
    public_url: str, tournament_id: UUID, number: int, value: str, lifetime: timedelta
) -> Cookie:
    """The tablet's cookie: sent to its table's page (and that page's forms) only."""
    max_age = int(lifetime.total_seconds())
    path = table_path(tournament_id, number)
    return session_cookie(public_url, key=TABLET_COOKIE, value=value, path=path, max_age=max_age)


class TabletController(ConsolePages):
    """The director's side of the tablet: the console's session check, CSRF and refusals."""

    path = "/director/tournaments/{tournament_id:uuid}/tables/{number:int}/tablet"

    @get("/", sync_to_thread=True, summary=SUMMARIES["tablet"])
    def tablet(
        self, tournament_id: TournamentId, number: TableNumber, console: ConsoleDep
    ) -> Template:
        assert console.session is not None
        console.services.directors.authorize_tournament(console.session.acting, tournament_id)
        tournament = console.services.tournaments.get_tournament(tournament_id)
        lang = console.lang
        return Template(
            template_name="table/tablet.html",
            context={
                "lang": lang,
                "t": TEXT[lang],
                "pt": PAGE_TEXT[lang],
                "path": console.path,
                "tournament": tournament,
                "number": number,
                "csrf_field": "_csrf_token",
                "csrf": console.csrf,
            },
            headers={"Content-Language": lang, "Cache-Control": "no-store"},
        )

    @post("/", sync_to_thread=True, summary=SUMMARIES["open_tablet"])
    def open_tablet(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        number: TableNumber,
        data: FormData,
        console: ConsoleDep,
    ) -> Redirect:
        console.require_csrf(data)
        assert console.session is not None
        services = console.services
        services.directors.authorize_tournament(console.session.acting, tournament_id)
        _, cookie = services.player_sessions.open_tablet(tournament_id, number)
        public_url = console.public_url
        redirect = Redirect(
            table_path(tournament_id, number)
            + (f"?lang={console.query_lang}" if console.query_lang else ""),
            status_code=303,
        )
        redirect.cookies.append(
            tablet_cookie(public_url, tournament_id, number, cookie, PLAYER_SESSION_LIFETIME)
        )
        # the director's session ends with it on this device, on the server too (a sign-out):
        # the tablet stays at the table
        return COOKIES.signed_out(redirect, public_url, request, services.sessions.end)
