"""What the desk shows besides the registrations: the waitlist and standbys, late entries, the
players who can withdraw or be excluded, the break list, places and prizes, the print pages.

Everything here is read through the same queries as the REST API (``services.*``); the desk's
actions live in ``api.console.desk``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.errors import DomainError
from domain.tournament.formats import require_late_entry_open
from projections.participants import RegistrationRow
from service.bootstrap import Services
from service.conduct.conduct import Break
from service.registration.tournaments import TournamentView

PRINT_PAGES = ("pairings?by=table", "pairings?by=name", "slips", "standings")
"""The printouts (``/pages/tournaments/{id}/print/...``) the desk links to."""


@dataclass(frozen=True, slots=True)
class PlaceRow:
    """A place after the knockout with its prize (0 when the place wins no money)."""

    place: int
    player_id: UUID
    display_name: str
    amount_cents: int
    """The main pot's payout for the place (rule T-BUYIN-1, T-FMT-14)."""
    consolation_place: int | None = None
    """rule T-FMT-13: 1 or 2 for an elimination's consolation winner and finalist."""
    consolation_cents: int = 0
    """rule T-FMT-14: the consolation pot's payout for the consolation place."""


def desk_sections(
    services: Services,
    tournament: TournamentView,
    registrations: list[RegistrationRow],
    error_where: str | None = None,
) -> dict[str, Any]:
    """The desk's sections for ``tournament`` as of now, as template context.

    ``error_where``: the form whose action was refused. When the desk no longer shows that
    form (the player it named has left the field, the places are not fixed yet), the refusal
    is shown above the sections instead (``stray_error``): a refusal is never silent."""
    started_at = tournament.started_at
    running = started_at is not None and tournament.completed_at is None
    # rule T-REG-3: the waitlist promotes until the start; a registration made after it, seat
    # or none, joins the field only by its admission (admit_late_entry): a late entry
    waitlist = sorted(
        (
            row
            for row in registrations
            if row.status == "waitlisted" and (started_at is None or row.registered_at < started_at)
        ),
        key=lambda row: row.waitlist_position or 0,
    )
    late = [
        row
        for row in registrations
        if started_at is not None
        and running
        and row.registered_at >= started_at
        and row.status in ("registered", "waitlisted", "checked_in")
    ]
    # a late entry checked in on arrival (POST .../check-in) waits for its admission: it plays
    # no round until then, so it stays a late entry to admit, not a player of the field
    held = services.venue.load(tournament.id) if late else None
    admitted = {entry.player_id for entry in held.late_entries} if held else set()
    # the domain admits no late entry to a fixed schedule nor once the last Swiss round is
    # paired (require_late_entry_open): no form is offered that is always refused
    try:
        if held is not None:
            require_late_entry_open(held)
        admitting = held is not None
    except DomainError:
        admitting = False
    late_entries = [row for row in late if row.player_id not in admitted]
    waiting = {row.registration_id for row in late_entries}
    in_field = [
        row
        for row in registrations
        if running and row.status == "checked_in" and row.registration_id not in waiting
    ]
    breaks: list[Break] = (
        services.conduct.list_breaks(tournament.id, services.clock.now()) if running else []
    )
    places = services.places.list_fixed_places(tournament.id)
    prizes = services.places.get_prizes(tournament.id)
    # rule T-FMT-14: a consolation payout's place is the consolation place, not the place
    paid = {p.place: p.amount_cents for p in prizes.payouts if p.bracket == "main"}
    consoled = {p.place: p.amount_cents for p in prizes.payouts if p.bracket == "consolation"}
    completed = tournament.completed_at is not None
    shown_forms = {"start", "register" if not completed else ""}
    shown_forms.update(f"check-in:{row.registration_id}" for row in registrations)
    if admitting:  # API.md "Formats": no late entry to a fixed schedule
        shown_forms.update(f"late-entry:{row.registration_id}" for row in late_entries)
    # rule T-CANCEL-1: never admitted, a late registration is cancelled, in any format
    shown_forms.update(f"cancel-late-entry:{row.registration_id}" for row in late_entries)
    for row in in_field:
        shown_forms.update((f"withdraw:{row.player_id}", f"exclude:{row.player_id}"))
    if running:
        shown_forms.add("mark-present")
    for entry in breaks:
        if entry.proposed_penalty and entry.next_match_id:
            shown_forms.add(f"approve-penalty:{entry.player_id}")
        if entry.ended_at is None:
            shown_forms.add(f"waive-penalty:{entry.player_id}")
            shown_forms.add(f"agree-return:{entry.player_id}")  # rule C-BREAK-3
    if places:
        shown_forms.add("reopen" if tournament.finalized_at else "finalize")
    return {
        "stray_error": error_where is not None and error_where not in shown_forms,
        "waitlist": waitlist,
        "standbys": [row for row in registrations if row.status == "standby"],
        "late_entries": late_entries,
        "admitting": admitting,
        "in_field": in_field,
        "running": running,
        "breaks": breaks,
        "places": [
            PlaceRow(
                p.place,
                p.player_id,
                p.display_name,
                paid.get(p.place, 0),
                p.consolation_place,
                consoled.get(p.consolation_place, 0) if p.consolation_place else 0,
            )
            for p in places or ()
        ],
        "pot_cents": prizes.pot_cents,
        "consolation": any(p.consolation_place for p in places or ()),
        "completed": completed,
        "final": tournament.finalized_at is not None,
        "print_pages": PRINT_PAGES,
    }


def desk_flash(
    t: dict[str, str],
    done: str,
    done_for: str,
    registrations: list[RegistrationRow],
    money: Callable[[int], str],
) -> str:
    """The message after a desk action (``done``) for whom it concerned (``done_for``: a
    registration's or a player's id); empty for an action the desk does not know. An action
    with a message of its own for a refund (``done_..._refund``: a cancelled late entry checked
    in) names the buy-in to hand back, as ``money`` writes it."""
    key = f"done_{done.replace('-', '_')}"
    row = next(
        (r for r in registrations if done_for in (str(r.registration_id), str(r.player_id))),
        None,
    )
    refund = row.refund_cents if row is not None and row.refund_cents else 0
    message = t.get(f"{key}_refund", "") if refund else ""
    return (message or t.get(key, "")).format(
        name=row.display_name if row is not None else "", refund=money(refund)
    )
