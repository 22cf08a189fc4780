"""Playing at the table: the forms of the table page with which the two players of a match play
it move by move (API.md "Playing at the table"): ``roll``, ``play``, ``cube``, ``resign``,
``accept-resignation``, ``reject-resignation`` and ``void-roll``.

Each form is the REST command of the same name: the same ``MatchService`` use case, with the
same caller as over REST (the player's token, derived again on the server from the session),
so the same events and the same rules. Every form names the side it acts for (hidden ``side``):
a player's session acting for the other side is refused by the use case (403), as a player
token naming the other side is over REST. Every form also names the match and the version it
was drawn at (hidden ``match_id``, ``version``): a form of an earlier state, sent twice or from
a page the opponent has moved on, is a 409 (as ``If-Match``) and records nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from litestar import post
from litestar.response import Redirect, Template

from api.http.forms import form_id, form_text
from api.table.table import (
    TABLE,
    FormData,
    FormError,
    TableNumber,
    TablePages,
    TournamentId,
    Visit,
    VisitDep,
    form_error,
    table_page,
)
from domain.errors import DomainError
from domain.match import SIDES as MATCH_SIDES
from domain.match import Match, Side
from service.matches.matches import MatchService
from service.shared.match_play import Caller

DIE_VALUES = frozenset("123456")
A = TypeVar("A")
UseCase = Callable[[MatchService, UUID, Caller, A, int | None], Match]
"""A ``MatchService`` command as a playing form calls it: the match, the caller, the form's own
input, and the version the form was drawn at (as ``If-Match``)."""
SUMMARIES = {
    "roll": "Page form: roll the dice, entered (die1, die2) or the service's (as POST .../rolls)",
    "play": "Page form: play one of the legal plays (as POST .../plays)",
    "cube": "Page form: double, take or drop (as POST .../cube)",
    "resign": "Page form: offer a resignation (as POST .../resignations)",
    "accept": "Page form: accept the resignation offered (as POST .../resignations/accept)",
    "reject": "Page form: reject the resignation offered (as POST .../resignations/reject)",
    "void_roll": "Page form: ask to void the latest roll, with a reason (as POST .../rolls/void)",
}


@dataclass(frozen=True, slots=True)
class PlayForm:
    """The hidden inputs every playing form carries."""

    match_id: UUID
    side: Side
    version: int


class PlayController(TablePages):
    """Each form reads its own input and names its use case; ``_act`` does the rest."""

    @post(f"{TABLE}/roll", sync_to_thread=True, summary=SUMMARIES["roll"])
    def roll(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        visit.play_caller(data, tournament_id, number)  # no token: refused before it is read
        dice = _dice(data)
        if isinstance(dice, str):  # the key of what to say next to the dice
            error = FormError("roll", "dice", visit.t[dice], 422)
            return table_page(visit, tournament_id, number, error)
        return _act(visit, tournament_id, number, data, "roll", MatchService.roll, dice)

    @post(f"{TABLE}/play", sync_to_thread=True, summary=SUMMARIES["play"])
    def play(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        return _act(visit, tournament_id, number, data, "play", _play, form_text(data, "play"))

    @post(f"{TABLE}/cube", sync_to_thread=True, summary=SUMMARIES["cube"])
    def cube(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        action = form_text(data, "action")
        return _act(visit, tournament_id, number, data, "cube", MatchService.cube, action)

    @post(f"{TABLE}/resign", sync_to_thread=True, summary=SUMMARIES["resign"])
    def resign(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        level = form_text(data, "level") or None
        return _act(visit, tournament_id, number, data, "resign", MatchService.resign, level)

    @post(f"{TABLE}/accept-resignation", sync_to_thread=True, summary=SUMMARIES["accept"])
    def accept_resignation(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        return _answer(visit, tournament_id, number, data, "accept-resignation", accept=True)

    @post(f"{TABLE}/reject-resignation", sync_to_thread=True, summary=SUMMARIES["reject"])
    def reject_resignation(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        return _answer(visit, tournament_id, number, data, "reject-resignation", accept=False)

    @post(f"{TABLE}/void-roll", sync_to_thread=True, summary=SUMMARIES["void_roll"])
    def void_roll(
        self, tournament_id: TournamentId, number: TableNumber, data: FormData, visit: VisitDep
    ) -> Template | Redirect:
        reason = str(data.get("reason") or "")  # as typed: the rules tidy it (one line)
        return _act(visit, tournament_id, number, data, "void-roll", MatchService.void_roll, reason)


def _play(
    matches: MatchService, match_id: UUID, caller: Caller, notation: str, version: int | None
) -> Match:
    """The play by its notation (over REST it may also be named by a Position ID or a board)."""
    return matches.play(match_id, caller, notation=notation, expected_version=version)


def _answer(
    visit: Visit,
    tournament_id: UUID,
    number: int,
    data: dict[str, Any],
    where: str,
    *,
    accept: bool,
) -> Template | Redirect:
    """``accept-resignation`` and ``reject-resignation``: one use case, answered yes or no."""
    return _act(visit, tournament_id, number, data, where, MatchService.answer_resignation, accept)


def _act(
    visit: Visit,
    tournament_id: UUID,
    number: int,
    data: dict[str, Any],
    where: str,
    use_case: UseCase[A],
    argument: A,
) -> Template | Redirect:
    """One playing form: the session and its CSRF token, the form's match (the one at this
    table now), then the use case with the caller REST would have; PRG on success."""
    caller_of = visit.play_caller(data, tournament_id, number)
    form = _form_of(data)
    stale = FormError(where, "", visit.t["form_stale"], 409)
    if form is None:
        return table_page(visit, tournament_id, number, stale)
    try:
        if visit.is_stale(tournament_id, number, form.match_id):
            return table_page(visit, tournament_id, number, stale)
        caller = caller_of(form.match_id, form.side)
        use_case(visit.services.matches, form.match_id, caller, argument, form.version)
    except DomainError as refused:
        return table_page(visit, tournament_id, number, form_error(where, refused))
    return visit.back_to(f"/pages/tournaments/{tournament_id}/tables/{number}")


def _form_of(data: dict[str, Any]) -> PlayForm | None:
    """The hidden inputs, or None when one is missing or mangled (a stale or forged form)."""
    side = str(data.get("side") or "")
    version = str(data.get("version") or "")
    if side not in MATCH_SIDES or not version.isdecimal() or len(version) > 10:
        return None
    match_id = form_id(data, "match_id")
    return PlayForm(match_id, side, int(version)) if match_id is not None else None


def _dice(data: dict[str, Any]) -> list[int] | str | None:
    """Entered dice (``die1``, ``die2``), None for the service's dice (no die inputs), or
    the key of what to say next to the dice."""
    die1, die2 = form_text(data, "die1"), form_text(data, "die2")
    if "die1" not in data and "die2" not in data:
        return None
    if die1 not in DIE_VALUES or die2 not in DIE_VALUES:
        return "dice_invalid"
    return [int(die1), int(die2)]
