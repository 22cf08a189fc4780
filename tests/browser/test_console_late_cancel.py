"""A late registration checked in at the entrance but never admitted is cancelled at the desk
in headless Chromium (rule T-CANCEL-1): the late-entry row's cancel form records the
cancellation, the message names the buy-in to hand back (rules T-CHECKIN-1, T-BUYIN-1) and the
row leaves the late entries. Screenshots go to tests/artefacts/ (``late-cancel-*.png``)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, person, register, schedule
from tests.browser.conftest import LiveServer
from tests.browser.test_console_day import sign_in
from tests.browser.test_pages import text_of, to_the_next_page
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser
PLAYERS = 4


def test_a_late_entry_never_admitted_is_cancelled_at_the_desk_and_its_buy_in_handed_back(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    tournament = schedule(client, capacity=PLAYERS, buy_in_cents=10000)
    url = f"/api/v1/tournaments/{tournament['id']}"
    registrations = [register(client, tournament["id"], n) for n in range(1, PLAYERS + 1)]
    advance_to(client, live_server.clock, CHECK_IN_OPENS)
    check_in = {"id_document_seen": True, "buy_in_paid_cents": 10000}
    for registration in registrations:
        client.post(
            f"{url}/registrations/{registration['registration_id']}/check-in",
            json=check_in,
            headers=DIRECTOR,
        ).raise_for_status()
    client.post(f"{url}/start", headers=DIRECTOR).raise_for_status()
    late = client.post(
        f"{url}/registrations",
        json=person(PLAYERS + 1, first_name="Lena", last_name="Spät"),
        headers=DIRECTOR,
    ).json()
    client.post(
        f"{url}/registrations/{late['registration_id']}/check-in", json=check_in, headers=DIRECTOR
    ).raise_for_status()
    desk = sign_in(live_server, browser, tournament["name"])
    row = f'#late-entries tr[data-registration-id="{late["registration_id"]}"]'

    form = desk.find(f'{row} form[data-action="cancel-late-entry"]')
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    assert button.text == "Anmeldung stornieren"
    desk.screenshot("late-cancel-offered", "late-entries-section")
    to_the_next_page(browser, button.click)
    assert text_of(browser, "#flash") == (
        "Die Anmeldung von Lena S. ist storniert: 100,00 € Startgeld zurückgeben."
    )
    assert not desk.finds(row)
    assert not desk.finds(f'#players tr[data-player-id="{late["player_id"]}"]')
    desk.screenshot("late-cancel-refunded", "flash")
    listed = client.get(f"{url}/registrations", headers=DIRECTOR).json()
    lena = next(r for r in listed if r["registration_id"] == late["registration_id"])
    assert (lena["status"], lena["refund_cents"]) == ("cancelled", 10000)
    assert client.get(f"{url}/prizes").json()["pot_cents"] == PLAYERS * 8000
