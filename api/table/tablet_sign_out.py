"""Ending a table's tablet (``api.table.tablet`` opens it): on the tablet itself, with the form of
the table page, and from the director's console for every tablet of a tournament at once (a
tablet lost or taken away goes on working until then, as its cookie is valid for 16 hours).

Both are sign-outs as the other sessions have (``service.people.tablets``): recorded on the
server, so a copy of the cookie stops too. The tablet's own form is posted under the table
page's path, the only path its cookie is sent to.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, post
from litestar.response import Redirect

from api.console.console import ConsoleDep, ConsolePages
from api.http.cookies import FORGOTTEN
from api.http.forms import CSRF_FIELD, FormData, FormRefusedError
from api.table.table import (
    TABLET_COOKIE,
    TableNumber,
    TablePages,
    TournamentId,
    VisitDep,
)
from api.table.tablet import table_path, tablet_cookie

SUMMARIES = {
    "sign_out": "Page form: the table's tablet signs out (on the server too); 303 to the "
    "table page, which the tablet then shows as anyone's",
    "end_all": "Page form: end every tablet of the tournament opened so far, a lost one "
    "included (director); 303 to the tournament's desk",
}


class TabletSignOutController(TablePages):
    """The tablet's own sign-out, posted under the table page's path."""

    path = "/pages/tournaments/{tournament_id:uuid}/tables/{number:int}/tablet/sign-out"

    @post("/", sync_to_thread=True, summary=SUMMARIES["sign_out"])
    def sign_out(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        number: TableNumber,
        data: FormData,
        visit: VisitDep,
    ) -> Redirect:
        sessions = visit.services.player_sessions
        tablet = visit.tablet_at(tournament_id, number)
        if tablet is None or not sessions.is_csrf_token(
            f"tablet:{tablet.nonce}", data.get(CSRF_FIELD)
        ):
            raise FormRefusedError
        sessions.end_tablet(request.cookies.get(TABLET_COOKIE))
        redirect = visit.back_to(table_path(tournament_id, number))
        redirect.cookies.append(
            tablet_cookie(visit.public_url, tournament_id, number, "", FORGOTTEN)
        )
        return redirect


class TabletsEndController(ConsolePages):
    """The director's end of every tablet: the console's session check, CSRF and refusals."""

    path = "/director/tournaments/{tournament_id:uuid}/tablets/sign-out"

    @post("/", sync_to_thread=True, summary=SUMMARIES["end_all"])
    def end_all(self, tournament_id: TournamentId, data: FormData, console: ConsoleDep) -> Redirect:
        console.require_csrf(data)
        assert console.session is not None
        services = console.services
        services.directors.authorize_tournament(console.session.acting, tournament_id)
        services.tournaments.get_tournament(tournament_id)  # a 404 for an unknown tournament
        services.player_sessions.end_tablets_of(tournament_id)
        return console.back_to(f"/director/tournaments/{tournament_id}")
