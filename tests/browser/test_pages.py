"""Every public page in headless Chromium: what a person sees, with a screenshot of each
(rule P-PUB-1); a result reported through the API appears on the open standings page."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.api.test_bracket_page import play_to_the_end
from tests.api.test_calendar_feed import season
from tests.api.test_tournament_day import pair_next, report, start_tournament
from tests.api.test_tournaments import register, schedule
from tests.browser.conftest import LiveServer, screenshot
from tests.mailbox import confirmation_token

pytestmark = pytest.mark.browser
WAIT_SECONDS = 15


def text_of(browser: Any, selector: str) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.CSS_SELECTOR, selector).text)


def column(browser: Any, selector: str, index: int) -> list[str]:
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, f"{selector} tbody tr")
    return [row.find_elements(By.TAG_NAME, "td")[index].text for row in rows]


def wait_until(browser: Any, condition: Any) -> None:
    """Until ``condition()`` holds; a page that redraws a part while it is read (the wallboard
    swaps its board) makes the condition read again, not fail."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    waiting = WebDriverWait(
        browser, WAIT_SECONDS, ignored_exceptions=[StaleElementReferenceException]
    )
    waiting.until(lambda _: condition())


def to_the_next_page(browser: Any, act: Any) -> None:
    """Do ``act`` (a form sent) and wait until the browser shows the page it answered: a key
    press returns before the navigation, and the next lookup must not find the old page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page = browser.find_element(By.TAG_NAME, "html")
    act()
    waiting = WebDriverWait(browser, 20)
    waiting.until(lambda _: left(page))
    waiting.until(lambda b: b.execute_script("return document.readyState") == "complete")


def left(page: Any) -> bool:
    """Whether the browser has left ``page`` (its ``<html>`` element). Chromium asked in the
    midst of the navigation may answer that the node "does not belong to the document" instead
    of calling it stale: gone too."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    try:
        page.is_enabled()
    except StaleElementReferenceException:
        return True
    except WebDriverException as asked:
        if "does not belong to the document" in str(asked.msg):
            return True
        raise
    return False


def wait_until_live(browser: Any) -> None:
    """Until the page's live badge says its feed is connected."""
    wait_until(
        browser, lambda: "off" not in browser.find_element("id", "live").get_attribute("class")
    )


def to_the_finals(client: Any, server: LiveServer) -> tuple[Any, dict[str, Any]]:
    """Four players, one Swiss round and the semi-finals played: the day, and its finals paired."""
    day = start_tournament(client, server.clock, 4, swiss_rounds=1)
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    semis = pair_next(client, day)
    for table in semis["pairings"]:
        report(client, day, table)
    return day, pair_next(client, day)


def test_the_season_page_shows_each_tournament_with_its_free_seats(
    live_server: LiveServer, browser: Any
) -> None:
    client = cast(Any, live_server.http)
    season_id = season(client)
    spring = schedule(client, season_id=season_id)
    register(client, spring["id"], 1)
    browser.get(f"{live_server.url}/pages/seasons/{season_id}")
    assert "Frühlingsturnier 2026" in text_of(browser, "#calendar")
    assert text_of(browser, "#calendar td.seats") == "19 von 20 Plätzen frei"
    screenshot(browser, "season")


def test_a_person_registers_on_the_tournament_page_and_the_seats_follow_without_reload(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    tournament = schedule(client)
    browser.get(f"{live_server.url}/pages/tournaments/{tournament['id']}")
    assert text_of(browser, "#seats") == "20 von 20 Plätzen frei"
    assert "Do, 16.04.2026, 18:00 Uhr" in text_of(browser, "#deadlines")
    form = browser.find_element(By.ID, "register")
    for name, value in {
        "first_name": "Anna",
        "last_name": "Muster",
        "email": "anna@example.org",
    }.items():
        form.find_element(By.NAME, name).send_keys(value)
    # a date input takes the digits in the browser's order (en-US: month, day, year)
    browser.execute_script("document.querySelector('[name=birth_date]').value = '1985-07-05'")
    form.find_element(By.TAG_NAME, "button").click()
    # rule P-MAIL-1: the form asks; the seat waits for the link in the mail
    wait_until(browser, lambda: text_of(browser, "#answer").startswith("Fast geschafft"))
    assert "E-Mail" in text_of(browser, "#answer")
    assert text_of(browser, "#seats") == "20 von 20 Plätzen frei"
    screenshot(browser, "registration-asked")
    token = confirmation_token(live_server.app, "anna@example.org")
    browser.get(f"{live_server.url}/pages/registrations/confirm?token={token}")
    english = browser.find_element(By.CSS_SELECTOR, "footer a").get_attribute("href")
    assert token in english  # the other language keeps the link's token
    assert "lang=en" in english
    browser.find_element(By.CSS_SELECTOR, "#action button").click()
    wait_until(browser, lambda: text_of(browser, "#answer").startswith("Bestätigt"))
    screenshot(browser, "registration-confirmed")
    browser.get(f"{live_server.url}/pages/tournaments/{tournament['id']}")
    assert text_of(browser, "#seats") == "19 von 20 Plätzen frei"
    wait_until_live(browser)  # the feed tells only what happens after the page listens
    register(client, tournament["id"], 2)  # someone else, elsewhere
    wait_until(browser, lambda: text_of(browser, "#seats") == "18 von 20 Plätzen frei")
    screenshot(browser, "tournament")


def test_the_confirmation_deadline_is_told_in_the_clubs_time_whatever_the_browsers_zone(
    live_server: LiveServer, browser: Any
) -> None:
    # rule CAL-3: deadlines are wall-clock times in the club's time zone; the mail says
    # "bis 02.03.2026, 10:00 Uhr" (24 hours after 09:00 UTC, CET), the page must say the same
    # to a visitor whose device runs on another zone (here New York, 04:00)
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    tournament = schedule(client)
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    browser.get(f"{live_server.url}/pages/tournaments/{tournament['id']}")
    form = browser.find_element(By.ID, "register")
    for name, value in {"first_name": "Ida", "last_name": "Muster"}.items():
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.NAME, "email").send_keys("ida@example.org")
    browser.execute_script("document.querySelector('[name=birth_date]').value = '1985-07-05'")
    form.find_element(By.TAG_NAME, "button").click()
    wait_until(browser, lambda: text_of(browser, "#answer").startswith("Fast geschafft"))
    assert "bis 02.03.2026, 10:00" in text_of(browser, "#answer")
    screenshot(browser, "registration-asked-far-away")


def test_a_reported_result_appears_on_the_open_standings_page_without_reload(
    live_server: LiveServer, browser: Any
) -> None:
    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 6)
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/standings")
    wait_until_live(browser)
    tables = [t for t in day.rounds[0]["pairings"] if t["player_b"]]
    assert column(browser, "#pairings", 2) == ["0:0"] * len(tables)
    browser.execute_script("window.notReloaded = true")
    answer = report(client, day, tables[0])
    score = f"{answer['points_a']}:{answer['points_b']}"
    wait_until(browser, lambda: column(browser, "#pairings", 2)[0] == score)
    rows = client.get(day.url("/standings")).json()
    expected = [row["display_name"] for row in rows]
    wait_until(browser, lambda: column(browser, "#standings", 1) == expected)
    assert browser.execute_script("return window.notReloaded") is True
    # the rows drawn from the feed keep each name's link to the head-to-head (issue 22)
    links = browser.execute_script(
        "return [...document.querySelectorAll('#standings tbody a')]"
        ".map(a => a.getAttribute('href'))"
    )
    assert links == [f"/pages/players/{row['player_id']}/head-to-head?lang=de" for row in rows]
    screenshot(browser, "standings")


def test_the_open_standings_page_shows_the_final_places_when_the_last_result_comes(
    live_server: LiveServer, browser: Any
) -> None:
    # rule T-FMT-4: the places come from the knockout; the page draws them once it is over
    client = cast(Any, live_server.http)
    day, finals = to_the_finals(client, live_server)
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/standings")
    wait_until_live(browser)
    assert browser.find_elements("id", "places") == []
    for table in finals["pairings"]:
        report(client, day, table)
    places = [row["display_name"] for row in client.get(day.url("/places")).json()]
    wait_until(browser, lambda: column(browser, "#places", 1) == places)


def test_the_bracket_page_shows_semi_finals_final_and_third_place(
    live_server: LiveServer, browser: Any
) -> None:
    client = cast(Any, live_server.http)
    day, finals = to_the_finals(client, live_server)
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/bracket")
    headings = [h.text for h in browser.find_elements("css selector", "#bracket h2")]
    assert headings == ["Halbfinale", "Halbfinale", "Finale", "Spiel um Platz 3"]
    final = finals["pairings"][0]
    final_text = text_of(browser, "section.final")
    assert final["player_a_name"] in final_text
    assert final["player_b_name"] in final_text
    assert len(browser.find_elements("css selector", "section.semi_final .winner")) == 2
    screenshot(browser, "bracket")


def test_the_bracket_page_draws_an_eliminations_main_and_consolation_brackets(
    live_server: LiveServer, browser: Any
) -> None:
    # rules T-FMT-12, T-FMT-13: ten players, six byes, a progressive consolation, played out
    client = cast(Any, live_server.http)
    day = start_tournament(
        client, live_server.clock, 10, format="elimination", consolation="progressive"
    )
    play_to_the_end(client, day)
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/bracket?lang=en")
    main = [h.text for h in browser.find_elements("css selector", "#main-bracket h3")]
    assert main == ["Round 1", "Round 2", "Semi-final", "Final", "Third place"]
    side = [h.text for h in browser.find_elements("css selector", "#consolation-bracket h3")]
    assert side == ["Round 1", "Round 2", "Round 3", "Final"]
    assert len(browser.find_elements("css selector", "#main-bracket .match.bye")) == 6
    places = client.get(day.url("/places")).json()
    assert places[0]["display_name"] in text_of(browser, "#main-bracket .match.final .winner")
    champion = next(p["display_name"] for p in places if p["consolation_place"] == 1)
    side_final = browser.find_elements("css selector", "#consolation-bracket .bracket-round")[-1]
    assert champion in side_final.find_element("css selector", ".winner").text
    # the rounds stand side by side, each to the right of the one before
    columns = browser.find_elements("css selector", "#main-bracket .bracket-round")
    lefts = [column.location["x"] for column in columns]
    assert lefts == sorted(lefts)
    assert len(set(lefts)) == len(lefts)
    screenshot(browser, "bracket_elimination")


def test_the_ranking_page_shows_its_placeholder_in_english(
    live_server: LiveServer, browser: Any
) -> None:
    client = cast(Any, live_server.http)
    season_id = season(client)
    browser.get(f"{live_server.url}/pages/seasons/{season_id}/ranking?lang=en")
    assert "first tournament brings results" in text_of(browser, "#ranking-placeholder")
    screenshot(browser, "ranking")


def test_the_cancellation_links_page_names_its_token_in_no_referer(
    live_server: LiveServer, browser: Any
) -> None:
    # API.md "Sessions": the cancellation link carries the player token; the page it opens
    # sends no Referer with it, here to the other language's page that its footer links
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    tournament = schedule(client)["id"]
    registered = register(client, tournament, 1)
    token = registered["player_token"]
    link = (
        f"{live_server.url}/pages/registrations/cancel?tournament={tournament}"
        f"&registration={registered['registration_id']}&token={token}"
    )
    browser.get(link)
    browser.find_element(By.CSS_SELECTOR, "footer a").click()
    wait_until(browser, lambda: "lang=en" in browser.current_url)
    assert text_of(browser, "h1") == "Cancel"
    assert browser.execute_script("return document.referrer") == ""
    screenshot(browser, "registration-cancel-en")
