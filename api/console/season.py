"""The director's season page: the season's tournaments (each linking to its desk), its
ranking, its bans and its directors (API.md "Pages for people": ``/director/seasons/{id}``).

Who may open it: a director whose scope covers the season (the club's, or the season's own),
as over REST (``POST /seasons/{id}/bans`` is guarded by the season in its path, rule C-DIR-1);
a tournament's director gets the 403 page. Every form calls the use case its REST endpoint
calls, with the signed-in director as the actor: a ban is ``SeasonService.ban`` (rules C-EXCL-1,
R-ATT-2), revoking a director is ``DirectorService.revoke``, whose own scope checks hold (a
season's director never revokes themselves). REST has no lifting of a ban: neither has the page.

The page appoints no director: a new director's token would have to be shown on it, and a token
goes into no rendered page, no URL and no cookie (API.md "Sessions"; a reload would also re-post
and appoint a second director). The directors section says in words that ``POST
/api/v1/directors`` appoints, which shows the token once; the appointed director is listed here
and can be revoked here.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Request, get, post
from litestar.params import FromPath
from litestar.response import Redirect, Template

from api.console.console import (
    HOME,
    Console,
    ConsoleDep,
    ConsolePages,
)
from api.console.forms import reason_refused, text, uuid_in
from api.console.season_texts import SEASON_TEXT
from api.http.forms import FormData, FormError, form_error
from domain.errors import DomainError, InvalidInputError
from domain.people.director import ActingDirector, Target
from service.seasons.seasons import BanDecision

SEASON = "/seasons/{season_id:uuid}"
SeasonId = FromPath[UUID]
SUMMARIES = {
    "season": "Page: a season's tournaments, ranking, bans and directors (appointed over POST "
    "/directors only: no token on a page)",
    "ban": "Page form: ban a player from the season's further tournaments (as POST "
    "/seasons/{id}/bans)",
    "revoke": "Page form: revoke a director (as DELETE /directors/{id})",
}


class SeasonPageController(ConsolePages):
    """The season page and its forms; sessions, CSRF and refusals as on the rest of the console."""

    @get(SEASON, sync_to_thread=True, summary=SUMMARIES["season"])
    def season(
        self, request: Request[Any, Any, Any], season_id: SeasonId, console: ConsoleDep
    ) -> Template:
        query = request.query_params
        return _season_page(
            console, season_id, done=query.get("done", ""), done_for=query.get("name", "")
        )

    @post(f"{SEASON}/bans", sync_to_thread=True, summary=SUMMARIES["ban"])
    def ban(self, season_id: SeasonId, data: FormData, console: ConsoleDep) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, season_id)
        reason = text(data, "reason")
        form = {"player_id": text(data, "player_id"), "reason": reason}
        player_id = uuid_in(data, "player_id")
        if player_id is None:
            error = FormError("ban", "player_id", SEASON_TEXT[console.lang]["player_missing"], 422)
            return _season_page(console, season_id, error=error, form=form)
        if invalid := reason_refused(console, "ban", reason, required=True):
            return _season_page(console, season_id, error=invalid, form=form)
        try:
            decision = BanDecision(
                player_id=player_id, reason=reason, revoke_points=bool(data.get("revoke_points"))
            )
            console.services.seasons.ban(season_id, decision, actor=acting.actor)
        except DomainError as refused:
            error = form_error("ban", refused)
            return _season_page(console, season_id, error=error, form=form)
        return console.back_to(f"{HOME}/seasons/{season_id}", done="ban")

    @post(
        f"{SEASON}/directors/{{director_id:uuid}}/revoke",
        sync_to_thread=True,
        summary=SUMMARIES["revoke"],
    )
    def revoke(
        self,
        season_id: SeasonId,
        director_id: FromPath[UUID],
        data: FormData,
        console: ConsoleDep,
    ) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, season_id)
        try:
            if not _of_season(console, season_id, director_id):
                raise InvalidInputError("director_id", "is no director of this season")
            revoked = console.services.directors.revoke(acting, director_id)
        except DomainError as refused:
            error = form_error(f"revoke-director:{director_id}", refused)
            return _season_page(console, season_id, error=error)
        return console.back_to(f"{HOME}/seasons/{season_id}", done="revoke", name=revoked.name)


def _authorized(console: Console, season_id: UUID) -> ActingDirector:
    """The signed-in director, whose scope covers the season (else a 403 page; an unknown
    season is a 404 page)."""
    assert console.session is not None
    acting = console.session.acting
    target = console.services.directors.season_target(season_id)
    acting.authorize(target)
    return acting


def _of_season(console: Console, season_id: UUID, director_id: UUID) -> bool:
    assert console.session is not None
    rows = console.services.directors.list_directors(console.session.acting)
    return any(row.id == director_id and row.season_id == season_id for row in rows)


def _season_page(
    console: Console,
    season_id: UUID,
    *,
    done: str = "",
    done_for: str = "",
    error: FormError | None = None,
    form: dict[str, Any] | None = None,
) -> Template:
    acting = _authorized(console, season_id)
    services = console.services
    season = services.seasons.get_season(season_id)
    tournaments = [
        view
        for view in services.tournaments.list_tournaments(season_id)
        if acting.scope.covers(Target(season_id=season_id, tournament_id=view.id))
    ]
    names: dict[UUID, str] = {}
    for view in tournaments:
        for row in services.tournaments.list_participants(view.id):
            names.setdefault(row.player_id, row.display_name)
    ranking = services.seasons.get_ranking(season_id)
    for entry in ranking:
        names.setdefault(entry.player_id, entry.display_name)
    bans = services.seasons.list_bans(season_id)
    banned = {ban.player_id for ban in bans}
    directors = [
        row for row in services.directors.list_directors(acting) if row.season_id == season_id
    ]
    s = SEASON_TEXT[console.lang]
    flash = s[f"done_{done}"].format(name=done_for) if f"done_{done}" in s else ""
    return console.render(
        "season.html",
        status=error.status if error else 200,
        s=s,
        season=season,
        tournaments=tournaments,
        tournament_names={view.id: view.row.name for view in tournaments},
        ranking=ranking,
        bans=bans,
        names=names,
        candidates=sorted(
            ((p, n) for p, n in names.items() if p not in banned), key=lambda pair: pair[1]
        ),
        directors=directors,
        director_names=services.directors.names(ban.actor for ban in bans),
        me=acting.director_id,
        flash=flash,
        error=error,
        form=form or {},
    )
