"""The director's round page: one round's tables with the pairings' reasons, results entered
and corrected, disputed reports side by side, the next round paired, the latest one unpaired,
and the knockout as the public bracket page draws it: an elimination's main and consolation
brackets (API.md "Pages for people", "Formats").

Every form calls the use case its REST endpoint calls (``service.rounds``, ``service.venue``)
with the signed-in director as the actor, inside their scope (rule C-DIR-1); sessions, CSRF and
Post/Redirect/Get as on the desk (``api.console.console``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any
from uuid import UUID

from litestar import Request, get, post
from litestar.params import FromPath
from litestar.response import Redirect, Template
from markupsafe import Markup, escape

from api.console.console import (
    HOME,
    Console,
    ConsoleDep,
    ConsolePages,
    _authorized,
)
from api.console.forms import reason_refused, text, uuid_in
from api.console.round_texts import ROUND_TEXT, explanation_in, warning_in
from api.http.forms import FormData, FormError, form_error, whole_number
from api.pages.bracket import drawing
from api.pages.pages import TEXT as PAGE_TEXT
from domain.errors import DomainError
from domain.tournament import PairingWarning, Report
from service.rounds.rounds import ReportedResult, TournamentMatch
from service.shared.day_views import Pairing, Score
from service.venue.venue import Table

MAX_POINTS = 999
"""As over REST: reported points are 0..999 (a gammon on a high cube passes the length)."""
SUMMARIES = {
    "round": "Page: one round's tables and pairings with their reasons, results entry and "
    "correction, disputed reports, pairing the next round, the knockout bracket",
    "result": "Page form: enter or correct a match's result (as POST .../results)",
    "pair": "Page form: pair the next round (as POST .../rounds); 303 to its page",
    "unpair": "Page form: unpair the latest round (as DELETE .../rounds/{n})",
    "override": "Page form: the director's pairing of the latest round (as PUT .../pairings); "
    "its warnings are shown before it is saved",
    "current": "Page: 303 to the page of the round being played (the desk before round 1)",
}


@dataclass(frozen=True, slots=True)
class Row:
    """One table of the round as the page shows it."""

    table: Pairing
    match: TournamentMatch | None
    """The match's status and score (None for a bye)."""
    reports: tuple[Report | None, Report | None] | None
    """The two players' differing reports of a disputed match, player a's first."""
    live: Score | None = None
    """An open match's score as the wallboard shows it (penalty points included, rule
    C-BREAK-2), once it has begun or has points; None otherwise."""


@dataclass(frozen=True, slots=True)
class Override:
    """The director's pairing as entered, kept while its warnings are shown."""

    pairings: list[tuple[UUID, UUID | None]]
    reason: str


ROUNDS = "/tournaments/{tournament_id:uuid}/rounds"
ROUND = f"{ROUNDS}/{{number:int}}"
TournamentId = FromPath[UUID]
RoundNumber = FromPath[int]


def _round_url(tournament_id: UUID, number: int) -> str:
    return f"{HOME}/tournaments/{tournament_id}/rounds/{number}"


class RoundPageController(ConsolePages):
    """The round page, with the desk's session check, CSRF and refusal pages."""

    @get(ROUND, sync_to_thread=True, summary=SUMMARIES["round"])
    def round_page(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        number: RoundNumber,
        console: ConsoleDep,
    ) -> Template:
        query = request.query_params
        return _round_page(
            console,
            tournament_id,
            number,
            done=query.get("done", ""),
            done_table=query.get("table", ""),
        )

    @get(f"{ROUNDS}/current", sync_to_thread=True, summary=SUMMARIES["current"])
    def current_round(self, tournament_id: TournamentId, console: ConsoleDep) -> Redirect:
        _authorized(console, tournament_id)
        latest = console.services.rounds.latest_round(tournament_id)
        if latest is None:
            return console.back_to(f"{HOME}/tournaments/{tournament_id}")
        return console.back_to(_round_url(tournament_id, latest.round))

    @post(f"{ROUND}/results", sync_to_thread=True, summary=SUMMARIES["result"])
    def result(
        self, tournament_id: TournamentId, number: RoundNumber, data: FormData, console: ConsoleDep
    ) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, tournament_id)
        r = ROUND_TEXT[console.lang]
        match_id = uuid_in(data, "match_id")
        where = f"result:{match_id}"
        entered = {key: str(data.get(key) or "") for key in ("winner", "points_a", "points_b")}

        def refused(error: FormError) -> Template:
            return _round_page(console, tournament_id, number, error=error, entered=entered)

        if match_id is None:
            return refused(FormError(where, "", "match_id: not a match of this tournament", 422))
        winner = uuid_in(data, "winner")
        if winner is None:
            return refused(FormError(where, "winner", r["winner_missing"], 422))
        points = {key: _points(data.get(key)) for key in ("points_a", "points_b")}
        for key, value in points.items():
            if value is None:
                return refused(FormError(where, key, r["points_invalid"], 422))
        reason = text(data, "reason")
        invalid = reason_refused(console, where, reason)
        if invalid is not None:
            return refused(invalid)
        corrects = uuid_in(data, "corrects")
        report = ReportedResult(
            match_id=match_id,
            winner=winner,
            points_a=points["points_a"] or 0,
            points_b=points["points_b"] or 0,
            corrects=corrects,
            reason=reason,
        )
        try:
            console.services.rounds.record_result(tournament_id, report, actor=acting.actor)
        except DomainError as refusal:
            return refused(form_error(where, refusal))
        table = next(
            (
                m.table
                for m in console.services.rounds.list_matches(tournament_id)
                if m.match_id == match_id
            ),
            0,
        )
        return console.back_to(
            _round_url(tournament_id, number),
            done="correction" if corrects else "result",
            table=str(table),
        )

    @post(ROUNDS, sync_to_thread=True, summary=SUMMARIES["pair"])
    def pair_next_round(
        self, tournament_id: TournamentId, data: FormData, console: ConsoleDep
    ) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, tournament_id)
        try:
            paired = console.services.rounds.pair_round(tournament_id, actor=acting.actor)
        except DomainError as refusal:
            latest = console.services.rounds.latest_round(tournament_id)
            number = latest.round if latest else 1
            return _round_page(
                console, tournament_id, number, error=form_error("pair-next-round", refusal)
            )
        return console.back_to(_round_url(tournament_id, paired.round), done="pair")

    @post(f"{ROUND}/unpair", sync_to_thread=True, summary=SUMMARIES["unpair"])
    def unpair_round(
        self, tournament_id: TournamentId, number: RoundNumber, data: FormData, console: ConsoleDep
    ) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, tournament_id)
        reason = text(data, "reason")
        invalid = reason_refused(console, "unpair-round", reason)
        if invalid is not None:
            return _round_page(console, tournament_id, number, error=invalid)
        try:
            console.services.venue.unpair(tournament_id, number, reason=reason, actor=acting.actor)
        except DomainError as refusal:
            return _round_page(
                console, tournament_id, number, error=form_error("unpair-round", refusal)
            )
        if number > 1:
            return console.back_to(
                _round_url(tournament_id, number - 1), done="unpair", table=str(number)
            )
        return console.back_to(f"{HOME}/tournaments/{tournament_id}")

    @post(f"{ROUND}/pairings", sync_to_thread=True, summary=SUMMARIES["override"])
    def override_pairings(
        self, tournament_id: TournamentId, number: RoundNumber, data: FormData, console: ConsoleDep
    ) -> Template | Redirect:
        """Saved at once when it warns of nothing; else the page shows its warnings first and
        a confirmation that saves it (``confirmed``)."""
        console.require_csrf(data)
        acting = _authorized(console, tournament_id)
        venue = console.services.venue
        shown = console.services.rounds.get_round(tournament_id, number)
        pairings = _override_pairings(data, len(shown.pairings))
        reason = text(data, "reason")
        proposal = Override(pairings, reason)
        invalid = reason_refused(console, "override-pairings", reason)
        if invalid is not None:
            return _round_page(console, tournament_id, number, error=invalid, override=proposal)
        try:
            warnings = venue.repair_warnings(tournament_id, number, pairings)
            if warnings and not data.get("confirmed"):
                return _round_page(
                    console, tournament_id, number, override=proposal, warnings=warnings
                )
            venue.repair(
                tournament_id, number, pairings=pairings, reason=reason, actor=acting.actor
            )
        except DomainError as refusal:
            error = form_error("override-pairings", refusal)
            return _round_page(console, tournament_id, number, error=error, override=proposal)
        return console.back_to(_round_url(tournament_id, number), done="override")


def _override_pairings(data: dict[str, Any], tables: int) -> list[tuple[UUID, UUID | None]]:
    """The pairing as the form sends it: ``a_N`` and ``b_N`` for table N (an empty ``b_N``:
    the bye); a table without its ``a_N`` is left out."""
    pairings: list[tuple[UUID, UUID | None]] = []
    for number in range(1, tables + 1):
        player_a = uuid_in(data, f"a_{number}")
        if player_a is not None:
            pairings.append((player_a, uuid_in(data, f"b_{number}")))
    return pairings


def _points(value: object) -> int | None:
    return whole_number(value, MAX_POINTS)


def stage_label(round_text: dict[str, str], page_text: dict[str, str], table: Pairing) -> str:
    """What the round page says of a table's stage: an elimination's bracket and its round
    (rule T-FMT-13: the consolation is played in the same tournament rounds), or the stage's
    name (semi-final, final, 3rd place, round robin); empty for a Swiss table."""
    if table.stage == "swiss":
        return ""
    named = round_text.get(table.stage) or page_text.get(table.stage, table.stage)
    if table.stage in ("main", "consolation") and table.bracket_round is not None:
        return round_text["bracket_round"].format(bracket=named, n=table.bracket_round)
    return named


def _round_page(
    console: Console,
    tournament_id: UUID,
    number: int,
    *,
    done: str = "",
    done_table: str = "",
    error: FormError | None = None,
    entered: dict[str, str] | None = None,
    override: Override | None = None,
    warnings: list[PairingWarning] | None = None,
) -> Template:
    _authorized(console, tournament_id)
    services = console.services
    tournament = services.tournaments.get_tournament(tournament_id)
    shown = services.rounds.get_round(tournament_id, number)  # an unknown round: a 404 page
    latest = services.rounds.latest_round(tournament_id)
    matches = services.rounds.list_matches(tournament_id)
    of_round = {m.match_id: m for m in matches if m.round == number}
    held = services.venue.load(tournament_id)
    # only the latest round has open tables: an earlier one's page loads no match
    open_now = (
        services.venue.open_tables_now(tournament_id) if latest and latest.round == number else []
    )
    live = {t.match_id: _live_score(t) for t in open_now}
    rows = [
        Row(
            table=table,
            match=of_round.get(table.match_id) if table.match_id else None,
            reports=(
                held.report_of(table.match_id, table.player_a),
                held.report_of(table.match_id, table.player_b),
            )
            if table.disputed and table.match_id and table.player_b
            else None,
            live=live.get(table.match_id),
        )
        for table in shown.pairings
    ]
    names = {UUID(key): name for key, name in services.rounds.display_names(tournament_id).items()}
    r = ROUND_TEXT[console.lang]
    flash = ""
    if done == "result":
        flash = r["done_result"].format(table=done_table)
    elif done == "correction":
        flash = r["done_correction"].format(table=done_table)
    elif done == "pair":
        flash = r["done_pair"].format(n=number)
    elif done == "unpair":
        flash = r["done_unpair"].format(n=done_table)
    elif done == "override":
        flash = r["done_override"].format(n=number)
    current = [(t.player_a, t.player_b) for t in shown.pairings]
    return console.render(
        "round.html",
        status=error.status if error else 200,
        r=r,
        explain=partial(explanation_in, console.lang),
        warn=partial(warning_in, console.lang),
        stage_of=partial(stage_label, ROUND_TEXT[console.lang], PAGE_TEXT[console.lang]),
        tournament=tournament,
        shown=shown,
        rows=rows,
        names=names,
        latest=latest.round if latest else number,
        is_latest=latest is not None and latest.round == number,
        running=tournament.status == "running",
        drawing=drawing(services, tournament),
        flash=flash,
        error=error,
        entered=entered or {},
        override=override or Override(current, ""),
        warnings=warnings or [],
        player_options=_player_options(
            sorted(
                {p for t in shown.pairings for p in (t.player_a, t.player_b) if p is not None},
                key=lambda p: names.get(p, ""),
            ),
            names,
        ),
    )


def _live_score(table: Table) -> Score | None:
    """What the round page shows of an open match's score: nothing before it has begun or
    has any points (a 0:0 of a match not yet played says nothing)."""
    if table.status == "playing" or table.score.a or table.score.b:
        return table.score
    return None


def _player_options(players: list[UUID], names: dict[UUID, str]) -> Callable[[UUID | None], Markup]:
    """The override's ``<option>`` list of the round's players, with ``selected`` at one.

    Built once per page: each table has two selects of every player, so 64 players made the
    template loop 4,096 times and the round page miss its 100 ms (``make bench``)."""
    listed = "".join(f'<option value="{p}">{escape(names.get(p, ""))}</option>' for p in players)

    def options(selected: UUID | None) -> Markup:
        # the names are escaped above, the ids are UUIDs: the text is safe HTML as it is
        if selected is None:
            return Markup(listed)
        chosen = f'<option value="{selected}">'
        return Markup(listed.replace(chosen, f'<option value="{selected}" selected>', 1))

    return options
