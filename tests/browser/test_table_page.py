"""The table page in headless Chromium: each player opens their personal link and presses its
button; one reports the result, the other confirms it; the REST API agrees. Screenshots of
each step are kept as test artefacts."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.api.test_tournament_day import start_tournament
from tests.browser.conftest import LiveServer, screenshot

pytestmark = pytest.mark.browser


def sign_in(browser: Any, server: LiveServer, token: str, lands_on: str) -> None:
    """A player's own phone: the personal link from the mail, then its button."""
    from selenium.webdriver.common.by import By

    browser.delete_all_cookies()
    browser.get(f"{server.url}/pages/players/sign-in?token={token}")
    button = browser.find_element(By.CSS_SELECTOR, 'form[data-action="player-sign-in"] button')
    button.click()
    arrive(browser, lands_on)


def arrive(browser: Any, url: str) -> None:
    """Wait for the navigation a click started (the click returns before it ends)."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(expected_conditions.url_to_be(url))


def status_of(browser: Any, expected: str) -> None:
    """The table's status, once the page (and a redraw of its live part) shows it."""
    from selenium.webdriver.support.ui import WebDriverWait

    def shown(session: Any) -> bool:
        found = session.execute_script(
            'const s = document.querySelector("[data-status]"); return s && s.dataset.status;'
        )
        return bool(found == expected)

    WebDriverWait(browser, 10).until(shown)


def test_one_player_reports_and_the_other_confirms_on_the_table_page(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 4)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    length = table["match_length"]
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"

    # the first player: the personal link leads to their table
    browser.get(f"{live_server.url}/pages/players/sign-in?token=" + "x" * 8)
    assert browser.find_elements(By.CSS_SELECTOR, "[data-error]")  # an unknown link says so
    sign_in(browser, live_server, day.players[table["player_a"]]["player_token"], page)
    screenshot(browser, "table-page-report")
    form = browser.find_element(By.CSS_SELECTOR, 'form[data-action="report"]')
    Select(form.find_element(By.NAME, "winner")).select_by_value(table["player_a"])
    form.find_element(By.NAME, "points_a").send_keys(str(length))
    form.find_element(By.NAME, "points_b").send_keys("1")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    status_of(browser, "awaiting_confirmation")
    assert f"{length}:1" in browser.find_element(By.TAG_NAME, "main").text

    # the opponent, on their own phone: the report waits for their confirmation
    sign_in(browser, live_server, day.players[table["player_b"]]["player_token"], page)
    confirm = browser.find_element(By.CSS_SELECTOR, 'form[data-action="confirm-report"]')
    assert f"{length}:1" in confirm.text
    screenshot(browser, "table-page-confirm")
    confirm.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    status_of(browser, "decided")
    assert not browser.find_elements(
        By.CSS_SELECTOR, 'form[data-action]:not([data-action="sign-out"])'
    )  # only the sign-out is left
    screenshot(browser, "table-page-decided")

    # the REST API agrees
    matches = client.get(f"/api/v1/tournaments/{day.id}/matches").json()
    decided = next(m for m in matches if m["match_id"] == table["match_id"])
    assert (decided["status"], decided["winner"]) == ("decided", table["player_a"])
    assert decided["score"] == {"a": length, "b": 1}
    assert decided["result_id"]
