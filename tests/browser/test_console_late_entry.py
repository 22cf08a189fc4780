"""A late entry arrives at the desk in headless Chromium (API.md "Pages for people"): the
late entry's form asks for the ID document seen and the buy-in paid like the check-in form,
refuses without the ID box ticked (nothing recorded) and, with it, checks the player in and
admits them in one step (rules T-CHECKIN-1, T-BUYIN-1). Screenshots go to tests/artefacts/
(``late-entry-*.png``)."""

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


def test_a_late_entry_is_checked_in_and_admitted_with_the_id_box_ticked_at_the_desk(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    client = cast(Any, live_server.http)
    tournament = schedule(client, capacity=PLAYERS, buy_in_cents=10000)
    url = f"/api/v1/tournaments/{tournament['id']}"
    registrations = [register(client, tournament["id"], n) for n in range(1, PLAYERS + 1)]
    advance_to(client, live_server.clock, CHECK_IN_OPENS)
    for registration in registrations:  # at the entrance, over REST
        client.post(
            f"{url}/registrations/{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        ).raise_for_status()
    client.post(f"{url}/start", headers=DIRECTOR).raise_for_status()
    late = client.post(
        f"{url}/registrations",
        json=person(PLAYERS + 1, first_name="Lena", last_name="Spät"),
        headers=DIRECTOR,
    ).json()
    desk = sign_in(live_server, browser, tournament["name"])
    row = f'#late-entries tr[data-registration-id="{late["registration_id"]}"]'

    def late_entry_form() -> Any:
        return desk.find(f'{row} form[data-action="late-entry"]')

    def lenas_registration() -> dict[str, Any]:
        listed = client.get(f"{url}/registrations", headers=DIRECTOR).json()
        return next(r for r in listed if r["registration_id"] == late["registration_id"])

    # the buy-in prefilled as on the check-in form; sent without the ID box: refused beside it
    form = late_entry_form()
    assert form.find_element(By.NAME, "buy_in_paid").get_attribute("value") == "100,00"
    assert not form.find_element(By.NAME, "id_document_seen").is_selected()
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    to_the_next_page(browser, button.click)
    assert "Bitte den Ausweis ansehen: ohne gültigen Ausweis" in text_of(browser, row)
    desk.screenshot("late-entry-refused", "late-entries-section")
    refused = lenas_registration()
    assert (refused["status"], refused["checked_in_at"]) == ("waitlisted", None)

    # the ID box ticked (keyboard: space), the buy-in kept: checked in and admitted at once
    form = late_entry_form()
    assert form.find_element(By.NAME, "buy_in_paid").get_attribute("value") == "100,00"
    form.find_element(By.NAME, "id_document_seen").send_keys(Keys.SPACE)
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    to_the_next_page(browser, lambda: button.send_keys(Keys.ENTER))
    assert text_of(browser, "#flash") == "Lena S. spielt ab der nächsten Runde mit."
    assert not desk.finds(row)
    assert desk.finds(f'#players tr[data-player-id="{late["player_id"]}"]')
    desk.screenshot("late-entry-admitted", "players-section")
    admitted = lenas_registration()
    assert (admitted["status"], admitted["buy_in_paid_cents"]) == ("checked_in", 10000)
    assert admitted["checked_in_at"] is not None
    assert client.get(f"{url}/prizes").json()["pot_cents"] == (PLAYERS + 1) * 8000


def test_a_late_entry_checked_in_at_the_entrance_is_admitted_at_the_desk_with_one_click(
    live_server: LiveServer, browser: Any
) -> None:
    # rule T-CHECKIN-1: checked in over REST on arrival (ID document seen, buy-in paid), the
    # late entry waits under the late entries, not among the players, until it is admitted
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
    player = f'#players tr[data-player-id="{late["player_id"]}"]'

    assert not desk.finds(player)
    form = desk.find(f'{row} form[data-action="late-entry"]')
    assert not form.find_elements(By.NAME, "id_document_seen")  # its proof is recorded
    desk.screenshot("late-entry-checked-in-waiting", "late-entries-section")
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    to_the_next_page(browser, button.click)
    assert text_of(browser, "#flash") == "Lena S. spielt ab der nächsten Runde mit."
    assert not desk.finds(row)
    assert desk.finds(player)
    assert client.get(f"{url}/prizes").json()["pot_cents"] == (PLAYERS + 1) * 8000
