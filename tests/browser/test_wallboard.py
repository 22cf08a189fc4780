"""The wallboard in headless Chromium: a result entered over REST appears on the open board
within seconds, without a reload (rule P-PUB-1), with a screenshot of the big screen."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.api.test_tournament_day import pair_next, report, start_tournament
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import column, text_of, wait_until, wait_until_live

pytestmark = pytest.mark.browser


def score_of(browser: Any, match_id: str) -> str:
    from selenium.webdriver.common.by import By

    row = browser.find_element(By.CSS_SELECTOR, f'#tables tr[data-match-id="{match_id}"]')
    return str(row.find_element(By.CSS_SELECTOR, ".score").text)


def test_a_result_entered_over_rest_appears_on_the_open_wallboard_without_reload(
    live_server: LiveServer, browser: Any
) -> None:
    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 8)
    tables = day.rounds[0]["pairings"]
    browser.set_window_size(1920, 1080)  # the venue's screen
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/wallboard")
    wait_until_live(browser)
    # the board redraws itself when its feed connects: every read below waits out a redraw
    wait_until(browser, lambda: text_of(browser, "#round") == "Runde 1")
    everyone = [str(t["table"]) for t in tables]
    wait_until(browser, lambda: text_of(browser, "#to-report").split(" · ") == everyone)
    played = tables[0]
    wait_until(browser, lambda: score_of(browser, played["match_id"]).startswith("0 : 0"))
    browser.execute_script("window.notReloaded = true")

    answer = report(client, day, played)

    score = f"{answer['points_a']} : {answer['points_b']}"
    wait_until(browser, lambda: score_of(browser, played["match_id"]).startswith(score))
    still = [str(t["table"]) for t in tables[1:]]
    wait_until(browser, lambda: text_of(browser, "#to-report").split(" · ") == still)
    expected = [row["display_name"] for row in client.get(day.url("/standings")).json()]
    wait_until(browser, lambda: column(browser, "#standings", 1) == expected)
    assert browser.execute_script("return window.notReloaded") is True
    screenshot(browser, "wallboard")

    # the next round, paired over REST, replaces the board's tables and restarts its timer
    for table in tables[1:]:
        report(client, day, table)
    wait_until(browser, lambda: text_of(browser, "#to-report") == "Alle Ergebnisse sind da.")
    second = pair_next(client, day)
    wait_until(browser, lambda: text_of(browser, "#round") == "Runde 2")
    paired = [t["match_id"] for t in second["pairings"]]
    wait_until(
        browser,
        lambda: (
            [
                row.get_attribute("data-match-id")
                for row in browser.find_elements("css selector", "#tables tbody tr")
            ]
            == paired
        ),
    )
    wait_until(browser, lambda: text_of(browser, "#timer").startswith("00:0"))
    assert browser.execute_script("return window.notReloaded") is True
