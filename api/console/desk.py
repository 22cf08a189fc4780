"""The desk's forms: check-in and start, register at the desk, late entries, withdrawals and
exclusions, the break list (approve or waive a proposed penalty, agree a return time, everyone
present), finalize and reopen (API.md "Pages for people").

Each action is one form, read into a ``DeskForm`` and run by ``_act``: CSRF checked first (a 403
changes nothing), then the same use case as its REST endpoint with the signed-in director as the
actor, inside their scope (rule C-DIR-1). Success is a 303 back to the desk with a message
(Post/Redirect/Get); a refusal renders the desk with the 4xx status and the reason next to the
field it names, the form keeping what was typed into it. Registering at the desk is the one
form of its own shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from litestar import post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.response import Redirect, Template

from api.console.console import (
    HOME,
    Console,
    ConsoleDep,
    ConsolePages,
    _authorized,
    _desk,
    _form_error,
    parse_euros,
)
from api.console.forms import reason_refused, text, uuid_in
from api.http.forms import CSRF_FIELD, FormData, FormError, whole_number
from domain.calendar import local_instant, parse_time
from domain.errors import DomainError, InvalidInputError
from domain.tournament import Applicant
from service.conduct.conduct import BackFromBreak, PenaltyAward
from service.registration.tournaments import CheckInProof
from service.rounds.rounds import WithdrawalNotice
from service.venue.venue import LateArrival

MAX_PENALTY = 64
MAX_AGE = 999
"""A longer number is no age; the use case judges the ages up to it (its minimum age)."""
SUMMARIES = {
    "check_in": "Page form: check a registration in (as POST .../check-in)",
    "start": "Page form: start the tournament (as POST .../start)",
    "register": "Page form: register a person at the desk (as POST .../registrations, director)",
    "late_entry": "Page form: a registration made after the start joins the field (as POST "
    ".../late-entries)",
    "cancel_late_entry": "Page form: cancel a registration made after the start and never "
    "admitted, a checked-in one with its buy-in handed back (as DELETE .../registrations/{rid}, "
    "director)",
    "withdraw": "Page form: a player leaves the running tournament (as POST .../withdrawals)",
    "exclude": "Page form: exclude a player (as POST .../exclusions)",
    "approve_penalty": "Page form: award the proposed penalty of the break list (as POST "
    ".../penalties)",
    "mark_present": "Page form: a player, a table or everyone back from the break (as POST "
    ".../breaks/present); on a break-list row it waives the proposed penalty",
    "agree_return": "Page form: a player of the break list leaving the venue agrees a time to be "
    "back, a time of day in the club's time zone, the nearest to now (as POST "
    ".../breaks/{player_id}/return-time)",
    "finalize": "Page form: fix places and prizes (as POST .../finalize)",
    "reopen": "Page form: reopen a final tournament, with a reason (as POST .../reopen)",
}
DESK = "/tournaments/{tournament_id:uuid}"
REGISTRATION = f"{DESK}/registrations/{{registration_id:uuid}}"
TournamentId = FromPath[UUID]


@dataclass(frozen=True, slots=True)
class DeskForm:
    """What one desk form asks for, as ``_act`` runs it: the use case ``run``, given the actor of
    the signed-in director, its refusal shown next to the form ``where``; a field the form got
    wrong (``invalid``) instead; done, the desk's message ``done`` (about ``done_for``), the
    search ``query`` kept."""

    where: str
    run: Callable[[str], object]
    done: str
    done_for: UUID | None = None
    invalid: FormError | None = None
    query: str = ""


DeskFormOf = Callable[[Console, UUID, dict[str, Any]], DeskForm]
"""Reads a desk form's fields (the console, the tournament, the form's data) into its action."""
RegistrationFormOf = Callable[[Console, UUID, UUID, dict[str, Any]], DeskForm]
"""The same for a form of one registration row, its id in the path."""


def _check_in(
    console: Console, tournament_id: UUID, registration_id: UUID, data: dict[str, Any]
) -> DeskForm:
    where = f"check-in:{registration_id}"
    # the check-in form always has the sum field: a missing sum is refused like a garbled one
    proof, invalid = _arrival_proof(console, where, data, sum_required=True)
    return DeskForm(
        where,
        lambda actor: console.services.tournaments.check_in(
            tournament_id, registration_id, proof, actor=actor
        ),
        invalid=invalid,
        query=str(data.get("q") or ""),
        done="check-in",
        done_for=registration_id,
    )


def _arrival_proof(
    console: Console, where: str, data: dict[str, Any], *, sum_required: bool
) -> tuple[CheckInProof, FormError | None]:
    """The proof of an arrival on the form ``where`` (rule T-CHECKIN-1: ID document seen,
    buy-in paid in euros), and the refusal of a sum that is no sum in euros. A missing sum
    is refused too where ``sum_required``; otherwise it stands for none paid (0)."""
    paid = parse_euros(data.get("buy_in_paid"))
    refused = paid is None and (sum_required or "buy_in_paid" in data)
    proof = CheckInProof(
        id_document_seen=bool(data.get("id_document_seen")), buy_in_paid_cents=paid or 0
    )
    invalid = FormError(where, "buy_in_paid", console.t["buy_in_invalid"], 422)
    return proof, invalid if refused else None


def _start(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    start = console.services.rounds.start
    return DeskForm("start", lambda actor: start(tournament_id, actor=actor), done="start")


def _late_entry(
    console: Console, tournament_id: UUID, registration_id: UUID, data: dict[str, Any]
) -> DeskForm:
    # A late entry arrives: checked in (rule T-CHECKIN-1: ID document seen, buy-in paid, in
    # euros as on the check-in form) and admitted (rule T-BUYIN-1) by one use case, or
    # neither. A row checked in already (over REST) sends no proof: it is admitted only. (No
    # docstring: it would describe the page form in the OpenAPI document.)
    where = f"late-entry:{registration_id}"
    # no sum sent: none paid, which the check-in refuses (one checked in needs none)
    proof, invalid = _arrival_proof(console, where, data, sum_required=False)
    admit = console.services.venue.admit_late_arrival
    return DeskForm(
        where,
        lambda actor: admit(
            tournament_id,
            LateArrival(
                registration_id=registration_id,
                id_document_seen=proof.id_document_seen,
                buy_in_paid_cents=proof.buy_in_paid_cents,
            ),
            actor=actor,
        ),
        invalid=invalid,
        done="late-entry",
        done_for=registration_id,
    )


def _cancel_late_entry(
    console: Console, tournament_id: UUID, registration_id: UUID, data: dict[str, Any]
) -> DeskForm:
    # rule T-CANCEL-1: a late entry never admitted holds no seat in the field, so it is
    # cancelled; checked in, its buy-in is handed back (rule T-BUYIN-1), the message says how
    # much. No reason field: a cancellation's event records none. (No docstring: it would
    # describe the page form in the OpenAPI document.)
    cancel = console.services.tournaments.cancel_registration
    return DeskForm(
        f"cancel-late-entry:{registration_id}",
        lambda actor: cancel(
            tournament_id,
            registration_id,
            player_token=None,
            by_director=True,
            director_actor=actor,
        ),
        done="cancel-late-entry",
        done_for=registration_id,
    )


def _withdrawal(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    withdraw = console.services.rounds.withdraw
    left_early = bool(data.get("left_early"))
    return _leaving(
        console,
        data,
        "withdraw",
        lambda player_id, reason, actor: withdraw(
            tournament_id,
            WithdrawalNotice(player_id=player_id, reason=reason, left_early=left_early),
            actor=actor,
        ),
    )


def _exclusion(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    exclude = console.services.rounds.exclude
    return _leaving(
        console,
        data,
        "exclude",
        lambda player_id, reason, actor: exclude(
            tournament_id, player_id=player_id, reason=reason, actor=actor
        ),
    )


def _leaving(
    console: Console,
    data: dict[str, Any],
    action: str,
    leave: Callable[[UUID, str, str], object],
) -> DeskForm:
    """A player of the field leaves it (a withdrawal, an exclusion), by the form ``action`` of
    their row with a reason: ``leave`` given the player, the reason and the actor."""
    player_id, reason = uuid_in(data, "player_id"), text(data, "reason")
    where = f"{action}:{player_id}"
    return DeskForm(
        where,
        lambda actor: leave(_require(player_id), reason, actor),
        invalid=reason_refused(console, where, reason),
        done=action,
        done_for=player_id,
    )


def _penalty(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    player_id, match_id = uuid_in(data, "player_id"), uuid_in(data, "match_id")
    where = f"approve-penalty:{player_id}"
    reason = text(data, "reason")
    points = whole_number(text(data, "points"), MAX_PENALTY) or 0
    return DeskForm(
        where,
        lambda actor: console.services.conduct.award_penalty(
            tournament_id,
            PenaltyAward(
                match_id=_require(match_id, "match_id"),
                player_id=_require(player_id),
                points=points,
                reason=reason,
                for_break_since=_break_since(console, tournament_id, player_id, match_id),
            ),
            actor=actor,
        ),
        invalid=FormError(where, "points", console.t["points_invalid"], 422)
        if not 1 <= points <= MAX_PENALTY
        else reason_refused(console, where, reason),
        done="approve-penalty",
        done_for=player_id,
    )


def _back_from_break(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    """One player (a break-list row's ``waive-penalty``: present now, no penalty), or with
    no player everyone in the current round (``mark-present``)."""
    # a row's player id that is garbled is refused: it never means everyone
    named = bool(data.get("player_id"))
    player_id = uuid_in(data, "player_id") if named else None
    where = f"waive-penalty:{player_id}" if named else "mark-present"
    reason = text(data, "reason") if named else ""
    mark_present = console.services.conduct.mark_present
    return DeskForm(
        where,
        lambda actor: mark_present(
            tournament_id,
            BackFromBreak(player_id=_require(player_id) if named else None, reason=reason),
            actor=actor,
        ),
        invalid=reason_refused(console, where, reason),
        done="waive-penalty" if named else "mark-present",
        done_for=player_id,
    )


def _return_time(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    """rule C-BREAK-3: a player of a break-list row who leaves the venue agrees a time to be
    back: ``until``, a time of day (``HH:MM``) in the club's time zone (rule CAL-3), the one
    nearest to now (``_today_at``). A text that is no time of day, or a time already past, is
    refused next to it (422)."""
    player_id = uuid_in(data, "player_id")
    typed = text(data, "until")
    agree = console.services.conduct.agree_return_time

    def run(actor: str) -> None:
        until = _today_at(console, typed)
        try:
            agree(tournament_id, player_id=_require(player_id), until=until, actor=actor)
        except InvalidInputError as refused:
            if refused.field != "until":
                raise
            # the domain's refusal (a time already past) in the page's language
            raise InvalidInputError("until", console.t["until_past"]) from refused

    return DeskForm(f"agree-return:{player_id}", run, done="agree-return", done_for=player_id)


def _today_at(console: Console, typed: str) -> datetime:
    """The instant of the time of day ``typed`` (``HH:MM``) in the club's time zone (rule
    CAL-3: DST-aware, as the deadlines are read) nearest to now: today's, or around midnight
    the next or the previous day's (00:10 typed at 23:50 is twenty minutes ahead, 23:40 typed
    at 00:05 is past)."""
    try:
        at = parse_time("until", typed)
    except InvalidInputError:
        raise InvalidInputError("until", console.t["until_invalid"]) from None
    services = console.services
    zone, now = services.zone, services.clock.now()
    today = now.astimezone(zone).date()
    days = (today - timedelta(days=1), today, today + timedelta(days=1))
    return min((local_instant(day, at, zone) for day in days), key=lambda then: abs(then - now))


def _finalize(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    finalize = console.services.venue.finalize
    return DeskForm("finalize", lambda actor: finalize(tournament_id, actor=actor), done="finalize")


def _reopen(console: Console, tournament_id: UUID, data: dict[str, Any]) -> DeskForm:
    reason = text(data, "reason")
    reopen = console.services.venue.reopen_tournament
    return DeskForm(
        "reopen",
        lambda actor: reopen(tournament_id, reason=reason, actor=actor),
        invalid=reason_refused(console, "reopen", reason, required=True),
        done="reopen",
    )


def desk_form(name: str, path: str, form_of: DeskFormOf) -> HTTPRouteHandler:
    """The route of the desk form ``name``: POST to ``path`` below the desk, read by
    ``form_of`` and run by ``_act``."""

    def handler(
        self: ConsolePages, tournament_id: TournamentId, data: FormData, console: ConsoleDep
    ) -> Template | Redirect:
        return _act(console, tournament_id, data, form_of(console, tournament_id, data))

    return _route(name, f"{DESK}{path}", handler, form_of)


def registration_form(name: str, path: str, form_of: RegistrationFormOf) -> HTTPRouteHandler:
    """The route of the form ``name`` of one registration row: POST to ``path`` below it."""

    def handler(
        self: ConsolePages,
        tournament_id: TournamentId,
        registration_id: FromPath[UUID],
        data: FormData,
        console: ConsoleDep,
    ) -> Template | Redirect:
        form = form_of(console, tournament_id, registration_id, data)
        return _act(console, tournament_id, data, form)

    return _route(name, f"{REGISTRATION}{path}", handler, form_of)


def _route(
    name: str,
    path: str,
    handler: Callable[..., Template | Redirect],
    form_of: Callable[..., DeskForm],
) -> HTTPRouteHandler:
    # a method ``name`` of ``DeskController``, as Litestar binds it: the OpenAPI document
    # names the operation after it, lists the operations in the order of their qualified
    # names and describes each with its docstring (the reader's)
    handler.__name__, handler.__qualname__ = name, f"DeskController.{name}"
    handler.__doc__ = form_of.__doc__
    return post(path, sync_to_thread=True, summary=SUMMARIES[name])(handler)


class DeskController(ConsolePages):
    """The desk's forms; sessions, CSRF and refusals as on the rest of the console."""

    check_in = registration_form("check_in", "/check-in", _check_in)
    start = desk_form("start", "/start", _start)
    late_entry = registration_form("late_entry", "/late-entry", _late_entry)
    cancel_late_entry = registration_form(
        "cancel_late_entry", "/cancel-late-entry", _cancel_late_entry
    )
    withdraw = desk_form("withdraw", "/withdrawals", _withdrawal)
    exclude = desk_form("exclude", "/exclusions", _exclusion)
    approve_penalty = desk_form("approve_penalty", "/penalties", _penalty)
    mark_present = desk_form("mark_present", "/breaks/present", _back_from_break)
    agree_return = desk_form("agree_return", "/breaks/return-time", _return_time)
    finalize = desk_form("finalize", "/finalize", _finalize)
    reopen = desk_form("reopen", "/reopen", _reopen)

    @post(f"{DESK}/registrations", sync_to_thread=True, summary=SUMMARIES["register"])
    def register(
        self, tournament_id: TournamentId, data: FormData, console: ConsoleDep
    ) -> Template | Redirect:
        console.require_csrf(data)
        form = {key: text(data, key) for key in ("first_name", "last_name", "email", "age")}
        form["birth_date"] = text(data, "birth_date")
        age: int | None = None
        if form["age"].strip():
            age = whole_number(form["age"], MAX_AGE)
            if age is None:
                error = FormError("register", "age", console.t["age_invalid"], 422)
                return _desk(console, tournament_id, error=error, form=form)
        applicant = Applicant(
            first_name=form["first_name"],
            last_name=form["last_name"],
            email=form["email"].strip(),
            age=age,
            birth_date=form["birth_date"].strip() or None,
            language=console.lang,
        )
        acting = _authorized(console, tournament_id)
        try:
            # the director's registration: at once (201 over REST), a late entry's after the start
            registered = console.services.tournaments.register(
                tournament_id, applicant, actor=acting.actor
            )
        except DomainError as refused:
            error = _form_error("register", refused)
            return _desk(console, tournament_id, error=error, form=form)
        done = "register_waitlisted" if registered.status == "waitlisted" else "register"
        if console.services.tournaments.get_tournament(tournament_id).status == "running":
            # after the start a registration is a late entry, waitlisted or not (T-BUYIN-1)
            done = "register_late"
        return _back(console, tournament_id, done, registered.registration_id)


def _act(
    console: Console, tournament_id: UUID, data: dict[str, Any], form: DeskForm
) -> Template | Redirect:
    """One desk form: its CSRF token first (else a 403, nothing changed); a field the form
    got wrong back on the desk; else its use case, given the actor of the signed-in director
    inside whose scope the tournament lies, its refusal shown next to the form; done, a 303
    back to the desk (with the search query kept)."""
    console.require_csrf(data)
    query = form.query
    # a refused form comes back with what was typed into it
    typed = {name: str(value) for name, value in data.items() if name != CSRF_FIELD}
    if form.invalid is not None:
        return _desk(console, tournament_id, query=query, error=form.invalid, typed=typed)
    acting = _authorized(console, tournament_id)
    try:
        form.run(acting.actor)
    except DomainError as refused:
        error = _form_error(form.where, refused)
        return _desk(console, tournament_id, query=query, error=error, typed=typed)
    return _back(console, tournament_id, form.done, form.done_for, query=query)


def _break_since(
    console: Console, tournament_id: UUID, player_id: UUID | None, match_id: UUID | None
) -> datetime | None:
    """When the break began whose proposal the break list's row approves: the same proposal
    approved twice is then refused (409), one penalty recorded."""
    services = console.services
    return next(
        (
            found.since
            for found in services.conduct.list_breaks(tournament_id, services.clock.now())
            if found.player_id == player_id and found.next_match_id == match_id
        ),
        None,
    )


def _back(
    console: Console, tournament_id: UUID, done: str, done_for: UUID | None, *, query: str = ""
) -> Redirect:
    return console.back_to(
        f"{HOME}/tournaments/{tournament_id}",
        q=query,
        done=done,
        registration=str(done_for) if done_for else "",
    )


def _require(value: UUID | None, field: str = "player_id") -> UUID:
    """A hidden id the page put into the form; missing or garbled, the form was not ours."""
    if value is None:
        raise InvalidInputError(field, "is not an id")
    return value
