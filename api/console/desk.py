"""The desk's actions beyond check-in and start: register at the desk, late entries,
withdrawals and exclusions, the break list (approve or waive a proposed penalty, everyone
present), finalize and reopen (API.md "Pages for people").

Each action is one form: CSRF checked first (a 403 changes nothing), then the same use case as
its REST endpoint with the signed-in director as the actor, inside their scope (rule C-DIR-1).
Success is a 303 back to the desk with a message (Post/Redirect/Get); a refusal renders the desk
with the 4xx status and the reason next to the field it names.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import Redirect, Template

from api.console.console import (
    HOME,
    Console,
    ConsoleController,
    FormData,
    FormError,
    _authorized,
    _desk,
    _form_error,
)
from domain.errors import DomainError, InvalidInputError
from domain.tournament import Applicant

MAX_REASON = 500
"""As over REST (``Reason``): a longer reason is refused."""
MAX_PENALTY = 64
SUMMARIES = {
    "register": "Page form: register a person at the desk (as POST .../registrations, director)",
    "late_entry": "Page form: a registration made after the start joins the field (as POST "
    ".../late-entries)",
    "withdraw": "Page form: a player leaves the running tournament (as POST .../withdrawals)",
    "exclude": "Page form: exclude a player (as POST .../exclusions)",
    "approve_penalty": "Page form: award the proposed penalty of the break list (as POST "
    ".../penalties)",
    "mark_present": "Page form: a player, a table or everyone back from the break (as POST "
    ".../breaks/present); on a break-list row it waives the proposed penalty",
    "finalize": "Page form: fix places and prizes (as POST .../finalize)",
    "reopen": "Page form: reopen a final tournament, with a reason (as POST .../reopen)",
}
DESK = "/tournaments/{tournament_id:uuid}"


class DeskController(Controller):
    """The desk's forms; sessions, CSRF and refusals as on the rest of the console."""

    path = "/director"
    tags = ["pages"]  # noqa: RUF012
    dependencies = ConsoleController.dependencies
    exception_handlers = ConsoleController.exception_handlers

    @post(f"{DESK}/registrations", sync_to_thread=True, summary=SUMMARIES["register"])
    def register(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        console.require_csrf(data)
        form = {key: _text(data, key) for key in ("first_name", "last_name", "email", "age")}
        form["birth_date"] = _text(data, "birth_date")
        age: int | None = None
        if form["age"].strip():
            if not form["age"].strip().isdecimal():
                error = FormError("register", "age", console.t["age_invalid"], 422)
                return _desk(console, tournament_id, error=error, form=form)
            age = int(form["age"])
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
        return _back(console, tournament_id, done, registered.registration_id)

    @post(
        f"{DESK}/registrations/{{registration_id:uuid}}/late-entry",
        sync_to_thread=True,
        summary=SUMMARIES["late_entry"],
    )
    def late_entry(
        self,
        tournament_id: FromPath[UUID],
        registration_id: FromPath[UUID],
        data: FormData,
        console: NamedDependency[Console],
    ) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            f"late-entry:{registration_id}",
            lambda: console.services.venue.admit_late_entry(
                tournament_id, registration_id=registration_id, actor=acting.actor
            ),
            done="late-entry",
            done_for=registration_id,
        )

    @post(f"{DESK}/withdrawals", sync_to_thread=True, summary=SUMMARIES["withdraw"])
    def withdraw(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        console.require_csrf(data)
        player_id = _player_id(data)
        where = f"withdraw:{player_id}"
        reason = _text(data, "reason")
        if refused := _reason_refused(console, where, reason):
            return _desk(console, tournament_id, error=refused)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            where,
            lambda: console.services.rounds.withdraw(
                tournament_id,
                player_id=_require(player_id),
                reason=reason,
                left_early=bool(data.get("left_early")),
                actor=acting.actor,
            ),
            done="withdraw",
            done_for=player_id,
        )

    @post(f"{DESK}/exclusions", sync_to_thread=True, summary=SUMMARIES["exclude"])
    def exclude(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        console.require_csrf(data)
        player_id = _player_id(data)
        where = f"exclude:{player_id}"
        reason = _text(data, "reason")
        if refused := _reason_refused(console, where, reason):
            return _desk(console, tournament_id, error=refused)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            where,
            lambda: console.services.rounds.exclude(
                tournament_id, player_id=_require(player_id), reason=reason, actor=acting.actor
            ),
            done="exclude",
            done_for=player_id,
        )

    @post(f"{DESK}/penalties", sync_to_thread=True, summary=SUMMARIES["approve_penalty"])
    def approve_penalty(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        console.require_csrf(data)
        player_id = _player_id(data)
        match_id = _uuid(data.get("match_id"))
        where = f"approve-penalty:{player_id}"
        reason = _text(data, "reason")
        points_text = _text(data, "points").strip()
        if not points_text.isdecimal() or not 1 <= int(points_text) <= MAX_PENALTY:
            error = FormError(where, "points", console.t["points_invalid"], 422)
            return _desk(console, tournament_id, error=error)
        if refused := _reason_refused(console, where, reason):
            return _desk(console, tournament_id, error=refused)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            where,
            lambda: console.services.conduct.award_penalty(
                tournament_id,
                match_id=_require(match_id, "match_id"),
                player_id=_require(player_id),
                points=int(points_text),
                reason=reason,
                actor=acting.actor,
                for_break_since=_break_since(console, tournament_id, player_id, match_id),
            ),
            done="approve-penalty",
            done_for=player_id,
        )

    @post(f"{DESK}/breaks/present", sync_to_thread=True, summary=SUMMARIES["mark_present"])
    def mark_present(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        """One player (a break-list row's ``waive-penalty``: present now, no penalty), or with
        no player everyone in the current round (``mark-present``)."""
        console.require_csrf(data)
        player_id = _player_id(data) if data.get("player_id") else None
        where = f"waive-penalty:{player_id}" if player_id else "mark-present"
        reason = _text(data, "reason") if player_id else ""
        if player_id is not None and (refused := _reason_refused(console, where, reason)):
            return _desk(console, tournament_id, error=refused)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            where,
            lambda: console.services.conduct.mark_present(
                tournament_id, player_id=player_id, reason=reason, actor=acting.actor
            ),
            done="waive-penalty" if player_id else "mark-present",
            done_for=player_id,
        )

    @post(f"{DESK}/finalize", sync_to_thread=True, summary=SUMMARIES["finalize"])
    def finalize(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        console.require_csrf(data)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            "finalize",
            lambda: console.services.venue.finalize(tournament_id, actor=acting.actor),
            done="finalize",
        )

    @post(f"{DESK}/reopen", sync_to_thread=True, summary=SUMMARIES["reopen"])
    def reopen(
        self, tournament_id: FromPath[UUID], data: FormData, console: NamedDependency[Console]
    ) -> Template | Redirect:
        console.require_csrf(data)
        reason = _text(data, "reason")
        if refused := _reason_refused(console, "reopen", reason, required=True):
            return _desk(console, tournament_id, error=refused)
        acting = _authorized(console, tournament_id)
        return _act(
            console,
            tournament_id,
            "reopen",
            lambda: console.services.venue.reopen_tournament(
                tournament_id, reason=reason, actor=acting.actor
            ),
            done="reopen",
        )


def _act(
    console: Console,
    tournament_id: UUID,
    where: str,
    action: Callable[[], object],
    *,
    done: str,
    done_for: UUID | None = None,
) -> Template | Redirect:
    """Run the use case; a refusal comes back on the desk next to the form ``where``."""
    try:
        action()
    except DomainError as refused:
        return _desk(console, tournament_id, error=_form_error(where, refused))
    return _back(console, tournament_id, done, done_for)


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


def _back(console: Console, tournament_id: UUID, done: str, done_for: UUID | None) -> Redirect:
    return console.back_to(
        f"{HOME}/tournaments/{tournament_id}",
        done=done,
        registration=str(done_for) if done_for else "",
    )


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _uuid(value: object) -> UUID | None:
    try:
        return UUID(str(value))
    except ValueError:
        return None


def _player_id(data: dict[str, Any]) -> UUID | None:
    return _uuid(data.get("player_id"))


def _require(value: UUID | None, field: str = "player_id") -> UUID:
    """A hidden id the page put into the form; missing or garbled, the form was not ours."""
    if value is None:
        raise InvalidInputError(field, "is not an id")
    return value


def _reason_refused(
    console: Console, where: str, reason: str, *, required: bool = False
) -> FormError | None:
    if required and not reason.strip():
        return FormError(where, "reason", console.t["reason_missing"], 422)
    if len(reason) > MAX_REASON:
        return FormError(where, "reason", console.t["reason_too_long"], 422)
    return None
