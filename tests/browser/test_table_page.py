"""The table page in headless Chromium: each player opens their personal link and presses its
button; one reports the result, the other confirms it; the REST API agrees. The two players
of a 3-point match play it move by move there. Screenshots of each step are kept as test
artefacts."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import pytest

from tests.api.test_tournament_day import start_tournament
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import left, to_the_next_page, wait_until, wait_until_live

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


def play_form(browser: Any, action: str, side: str, value: str | None = None) -> Any:
    """The side's form for ``action`` as the page shows it now (``value``: its hidden
    ``action``, for the cube's forms); waits while the live part redraws."""
    from selenium.webdriver.common.by import By

    selector = f'form[data-action="{action}"][data-side="{side}"]'
    if value is not None:
        selector = f'{selector}:has(input[name="action"][value="{value}"])'
    found: list[Any] = []

    def shown() -> bool:
        found[:] = browser.find_elements(By.CSS_SELECTOR, selector)
        return bool(found)

    try:
        wait_until(browser, shown)
    except Exception:
        screenshot(browser, f"table-play-no-{action}-form")  # what the page showed instead
        raise
    return found[0]


def _left_after(page: Any, _browser: Any) -> bool:
    return left(page)


def press(browser: Any, action: str, side: str, value: str | None = None, **inputs: str) -> None:
    """Fill in the side's form and send it; wait for the page it answers (PRG). A form that
    the page redrew while it was filled in is filled in again: nothing was sent, the page
    is the same. A click that reports the button gone after the page moved on sent it."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    for _ in range(3):
        page = browser.find_element(By.TAG_NAME, "html")
        try:
            form = play_form(browser, action, side, value)
            for name, typed in inputs.items():
                form.find_element(By.NAME, name).send_keys(typed)
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        except (StaleElementReferenceException, WebDriverException):
            if not left(page):
                continue  # only the live part was redrawn: nothing was sent
        waiting = WebDriverWait(browser, 20)
        waiting.until(partial(_left_after, page))
        waiting.until(lambda b: b.execute_script("return document.readyState") == "complete")
        break
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-error]"), browser.page_source


def test_two_players_play_a_three_point_match_move_by_move_on_the_table_page(
    live_server: LiveServer, browser: Any
) -> None:
    # issue 21 item 6, API.md "Playing at the table": each player on their own phone, signed
    # in by the personal link; entered dice (the club's physical dice), the first legal play
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 2, match_length=3)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"
    tokens = {side: day.players[table[f"player_{side}"]]["player_token"] for side in "ab"}
    seated: list[str] = []

    def as_player(side: str) -> None:
        if seated[-1:] != [side]:
            sign_in(browser, live_server, tokens[side], page)
            seated.append(side)

    def first_play(side: str) -> None:
        press(browser, "play", side)  # the first of the legal plays offered

    def opening(starter_die: str, other_die: str) -> None:
        """Side a enters the opening roll: side a starts with the higher die (G-OPEN-1)."""
        as_player("a")
        press(browser, "roll", "a", die1=starter_die, die2=other_die)

    # game 1: a opens and plays; b doubles, a drops (G-CUBE-1): b 1
    opening("3", "1")
    screenshot(browser, "table-play-opening")
    first_play("a")
    as_player("b")
    press(browser, "cube", "b", "double")
    as_player("a")
    screenshot(browser, "table-play-double")
    press(browser, "cube", "a", "drop")
    # game 2: the same: b 2
    opening("5", "2")
    first_play("a")
    as_player("b")
    press(browser, "cube", "b", "double")
    as_player("a")
    press(browser, "cube", "a", "drop")
    # game 3, the Crawford game (G-CUBE-2): no cube; a few moves, then b resigns and a accepts
    # (G-RESIGN-1): a 1
    opening("6", "4")
    assert not browser.find_elements(By.CSS_SELECTOR, 'form[data-action="cube"]')
    first_play("a")
    as_player("b")
    press(browser, "roll", "b", die1="6", die2="5")
    first_play("b")
    screenshot(browser, "table-play-crawford")
    press(browser, "resign", "b")  # a single
    as_player("a")
    press(browser, "accept-resignation", "a")
    # game 4, after Crawford: a opens, b rolls and plays, a doubles and b takes; a rolls and
    # plays; b resigns a single at the cube's 2: a 3, and the match
    opening("4", "2")
    first_play("a")
    as_player("b")
    press(browser, "roll", "b", die1="5", die2="3")
    first_play("b")
    as_player("a")
    press(browser, "cube", "a", "double")
    as_player("b")
    press(browser, "cube", "b", "take")
    as_player("a")
    press(browser, "roll", "a", die1="2", die2="1")
    first_play("a")
    as_player("b")
    press(browser, "resign", "b")  # a single with the cube at 2: a 3
    as_player("a")
    press(browser, "accept-resignation", "a")

    wait_until(
        browser,
        lambda: browser.find_element(By.ID, "game").get_attribute("data-phase") == "match_over",
    )
    assert not browser.find_elements(By.CSS_SELECTOR, "#game form[data-action]")
    screenshot(browser, "table-play-over")

    # the REST API agrees: the match is finished with the score the page shows
    state = client.get(f"/api/v1/matches/{table['match_id']}").json()
    assert (state["status"], state["winner"]) == ("finished", "a")
    assert state["score"] == {"a": 3, "b": 2}
    assert "3 : 2" in browser.find_element(By.CSS_SELECTOR, "[data-score]").text
    played = client.get(f"/api/v1/matches/{table['match_id']}/events").json()
    assert sum(e["type"] == "CheckersPlayed" for e in played) == 7
    matches = client.get(f"/api/v1/tournaments/{day.id}/matches").json()
    decided = next(m for m in matches if m["match_id"] == table["match_id"])
    assert (decided["winner"], decided["score"]) == (table["player_a"], {"a": 3, "b": 2})


def test_the_table_page_follows_the_opponents_moves_without_a_reload(
    live_server: LiveServer, browser: Any
) -> None:
    # the page listens to /api/v1/matches/{id}/live and redraws the board on each state
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 2, match_length=3)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"
    sign_in(browser, live_server, day.players[table["player_a"]]["player_token"], page)
    wait_until_live(browser)
    browser.execute_script("window.stillTheSamePage = true;")
    # the opponent enters the opening roll on their own phone (over REST, as any frontend)
    b_token = day.players[table["player_b"]]["player_token"]
    rolled = client.post(
        f"/api/v1/matches/{table['match_id']}/rolls",
        json={"dice": [1, 3]},
        headers={"Authorization": f"Bearer {b_token}"},
    )
    assert rolled.status_code == 200, rolled.text

    def redrawn() -> bool:
        game = browser.find_element(By.ID, "game")
        return (game.get_attribute("data-phase"), game.get_attribute("data-turn")) == ("move", "b")

    wait_until(browser, redrawn)
    assert browser.execute_script("return window.stillTheSamePage === true")
    assert browser.find_elements(By.CSS_SELECTOR, '#game [data-die="3"]')
    assert not browser.find_elements(By.CSS_SELECTOR, 'form[data-action="play"]')  # b's move
    screenshot(browser, "table-play-live")


def test_the_director_opens_a_tablet_on_which_both_players_play(
    live_server: LiveServer, browser: Any
) -> None:
    # API.md "Playing at the table": "both on one tablet opened by the director for that table"
    from selenium.webdriver.common.by import By

    from service.settings import DEV_DIRECTOR_TOKEN
    from tests.browser.test_pages import to_the_next_page

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 2, match_length=3)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"
    # the table page (the QR code) links the director to the tablet's form, behind the sign-in
    browser.get(page)
    to_the_next_page(
        browser, browser.find_element(By.CSS_SELECTOR, 'a[href$="/tables/1/tablet"]').click
    )
    browser.find_element(By.NAME, "token").send_keys(DEV_DIRECTOR_TOKEN)
    sign_in_button = browser.find_element(By.CSS_SELECTOR, 'form[data-action="sign-in"] button')
    to_the_next_page(browser, sign_in_button.click)
    screenshot(browser, "table-tablet-open")
    opening = browser.find_element(By.CSS_SELECTOR, 'form[data-action="open-tablet"] button')
    to_the_next_page(browser, opening.click)
    assert browser.current_url == page
    assert browser.find_elements(By.CSS_SELECTOR, "[data-tablet]")

    # both sides play on the one device: b opens with the higher die, then a answers
    press(browser, "roll", "a", die1="2", die2="5")
    press(browser, "play", "b")
    press(browser, "roll", "a", die1="6", die2="4")
    press(browser, "play", "a")
    screenshot(browser, "table-tablet-play")
    events = client.get(f"/api/v1/matches/{table['match_id']}/events").json()
    played = [e["actor"] for e in events if e["type"] == "CheckersPlayed"]
    assert played == [f"player:{table['player_b']}", f"player:{table['player_a']}"]
    # the tablet signs out with its own button: the page is anyone's again
    sign_out = browser.find_element(By.CSS_SELECTOR, 'form[data-action="tablet-sign-out"] button')
    to_the_next_page(browser, sign_out.click)
    assert browser.current_url == page
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-tablet]")
    # the director's session stayed behind: this device opens no console
    browser.get(f"{live_server.url}/director")
    assert browser.current_url.startswith(f"{live_server.url}/director/sign-in")


def test_a_plakoto_match_is_played_on_its_own_board(live_server: LiveServer, browser: Any) -> None:
    # rules V-BOARD-1, V-BOARD-2, V-OPEN-1, V-CUBE-1: the page draws Plakoto's board, with no
    # cube, and its legal plays are forms like backgammon's
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 2, variant="plakoto")
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"
    sign_in(browser, live_server, day.players[table["player_a"]]["player_token"], page)
    press(browser, "roll", "a", die1="5", die2="3")  # the higher die starts ...
    press(browser, "roll", "a", die1="6", die2="4")  # ... and rolls both dice again
    screenshot(browser, "table-play-plakoto")
    board = browser.find_element(By.CSS_SELECTOR, "#game svg[data-board]")
    assert board.find_elements(By.CSS_SELECTOR, '[data-direction="b"][data-start="1"]')
    assert not board.find_elements(By.CSS_SELECTOR, "[data-cube]")
    press(browser, "play", "a")  # the first legal play offered
    state = client.get(f"/api/v1/matches/{table['match_id']}").json()
    assert (state["variant"], state["phase"], state["turn"]) == ("plakoto", "roll", "b")


def test_a_player_reading_english_gets_a_refused_report_back_as_typed_and_in_english(
    live_server: LiveServer, browser: Any
) -> None:
    # API.md "Pages for people": `?lang=en` gives English, also after a form's answer; a
    # refused report keeps the winner and the points typed (as the console's result form)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 2)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    length = table["match_length"]
    page = f"{live_server.url}/pages/tournaments/{day.id}/tables/1"
    sign_in(browser, live_server, day.players[table["player_a"]]["player_token"], page)
    browser.get(f"{page}?lang=en")

    def report(points_a: int, points_b: int) -> Any:
        form = browser.find_element(By.CSS_SELECTOR, 'form[data-action="report"]')
        Select(form.find_element(By.NAME, "winner")).select_by_value(table["player_a"])
        for name, points in (("points_a", points_a), ("points_b", points_b)):
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(str(points))
        # the answer comes back at the same URL: wait for its page, not the old one
        to_the_next_page(browser, form.find_element(By.CSS_SELECTOR, "button[type=submit]").click)

    report(length - 2, 1)  # the winner below the match length: refused
    refused = browser.find_element(By.CSS_SELECTOR, 'form[data-action="report"]')
    assert refused.find_elements(By.CSS_SELECTOR, "[data-error]")
    assert refused.find_element(By.NAME, "points_a").get_attribute("value") == str(length - 2)
    assert refused.find_element(By.NAME, "points_b").get_attribute("value") == "1"
    chosen = Select(refused.find_element(By.NAME, "winner")).first_selected_option
    assert chosen.get_attribute("value") == table["player_a"]
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    screenshot(browser, "table-page-report-refused-en")

    report(length, 1)
    status_of(browser, "awaiting_confirmation")
    assert browser.current_url == f"{page}?lang=en"
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    screenshot(browser, "table-page-reported-en")
