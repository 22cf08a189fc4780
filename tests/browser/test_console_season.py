"""The director's season page in headless Chromium: from the console to the season, a ban through
its form, a director appointed over REST listed and revoked on the page (no form appoints: no page
shows a token, API.md "Sessions"); the REST API agrees. Screenshots are kept as test artefacts."""

from __future__ import annotations

from typing import Any, cast

import pytest

from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_directors import appoint
from tests.api.test_tournaments import person, register, schedule
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import to_the_next_page
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser


def test_a_director_bans_a_player_and_revokes_a_director_on_the_season_page(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    client = cast(Any, live_server.http)
    # a season of its own, years away: the shared server's other tournaments stay outside it
    season = client.post(
        "/api/v1/seasons",
        json={"name": "Saison 2031", "starts_on": "2031-01-01", "ends_on": "2031-12-31"},
        headers=DIRECTOR,
    ).json()
    tournament = schedule(client, name="Maiturnier 2031", date="2031-05-10")
    offender = register(client, tournament["id"], 7)
    erika = appoint(client, "Erika Mustermann", tournament_id=tournament["id"])

    browser.get(f"{live_server.url}/director")
    if "/director/sign-in" in browser.current_url:
        browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
        button = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
        to_the_next_page(browser, button.click)
    link = browser.find_element(By.CSS_SELECTOR, f'li[data-season-id="{season["id"]}"] a')
    to_the_next_page(browser, link.click)
    assert "Saison 2031" in browser.find_element(By.TAG_NAME, "h1").text
    assert (
        browser.find_element(By.CSS_SELECTOR, f'tr[data-tournament-id="{tournament["id"]}"] a')
        .get_attribute("href")
        .endswith(f"/director/tournaments/{tournament['id']}")
    )
    screenshot(browser, "console-season")

    ban = browser.find_element(By.CSS_SELECTOR, 'form[data-action="ban"]')
    Select(ban.find_element(By.NAME, "player_id")).select_by_value(offender["player_id"])
    ban.find_element(By.NAME, "reason").send_keys("wiederholte Beleidigungen")
    to_the_next_page(browser, ban.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
    assert "Die Sperre ist eingetragen." in browser.find_element(By.ID, "flash").text
    assert browser.find_elements(
        By.CSS_SELECTOR, f'#bans tr[data-player-id="{offender["player_id"]}"]'
    )

    # rule C-DIR-1: a director appointed over REST is listed and revoked here; nothing appoints
    assert not browser.find_elements(By.CSS_SELECTOR, 'form[data-action="appoint-director"]')
    assert "POST /api/v1/directors" in browser.find_element(By.ID, "appoint-over-rest").text
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-director-id="{erika["director_id"]}"]')
    revoke = row.find_element(By.CSS_SELECTOR, 'form[data-action="revoke-director"] button')
    to_the_next_page(browser, revoke.click)
    assert "Erika Mustermann ist widerrufen" in browser.find_element(By.ID, "flash").text
    screenshot(browser, "console-season-revoked")

    # the REST API agrees: the ban refuses a registration, the revoked token acts no more
    refused = client.post(
        f"/api/v1/tournaments/{tournament['id']}/registrations",
        json=person(7),
        headers=DIRECTOR,
    )
    assert refused.status_code == 403, refused.text
    gone = client.get(
        f"/api/v1/tournaments/{tournament['id']}/registrations",
        headers={"Authorization": f"Bearer {erika['token']}"},
    )
    assert gone.status_code == 401
