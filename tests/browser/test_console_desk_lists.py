"""The desk lists a late registration to a full tournament once, among the late entries (rule
T-REG-3: the waitlist promotes only until the start), and once it is cancelled after its
check-in the registrations table names the buy-in handed back (rules T-CANCEL-1, T-BUYIN-1), in
headless Chromium. Screenshots go to tests/artefacts/ (``desk-lists-*.png``)."""

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


def test_a_late_registration_to_a_full_tournament_is_one_late_entry_and_its_refund_is_shown(
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
    assert late["status"] == "waitlisted"
    client.post(
        f"{url}/registrations/{late['registration_id']}/check-in", json=check_in, headers=DIRECTOR
    ).raise_for_status()
    desk = sign_in(live_server, browser, tournament["name"])
    marker = f'[data-registration-id="{late["registration_id"]}"]'

    assert not desk.finds(f"#waitlist li{marker}")
    form = desk.find(f'#late-entries tr{marker} form[data-action="cancel-late-entry"]')
    desk.screenshot("desk-lists-late-entry-once", "waitlist-section")
    to_the_next_page(browser, form.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
    assert text_of(browser, f"#registrations tr{marker} .refund") == (
        "storniert: 100,00 € Startgeld zurückgegeben"
    )
    desk.screenshot("desk-lists-refund-shown", "registrations")
