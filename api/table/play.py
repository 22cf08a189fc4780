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
from typing import Any
from uuid import UUID

from litestar import Controller, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath
from litestar.response import Redirect, Template

from api.table.table import (
    FormData,
    FormError,
    FormRefusedError,
    Visit,
    form_error,
    form_refused,
    provide_visit,
    table_page,
)
from domain.errors import DomainError
from domain.match import SIDES as MATCH_SIDES
from domain.match import Match, Side
from service.matches.matches import MatchService
from service.shared.match_play import Caller

TABLE = "/pages/tournaments/{tournament_id:uuid}/tables/{number:int}"
DIE_VALUES = frozenset("123456")
Command = Callable[[MatchService, UUID, Caller, int], Match]
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


class PlayController(Controller):
    path = TABLE
    tags = ["pages"]  # noqa: RUF012
    dependencies = {"visit": Provide(provide_visit, sync_to_thread=True)}  # noqa: RUF012
    exception_handlers = {FormRefusedError: form_refused}  # noqa: RUF012

    @post("/roll", sync_to_thread=True, summary=SUMMARIES["roll"])
    def roll(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        visit.play_caller(data, tournament_id, number)  # no token: refused before it is read
        dice = _dice(data)
        if isinstance(dice, str):
            return _refused(visit, tournament_id, number, "roll", "dice", dice, 422)

        def command(matches: MatchService, match_id: UUID, caller: Caller, version: int) -> Match:
            return matches.roll(match_id, caller, dice, expected_version=version)

        return _act(visit, tournament_id, number, data, "roll", command)

    @post("/play", sync_to_thread=True, summary=SUMMARIES["play"])
    def play(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        notation = str(data.get("play") or "").strip()

        def command(matches: MatchService, match_id: UUID, caller: Caller, version: int) -> Match:
            return matches.play(match_id, caller, notation=notation, expected_version=version)

        return _act(visit, tournament_id, number, data, "play", command)

    @post("/cube", sync_to_thread=True, summary=SUMMARIES["cube"])
    def cube(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        action = str(data.get("action") or "").strip()

        def command(matches: MatchService, match_id: UUID, caller: Caller, version: int) -> Match:
            return matches.cube(match_id, caller, action, expected_version=version)

        return _act(visit, tournament_id, number, data, "cube", command)

    @post("/resign", sync_to_thread=True, summary=SUMMARIES["resign"])
    def resign(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        level = str(data.get("level") or "").strip() or None

        def command(matches: MatchService, match_id: UUID, caller: Caller, version: int) -> Match:
            return matches.resign(match_id, caller, level, expected_version=version)

        return _act(visit, tournament_id, number, data, "resign", command)

    @post("/accept-resignation", sync_to_thread=True, summary=SUMMARIES["accept"])
    def accept_resignation(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        return _act(visit, tournament_id, number, data, "accept-resignation", _answer(True))

    @post("/reject-resignation", sync_to_thread=True, summary=SUMMARIES["reject"])
    def reject_resignation(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        return _act(visit, tournament_id, number, data, "reject-resignation", _answer(False))

    @post("/void-roll", sync_to_thread=True, summary=SUMMARIES["void_roll"])
    def void_roll(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: FormData,
        visit: NamedDependency[Visit],
    ) -> Template | Redirect:
        reason = str(data.get("reason") or "")

        def command(matches: MatchService, match_id: UUID, caller: Caller, version: int) -> Match:
            return matches.void_roll(match_id, caller, reason, expected_version=version)

        return _act(visit, tournament_id, number, data, "void-roll", command)


def _answer(accept: bool) -> Command:
    def command(matches: MatchService, match_id: UUID, caller: Caller, version: int) -> Match:
        return matches.answer_resignation(match_id, caller, accept, expected_version=version)

    return command


def _act(
    visit: Visit,
    tournament_id: UUID,
    number: int,
    data: dict[str, Any],
    where: str,
    command: Command,
) -> Template | Redirect:
    """One playing form: the session and its CSRF token, the form's match (the one at this
    table now), then the use case with the caller REST would have; PRG on success."""
    caller_of = visit.play_caller(data, tournament_id, number)
    form = _form_of(data)
    stale = "form_stale"
    if form is None:
        return _refused(visit, tournament_id, number, where, "", stale, 409)
    try:
        # a form of another table's match, or of an earlier round, is stale
        if visit.services.venue.get_table(tournament_id, number).match_id != form.match_id:
            return _refused(visit, tournament_id, number, where, "", stale, 409)
        command(
            visit.services.matches, form.match_id, caller_of(form.match_id, form.side), form.version
        )
    except DomainError as refused:
        return table_page(visit, tournament_id, number, form_error(where, refused))
    return visit.back_to(f"/pages/tournaments/{tournament_id}/tables/{number}")


def _form_of(data: dict[str, Any]) -> PlayForm | None:
    """The hidden inputs, or None when one is missing or mangled (a stale or forged form)."""
    side = str(data.get("side") or "")
    version = str(data.get("version") or "")
    if side not in MATCH_SIDES or not version.isdecimal() or len(version) > 10:
        return None
    try:
        match_id = UUID(str(data.get("match_id") or "").strip())
    except ValueError:
        return None
    return PlayForm(match_id, side, int(version))


def _dice(data: dict[str, Any]) -> list[int] | str | None:
    """Entered dice (``die1``, ``die2``), None for the service's dice (no die inputs), or
    the key of what to say next to the dice."""
    die1 = str(data.get("die1") or "").strip()
    die2 = str(data.get("die2") or "").strip()
    if "die1" not in data and "die2" not in data:
        return None
    if die1 not in DIE_VALUES or die2 not in DIE_VALUES:
        return "dice_invalid"
    return [int(die1), int(die2)]


def _refused(
    visit: Visit,
    tournament_id: UUID,
    number: int,
    where: str,
    field: str,
    message: str,
    status: int,
) -> Template:
    """The page again with ``message`` (a key of the texts) next to the form's ``field``."""
    error = FormError(where, field, visit.t[message], status)
    return table_page(visit, tournament_id, number, error)
