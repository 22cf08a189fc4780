"""What a club day's pages say, in headless Chromium (a German browser): the round page shows
an open match's score as the wallboard does, penalty points included, and a refused result in
German; the table page shows a report with the winner's points first and a refused report in
German; the desk's English print links lead to English printouts. Screenshots are kept as
test artefacts."""

from __future__ import annotations

from typing import Any, cast

import pytest

from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_round_page_live_score import penalise, play_a_game
from tests.api.test_tournament_day import start_tournament
from tests.api.test_venue import player_report
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import text_of, to_the_next_page
from tests.browser.test_table_page import sign_in

pytestmark = pytest.mark.browser


def director_signs_in(browser: Any, url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(url)
    browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
    button = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
    to_the_next_page(browser, button.click)
    assert browser.current_url == url


def test_the_round_page_shows_live_scores_winner_first_reports_and_german_refusals(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 6)
    in_play, disputed, entered = (t for t in day.rounds[0]["pairings"] if t["player_b"])
    length = in_play["match_length"]
    penalise(client, day, in_play, 2)  # rule C-BREAK-2: two points to player b
    play_a_game(client, day, in_play)  # player a wins a single game
    a, b = disputed["player_a"], disputed["player_b"]
    assert player_report(client, day, a, disputed, winner=a, loser_points=2).status_code == 202
    assert player_report(client, day, b, disputed, winner=b, loser_points=4).status_code == 202
    round_one = f"{live_server.url}/director/tournaments/{day.id}/rounds/1"
    director_signs_in(browser, round_one)

    row = f'tr[data-match-id="{in_play["match_id"]}"]'
    assert text_of(browser, f"{row} .live-score") == "1:2"
    wallboard = client.get(f"/pages/tournaments/{day.id}/wallboard").text
    assert '<td class="score">1 : 2 ' in wallboard
    reports = browser.find_elements(
        By.CSS_SELECTOR, f'tr[data-match-id="{disputed["match_id"]}"] .report'
    )
    assert [r.get_attribute("data-reported-by") for r in reports] == [a, b]
    assert f"gewinnt {length}:2" in reports[0].text
    assert f"gewinnt {length}:4" in reports[1].text  # the winner's points first

    # a result short of the match length (rule T-FMT-7): refused in German beside its field
    form = browser.find_element(
        By.CSS_SELECTOR, f'tr[data-match-id="{entered["match_id"]}"] form[data-action="result"]'
    )
    Select(form.find_element(By.NAME, "winner")).select_by_value(entered["player_a"])
    form.find_element(By.NAME, "points_a").send_keys("3")
    form.find_element(By.NAME, "points_b").send_keys("1")
    button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
    to_the_next_page(browser, button.click)
    refusal = text_of(browser, f'tr[data-match-id="{entered["match_id"]}"] [data-error]')
    assert refusal == f"Der Sieger eines Matches auf {length} Punkte hat mindestens {length}."
    screenshot(browser, "round-page-live-score-and-german-refusal")


def test_the_table_page_shows_a_report_winner_first_and_refuses_in_german(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 4)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    length = table["match_length"]
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"
    sign_in(browser, live_server, day.players[table["player_b"]]["player_token"], page)

    def report(points_a: str, points_b: str) -> None:
        form = browser.find_element(By.CSS_SELECTOR, 'form[data-action="report"]')
        Select(form.find_element(By.NAME, "winner")).select_by_value(table["player_b"])
        for name, points in (("points_a", points_a), ("points_b", points_b)):
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(points)
        button = form.find_element(By.CSS_SELECTOR, "button[type=submit]")
        to_the_next_page(browser, button.click)

    # player b won, but typed too few points: refused in German, as typed
    report("4", "3")
    assert text_of(browser, "[data-error]") == (
        f"Der Sieger eines Matches auf {length} Punkte hat mindestens {length}."
    )
    screenshot(browser, "table-page-refused-in-german")
    report("4", str(length))
    main = text_of(browser, "main")
    assert f"gewinnt {length}:4." in main
    assert f"gewinnt 4:{length}" not in main
    screenshot(browser, "table-page-report-winner-first")


def test_the_english_desks_print_links_lead_to_english_printouts(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 7)
    desk = f"{live_server.url}/director/tournaments/{day.id}"
    director_signs_in(browser, desk)
    browser.get(f"{desk}?lang=en")
    link = browser.find_element(By.CSS_SELECTOR, 'a[href*="/print/slips"]')
    to_the_next_page(browser, link.click)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    body = text_of(browser, "body")
    assert "Result slips round 1" in body
    assert "Signature" in body
    assert "Unterschrift" not in body
    screenshot(browser, "print-slips-en")
    # the same printout in a German browser without ?lang: German
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/print/slips")
    assert "Ergebniszettel Runde 1" in text_of(browser, "body")
    screenshot(browser, "print-slips-de")
