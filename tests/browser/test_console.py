"""The director's console in headless Chromium: sign in, find a player by name, check everyone
in, start; the REST API agrees. Screenshots of each page are kept as test artefacts."""

from __future__ import annotations

from typing import Any, cast

import pytest

from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, register, schedule
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import to_the_next_page
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser
PLAYERS = 4


def check_in_row(browser: Any, registration_id: str) -> None:
    """Tick "ID seen", keep the prefilled buy-in, press the row's button (keyboard: Enter)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-registration-id="{registration_id}"]')
    form = row.find_element(By.CSS_SELECTOR, 'form[data-action="check-in"]')
    form.find_element(By.NAME, "id_document_seen").send_keys(Keys.SPACE)
    assert form.find_element(By.NAME, "buy_in_paid").get_attribute("value") == "100,00"
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    to_the_next_page(browser, lambda: button.send_keys(Keys.ENTER))


def test_a_director_signs_in_checks_everyone_in_and_starts_at_the_desk(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    tournament = schedule(client, capacity=PLAYERS, buy_in_cents=10000)
    registrations = [register(client, tournament["id"], n) for n in range(1, PLAYERS + 1)]
    advance_to(client, live_server.clock, CHECK_IN_OPENS)
    desk = f"{live_server.url}/director/tournaments/{tournament['id']}"

    # without a session the desk sends the director to the sign-in, and back after it
    browser.get(desk)
    assert browser.current_url.startswith(f"{live_server.url}/director/sign-in?next=")
    screenshot(browser, "console-sign-in")
    browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
    sign_in = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
    to_the_next_page(browser, sign_in.click)
    assert browser.current_url == desk
    assert "Frühlingsturnier 2026" in browser.find_element(By.TAG_NAME, "h1").text

    # a player found by name
    search = browser.find_element(By.NAME, "q")
    search.send_keys("Nachname3")
    to_the_next_page(browser, search.submit)
    rows = browser.find_elements(By.CSS_SELECTOR, "tr[data-registration-id]")
    assert [row.get_attribute("data-registration-id") for row in rows] == [
        registrations[2]["registration_id"]
    ]
    screenshot(browser, "console-desk-search")
    check_in_row(browser, registrations[2]["registration_id"])
    assert "ist eingecheckt." in browser.find_element(By.ID, "flash").text
    assert browser.find_element(By.NAME, "q").get_attribute("value") == "Nachname3"

    # everyone else from the whole list
    browser.get(desk)
    for registration in registrations[:2] + registrations[3:]:
        check_in_row(browser, registration["registration_id"])
    assert not browser.find_elements(By.CSS_SELECTOR, 'form[data-action="check-in"]')
    screenshot(browser, "console-desk-checked-in")

    start = browser.find_element(By.CSS_SELECTOR, 'form[data-action="start"] button')
    to_the_next_page(browser, start.click)
    assert "Das Turnier ist gestartet" in browser.find_element(By.ID, "flash").text
    screenshot(browser, "console-desk-started")

    # the REST API agrees
    seats = client.get(f"/api/v1/tournaments/{tournament['id']}/seats").json()
    assert seats["checked_in"] == PLAYERS
    shown = client.get(f"/api/v1/tournaments/{tournament['id']}").json()
    assert shown["status"] == "running"
    first_round = client.get(f"/api/v1/tournaments/{tournament['id']}/rounds/1").json()
    assert len(first_round["pairings"]) == PLAYERS // 2
    listed = client.get(
        f"/api/v1/tournaments/{tournament['id']}/registrations", headers=DIRECTOR
    ).json()
    assert {row["buy_in_paid_cents"] for row in listed} == {10000}

    # signing out ends the session
    sign_out = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-out"] button')
    to_the_next_page(browser, sign_out.click)
    browser.get(desk)
    assert browser.current_url.startswith(f"{live_server.url}/director/sign-in")


def test_a_director_registers_a_person_at_the_desk_by_keyboard(
    live_server: LiveServer, browser: Any
) -> None:
    # rule T-REG-1: the director's registration counts at once
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    client = cast(Any, live_server.http)
    tournament = schedule(client, capacity=PLAYERS)
    desk = f"{live_server.url}/director/tournaments/{tournament['id']}"
    browser.get(desk)
    browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
    sign_in = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
    to_the_next_page(browser, sign_in.click)
    form = browser.find_element(By.CSS_SELECTOR, 'form[data-action="register"]')
    for name, value in (
        ("first_name", "Anna"),
        ("last_name", "Muster"),
        ("email", "anna@example.org"),
        ("birth_date", "05.07.1985"),
    ):
        form.find_element(By.NAME, name).send_keys(value)
    birth_date = form.find_element(By.NAME, "birth_date")
    to_the_next_page(browser, lambda: birth_date.send_keys(Keys.ENTER))
    assert browser.find_element(By.ID, "flash").text == "Anna M. ist angemeldet."
    screenshot(browser, "console-desk-registered")
    listed = client.get(
        f"/api/v1/tournaments/{tournament['id']}/registrations", headers=DIRECTOR
    ).json()
    assert [(row["email"], row["status"]) for row in listed] == [("anna@example.org", "registered")]
    row = browser.find_element(By.CSS_SELECTOR, "tr[data-registration-id]")
    assert row.get_attribute("data-registration-id") == listed[0]["registration_id"]
