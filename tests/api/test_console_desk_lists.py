"""Each registration shows on the desk in one list at most (the waitlist, the standbys, the late
entries, the players in the field), with the forms the domain takes for it and no other
(API.md "Pages for people"); the registrations table's check-in column says what became of a
check-in. Tournaments in each state are built over REST and read through the rendered desk."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import desk, row_of, signed_in
from tests.api.test_console_desk import flash_of, register_lena_after_the_start, submit
from tests.api.test_tournament_day import pair_next, report, start_tournament
from tests.conftest import DIRECTOR

Client = TestClient[Any]

LISTS = ("waitlist-section", "late-entries-section", "players-section")
"""The desk's sections that list registrations or players (the standbys sit in the first)."""


def sections_of(html: str, person: dict[str, Any]) -> dict[str, list[str]]:
    """Where ``person`` (a registration's answer) shows on the desk besides the registrations
    table: each section's id with the forms (``data-action``) of the person's rows there."""
    found: dict[str, list[str]] = {}
    for section in re.finditer(r'<section id="([^"]+)">(.*?)</section>', html, re.DOTALL):
        ids = (
            f'data-registration-id="{person["registration_id"]}"',
            f'data-player-id="{person["player_id"]}"',
        )
        for row in re.finditer(r"<(tr|li) ([^>]*)>(.*?)</\1>", section.group(2), re.DOTALL):
            if any(marker in row.group(2) for marker in ids):
                actions = re.findall(r'data-action="([^"]+)"', row.group(3))
                found.setdefault(section.group(1), []).extend(actions)
    return found


def listed(html: str, person: dict[str, Any]) -> dict[str, list[str]]:
    """The lists of ``sections_of`` only (not the break list, places or forms elsewhere)."""
    return {k: v for k, v in sections_of(html, person).items() if k in LISTS}


def test_a_late_registration_to_a_full_tournament_is_a_late_entry_not_on_the_waitlist(
    client: Client, clock: MovableClock
) -> None:
    # rule T-REG-3: the waitlist promotes only until the start; after it a registration of a
    # full tournament is waitlisted, yet it joins the field only by its admission, from either
    # status (admit_late_entry), or is cancelled (rule T-CANCEL-1): it is a late entry
    day = start_tournament(client, clock, 4)
    signed_in(client)
    late, page = register_lena_after_the_start(client, day)
    assert late["status"] == "waitlisted"
    # the desk's message says where she is listed, not the waitlist she is not on
    assert flash_of(page) == "Lena S. ist nachgemeldet: bei der Ankunft unter Nachzügler zulassen."

    assert listed(page, late) == {"late-entries-section": ["late-entry", "cancel-late-entry"]}
    assert 'id="waitlist"' not in page
    english = desk(client, day.id, "?lang=en").text
    assert listed(english, late) == {"late-entries-section": ["late-entry", "cancel-late-entry"]}

    # the late-entry form works for it: checked in on arrival and admitted (rule T-BUYIN-1)
    admitted = submit(
        client,
        day.id,
        f"/registrations/{late['registration_id']}/late-entry",
        id_document_seen="yes",
        buy_in_paid="100,00",
    )
    assert admitted.status_code == 303, admitted.text
    after = client.get(admitted.headers["location"]).text
    assert listed(after, late) == {"players-section": ["withdraw", "exclude"]}


def test_a_late_registration_cancelled_after_its_check_in_shows_the_refund_not_the_check_in(
    client: Client, clock: MovableClock
) -> None:
    # rules T-CANCEL-1, T-BUYIN-1: checked in on arrival, never admitted, cancelled by the
    # director: the registrations table says so and names the buy-in handed back
    day = start_tournament(client, clock, 4)
    signed_in(client)
    late, _ = register_lena_after_the_start(client, day)
    client.post(
        day.url(f"/registrations/{late['registration_id']}/check-in"),
        json={"id_document_seen": True, "buy_in_paid_cents": 10000},
        headers=DIRECTOR,
    ).raise_for_status()
    cancelled = submit(
        client, day.id, f"/registrations/{late['registration_id']}/cancel-late-entry"
    )
    assert cancelled.status_code == 303, cancelled.text

    row = row_of(desk(client, day.id).text, late["registration_id"])
    assert "eingecheckt" not in row
    assert "storniert: 100,00 € Startgeld zurückgegeben" in row
    english = row_of(desk(client, day.id, "?lang=en").text, late["registration_id"])
    assert "checked in" not in english
    assert "cancelled: buy-in of 100.00 € handed back" in english


def test_after_the_last_swiss_round_is_paired_a_late_registration_is_offered_no_admission(
    client: Client, clock: MovableClock
) -> None:
    # require_late_entry_open: once the last Swiss round is paired the domain refuses every
    # admission, so the desk offers only the cancellation (rule T-CANCEL-1)
    day = start_tournament(client, clock, 4)
    while len(day.rounds) < day.swiss_rounds:
        for table in day.rounds[-1]["pairings"]:
            if table["player_b"]:
                report(client, day, table)
        pair_next(client, day)
    signed_in(client)
    late, page = register_lena_after_the_start(client, day)

    assert listed(page, late) == {"late-entries-section": ["cancel-late-entry"]}
    refused = submit(client, day.id, f"/registrations/{late['registration_id']}/late-entry")
    assert refused.status_code == 409
