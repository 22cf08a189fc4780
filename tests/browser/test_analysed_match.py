"""One match played move by move at a tournament's table and analysed by GNU Backgammon, in
headless Chromium: the table page shows gnubg's figures under the ended match, and the
winner's page lists it among the analysed matches with its `.mat`, next to the rating chart
(rules A-ANALYSIS-1..3, R-RATE-1, R-RATE-2; API.md "Match analysis", "Ratings")."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, cast

import pytest

from tests.api.test_match_analysis import gnubg_statistics
from tests.api.test_tournament_day import start_tournament
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import column, text_of

pytestmark = [pytest.mark.browser, pytest.mark.gnubg]

START_RATING = 1800  # R-RATE-2: both players are new
LENGTH = 3


def play_a_short_match(client: Any, match_id: str, tokens: dict[str, str]) -> None:
    """Three plays (a opens, b answers, a again), then b resigns a backgammon: a wins 3:0."""
    url = f"/api/v1/matches/{match_id}"

    def send(side: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = client.post(
            f"{url}/{path}", json=body, headers={"Authorization": f"Bearer {tokens[side]}"}
        )
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    state = send("a", "rolls", {"dice": [3, 1]})  # the higher die: a opens (G-OPEN-1)
    send("a", "plays", {"play": state["legal_plays"][0]["play"]})
    state = send("b", "rolls", {"dice": [6, 5]})
    send("b", "plays", {"play": state["legal_plays"][0]["play"]})
    state = send("a", "rolls", {"dice": [4, 2]})
    send("a", "plays", {"play": state["legal_plays"][0]["play"]})
    send("b", "resignations", {"level": "backgammon"})
    state = send("a", "resignations/accept", {})
    assert (state["phase"], state["score"]) == ("match_over", {"a": LENGTH, "b": 0})


def fetched_by_the_page(browser: Any, href: str) -> str:
    """What the page's own link answers, fetched by the browser (status and body)."""
    answer = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(async r => done(r.status + '\\n' + await r.text()));",
        href,
    )
    status, _, body = str(answer).partition("\n")
    assert status == "200", answer
    return body


def german(figure: str) -> str:
    """gnubg's printed figure (negative, decimal point) as the German page shows it."""
    return figure.removeprefix("-").replace(".", ",")


def test_an_analysed_match_shows_on_the_table_page_and_on_the_winners_page(
    live_server: LiveServer, browser: Any, gnubg: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    day = start_tournament(client, live_server.clock, 2, match_length=LENGTH)
    (table,) = day.rounds[0]["pairings"]
    match_id = table["match_id"]
    names = (table["player_a_name"], table["player_b_name"])
    tokens = {side: day.players[table[f"player_{side}"]]["player_token"] for side in "ab"}
    play_a_short_match(client, match_id, tokens)
    # the analysis job, as the scheduler would run it once the match has ended
    services = live_server.app.state.services
    [run] = services.jobs.run_slow(live_server.clock.now())
    assert str(run.effect).startswith("MatchAnalysed"), run

    # the table page: the match is over, gnubg's figures stand under it
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/tables/1")
    assert text_of(browser, "[data-score]") == f"{LENGTH} : 0"
    assert f"Die Partie ist zu Ende: {names[0]} gewinnt." in text_of(browser, "#game")
    block = browser.find_element(By.CSS_SELECTOR, "#analysis")
    assert block.get_attribute("data-analysis") == "done"
    assert text_of(browser, "#analysis h2") == "Analyse mit GNU Backgammon"
    headings = [th.text for th in block.find_elements(By.CSS_SELECTOR, "thead th")]
    assert headings == ["", *names]
    mat = fetched_by_the_page(
        browser, block.find_element(By.CSS_SELECTOR, "a[data-mat]").get_attribute("href")
    )
    assert mat == client.get(f"/api/v1/matches/{match_id}/export.mat").text
    assert f"{LENGTH} point match" in mat
    # the figures are gnubg's own for the downloaded .mat, run here once more
    own = gnubg_statistics(gnubg, mat, tmp_path)

    def shown(figure: str) -> list[str]:
        row = block.find_element(By.CSS_SELECTOR, f'tr[data-figure="{figure}"]')
        return [cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td.num")]

    assert shown("error_rate") == [german(f) for f in own["overall: Error rate mEMG"]]
    assert shown("chequer") == [german(f) for f in own["chequerplay: Error rate mEMG"]]
    assert shown("error_total") == [german(f) for f in own["overall: Error total EMG"]]
    moves, decisions = (
        own["chequerplay: Unforced moves"],
        own["cube: Close or actual cube decisions"],
    )
    assert shown("decisions") == [f"{m} + {d}" for m, d in zip(moves, decisions, strict=True)]
    assert "GNU Backgammon 1." in block.text
    screenshot(browser, "analysis-table-page")

    # the winner's page: the rated match, the chart that rises, the analysed match
    browser.get(f"{live_server.url}/pages/players/{table['player_a']}")
    gain = 4 * math.sqrt(LENGTH) * 0.5  # R-RATE-2: equal ratings, P = 1/2
    assert text_of(browser, "h1") == f"{names[0]}: {START_RATING + gain:,.0f}".replace(",", ".")
    assert column(browser, "#history", 2) == [names[1]]
    assert column(browser, "#history", 4) == ["gewonnen"]
    assert column(browser, "#history", 9) == [f"+{gain:.1f}".replace(".", ",")]
    chart = browser.find_element(By.CSS_SELECTOR, "#rating-chart svg")
    assert chart.size["width"] > 200
    points = chart.find_element(By.TAG_NAME, "polyline").get_attribute("points").split()
    assert len(points) == 2  # the start rating and the one match
    (_, y_before), (_, y_after) = (map(float, point.split(",")) for point in points)
    assert y_after < y_before  # drawn higher: the winner's rating went up
    (row,) = browser.find_elements(By.CSS_SELECTOR, "#analysed tbody tr")
    assert row.get_attribute("data-match-id") == match_id
    cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
    date, opponent, mine, theirs = cells[:4]
    assert (date, opponent) == ("18.04.2026", names[1])  # the day of the tournament
    rates = [german(f) for f in own["overall: Error rate mEMG"]]
    assert (mine.split(" (")[0], theirs.split(" (")[0]) == (rates[0], rates[1])
    opponents_page = row.find_element(By.LINK_TEXT, names[1]).get_attribute("href")
    assert opponents_page.endswith(f"/pages/players/{table['player_b']}?lang=de")
    link = row.find_element(By.CSS_SELECTOR, "a[data-mat]")
    assert link.text == ".mat herunterladen"
    assert fetched_by_the_page(browser, link.get_attribute("href")) == mat
    browser.execute_script("arguments[0].scrollIntoView()", row)
    screenshot(browser, "analysis-player-page")
