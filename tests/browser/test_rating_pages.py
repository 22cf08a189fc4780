"""The rating list and a player's page in headless Chromium, with a screenshot of each: the
list reached from the season ranking, a player's history with the chart the service drew
(rule R-RATE-1, API.md "Ratings")."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import column, text_of, to_the_next_page
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser

HISTORY = [
    ("2025-01-10", "Anna Maier", "Bert Huber", 5),
    ("2025-02-14", "Carla Roth", "Anna Maier", 3),
    ("2025-03-21", "Anna Maier", "Dora Berg", 7),
    ("2025-04-11", "Bert Huber", "Carla Roth", 1),
    ("2025-05-09", "Anna Maier", "Carla Roth", 5),
]


def test_the_list_leads_to_a_player_page_with_the_chart(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    body = {
        "matches": [{"date": d, "winner": w, "loser": x, "length": n} for d, w, x, n in HISTORY]
    }
    answer = live_server.http.post("/api/v1/ratings/imports", json=body, headers=DIRECTOR)
    assert answer.status_code == 201, answer.text
    season = live_server.http.post(
        "/api/v1/seasons",
        json={"name": "Saison 2026", "starts_on": "2026-03-01", "ends_on": "2027-02-28"},
        headers=DIRECTOR,
    ).json()

    browser.get(f"{live_server.url}/pages/seasons/{season['id']}/ranking")
    to_the_next_page(browser, lambda: browser.find_element(By.ID, "ratings-link").click())
    assert text_of(browser, "h1") == "Vereinswertung (Rating)"
    assert column(browser, "#ratings", 1)[0] == "Anna Maier"
    screenshot(browser, "ratings-list")

    to_the_next_page(browser, lambda: browser.find_element(By.LINK_TEXT, "Anna Maier").click())
    assert text_of(browser, "h1").startswith("Anna Maier: ")
    assert len(column(browser, "#history", 0)) == 4  # her four rated matches, oldest first
    chart = browser.find_element(By.CSS_SELECTOR, "#rating-chart svg")
    assert chart.size["width"] > 200
    screenshot(browser, "ratings-player")
