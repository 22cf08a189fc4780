"""The desk cancels a late registration never admitted to the field (rule T-CANCEL-1): each
late-entry row has a cancel form, the use case of DELETE .../registrations/{rid}; a checked-in
one gets its buy-in handed back, which the message names (rules T-CHECKIN-1, T-BUYIN-1)."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import desk, signed_in
from tests.api.test_console_desk import (
    events_of,
    flash_of,
    register_lena_after_the_start,
    registrations,
    row_with,
    submit,
)
from tests.api.test_tournament_day import start_tournament
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_a_late_entry_checked_in_but_never_admitted_is_cancelled_at_the_desk_with_a_refund(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    late, page = register_lena_after_the_start(client, day)
    form = row_with(page, "data-registration-id", late["registration_id"], "cancel-late-entry")
    assert f"/registrations/{late['registration_id']}/cancel-late-entry" in form
    assert "Anmeldung stornieren" in form
    english = desk(client, day.id, "?lang=en").text
    assert "Cancel registration" in row_with(
        english, "data-registration-id", late["registration_id"], "cancel-late-entry"
    )
    client.post(
        f"/api/v1/tournaments/{day.id}/registrations/{late['registration_id']}/check-in",
        json={"id_document_seen": True, "buy_in_paid_cents": 10000},
        headers=DIRECTOR,
    ).raise_for_status()
    before = events_of(client, day)

    url = f"/registrations/{late['registration_id']}/cancel-late-entry"
    cancelled = submit(client, day.id, url)
    assert cancelled.status_code == 303, cancelled.text
    after = client.get(cancelled.headers["location"]).text
    assert (
        flash_of(after)
        == "Die Anmeldung von Lena S. ist storniert: 100,00 € Startgeld zurückgeben."
    )
    assert events_of(client, day)[len(before) :] == ["RegistrationCancelled"]
    with pytest.raises(AssertionError, match="no row"):  # no longer a late entry to admit
        row_with(after, "data-registration-id", late["registration_id"], "late-entry")
    listed = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    assert (listed["status"], listed["refund_cents"]) == ("cancelled", 10000)
    assert client.get(day.url("/prizes")).json()["pot_cents"] == 4 * 8000
    seats = client.get(day.url("/seats")).json()
    assert (seats["taken"], seats["checked_in"]) == (4, 4)

    # the same form again: refused in words, nothing recorded
    again = submit(client, day.id, url)
    assert again.status_code == 409
    assert "data-error" in again.text
    assert events_of(client, day)[len(before) :] == ["RegistrationCancelled"]


def test_a_late_entry_who_never_came_is_cancelled_at_the_desk_without_a_refund_in_english(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    late, _ = register_lena_after_the_start(client, day)
    url = f"/registrations/{late['registration_id']}/cancel-late-entry?lang=en"
    cancelled = submit(client, day.id, url)
    assert cancelled.status_code == 303, cancelled.text
    after = client.get(cancelled.headers["location"]).text
    assert unescape(flash_of(after)) == "Lena S.'s registration is cancelled."
    listed = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    assert (listed["status"], listed["refund_cents"]) == ("cancelled", None)
    assert 'id="late-entries"' not in after
