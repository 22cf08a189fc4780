"""The director's round page in headless Chromium: every result of round 1 entered by
keyboard, a refusal in words, the next round paired; the REST API agrees. Screenshots of the
page are kept as test artefacts."""

from __future__ import annotations

from typing import Any, cast

import pytest

from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_tournament_day import start_tournament
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import to_the_next_page
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser
PLAYERS = 6


def enter_result(browser: Any, table: dict[str, Any]) -> None:
    """Player a wins by the match length, b scores 1: chosen and typed, sent with Enter."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-match-id="{table["match_id"]}"]')
    form = row.find_element(By.CSS_SELECTOR, 'form[data-action="result"]')
    Select(form.find_element(By.NAME, "winner")).select_by_value(table["player_a"])
    form.find_element(By.NAME, "points_a").send_keys(str(table["match_length"]))
    form.find_element(By.NAME, "points_b").send_keys("1")
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    to_the_next_page(browser, lambda: button.send_keys(Keys.ENTER))


def flash(browser: Any) -> str:
    """The message the page shows after an action, once the answer has loaded."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    found = WebDriverWait(browser, 10).until(lambda b: b.find_elements(By.ID, "flash"))
    return str(found[0].text)


def test_a_director_enters_a_rounds_results_and_pairs_the_next_round(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, PLAYERS)
    first = [t for t in day.rounds[0]["pairings"] if t["player_b"]]
    desk = f"{live_server.url}/director/tournaments/{day.id}"
    round_one = f"{desk}/rounds/1"

    browser.get(round_one)
    browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
    sign_in = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
    to_the_next_page(browser, sign_in.click)
    assert browser.current_url == round_one
    screenshot(browser, "console-round-1")

    # pairing before the results are in is refused, in the page's words (German here)
    browser.find_element(By.CSS_SELECTOR, 'form[data-action="pair-next-round"] button').click()
    refusal = (
        WebDriverWait(browser, 10)
        .until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-error]"))[0]
        .text
    )
    detail = client.post(day.url("/rounds"), headers=DIRECTOR).json()["detail"]
    assert detail.startswith("round 1 still needs the results of table(s) ")
    assert refusal == "Runde 1 braucht noch die Ergebnisse von Tisch {}.".format(
        detail.removeprefix("round 1 still needs the results of table(s) ")
    )
    assert client.get(day.url("/rounds/2")).status_code == 404

    for table in first:
        browser.get(round_one)
        enter_result(browser, table)
        assert f"Tisch {table['table']} ist eingetragen" in flash(browser)
    screenshot(browser, "console-round-1-results")
    matches = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    for table in first:
        shown = matches[table["match_id"]]
        assert (shown["status"], shown["winner"]) == ("decided", table["player_a"])
        assert shown["score"] == {"a": table["match_length"], "b": 1}

    pair = browser.find_element(By.CSS_SELECTOR, 'form[data-action="pair-next-round"] button')
    to_the_next_page(browser, pair.click)
    assert "Runde 2 ist ausgelost." in flash(browser)
    assert browser.current_url == f"{desk}/rounds/2?done=pair"
    screenshot(browser, "console-round-2")
    paired = client.get(day.url("/rounds/2")).json()
    rows = browser.find_elements(By.CSS_SELECTOR, "tr[data-table]")
    assert [(r.get_attribute("data-table"), r.get_attribute("data-match-id")) for r in rows] == [
        (str(t["table"]), t["match_id"] or "") for t in paired["pairings"]
    ]


def test_a_director_reads_the_knockouts_lengths_and_corrects_a_result_with_a_long_reason(
    live_server: LiveServer, browser: Any
) -> None:
    """The round page of a Swiss with a knockout of its own lengths says them (rule T-FMT-8);
    a correction's reason typed past 500 characters stops at 500 in its field (the REST
    ``reason``'s bound, API.md "Pages for people", Forms: the server refuses a longer one) and
    the correction is stored with it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    client = cast(Any, live_server.http)
    lengths = {"semi_final": 9, "final": 11, "third_place": 5}
    day = start_tournament(client, live_server.clock, 4, match_lengths=lengths)
    first = [t for t in day.rounds[0]["pairings"] if t["player_b"]]
    round_one = f"{live_server.url}/director/tournaments/{day.id}/rounds/1"

    browser.get(round_one)
    browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
    sign_in = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
    to_the_next_page(browser, sign_in.click)
    line = browser.find_element(By.CSS_SELECTOR, '#format-terms [data-term="match_length"]')
    assert line.text == (
        "Matchlänge: 7 Punkte; Halbfinale: 9 Punkte; Finale: 11 Punkte; Spiel um Platz 3: 5 Punkte"
    )
    screenshot(browser, "console-round-knockout-lengths")

    table = first[0]
    enter_result(browser, table)
    assert f"Tisch {table['table']} ist eingetragen" in flash(browser)
    browser.get(round_one)
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-match-id="{table["match_id"]}"]')
    form = row.find_element(By.CSS_SELECTOR, 'form[data-action="result"]')
    Select(form.find_element(By.NAME, "winner")).select_by_value(table["player_b"])
    for name, points in (("points_a", "1"), ("points_b", str(table["match_length"]))):
        form.find_element(By.NAME, name).clear()
        form.find_element(By.NAME, name).send_keys(points)
    reason = form.find_element(By.NAME, "reason")
    reason.send_keys("Zettel vertauscht " * 40)  # 680 characters typed
    typed = reason.get_attribute("value")
    assert typed == ("Zettel vertauscht " * 40)[:500]
    screenshot(browser, "console-round-long-reason")
    to_the_next_page(browser, form.find_element(By.CSS_SELECTOR, "button[type=submit]").click)
    assert f"Tisch {table['table']}" in flash(browser)

    shown = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    assert shown[table["match_id"]]["winner"] == table["player_b"]
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    corrections = [
        e["data"] for e in stream if e["type"] == "ResultRecorded" and e["data"]["corrects"]
    ]
    assert [each["reason"] for each in corrections] == [typed]
