"""The rating list and a player's page in headless Chromium, with a screenshot of each: the
list reached from the season ranking, a player's history with the chart the service drew
(rule R-RATE-1, API.md "Ratings")."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.api.test_ranking import create_season
from tests.api.test_tournament_day import pair_next, start_tournament
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


def met(
    tally: dict[tuple[str, str], list[Any]],
    winner: str,
    loser: str,
    points: tuple[int, int],
    day: str,
) -> None:
    """Count one decided match for both sides: matches, wins, losses, points for and against
    (the winner's points first), and the day they last met."""
    for me, other, won, mine, theirs in (
        (winner, loser, True, *points),
        (loser, winner, False, points[1], points[0]),
    ):
        row = tally.setdefault((me, other), [0, 0, 0, 0, 0, ""])
        row[0] += 1
        row[1 if won else 2] += 1
        row[3] += mine
        row[4] += theirs
        row[5] = max(row[5], day)


def three_swiss_rounds(client: Any, clock: Any, season_id: str) -> tuple[Any, dict[Any, Any]]:
    """Four people, three 3-point Swiss rounds (everyone meets everyone once), each result
    reported by the director with the loser's points varying: the day and the tally."""
    day = start_tournament(client, clock, 4, match_length=3, swiss_rounds=3, season_id=season_id)
    tally: dict[tuple[str, str], list[Any]] = {}
    for number in (1, 2, 3):
        paired = day.rounds[0] if number == 1 else pair_next(client, day)
        for table in paired["pairings"]:
            a_wins = (number + table["table"]) % 2 == 0
            loser_points = (number + table["table"]) % 3
            winner, loser = (table["player_a"], table["player_b"])[:: 1 if a_wins else -1]
            body = {
                "match_id": table["match_id"],
                "winner": winner,
                "points_a": 3 if a_wins else loser_points,
                "points_b": loser_points if a_wins else 3,
            }
            answer = client.post(day.url("/results"), json=body, headers=DIRECTOR)
            assert answer.status_code == 201, answer.text
            met(tally, winner, loser, (3, loser_points), "2026-04-18")
    return day, tally


def a_friendly_one_pointer_next_day(
    client: Any, clock: Any, tally: dict[Any, Any], winner: str, loser: str
) -> None:
    """A rated ad hoc 1-point match the day after, played over REST: the loser resigns."""
    clock.advance(24 * 60 * 60)
    body = {"player_a": winner, "player_b": loser, "match_length": 1}
    created = client.post("/api/v1/matches", json=body, headers=DIRECTOR)
    assert created.status_code == 201, created.text
    url = f"/api/v1/matches/{created.json()['id']}"
    tokens = created.json()["player_tokens"]

    def send(side: str, path: str, sent: dict[str, Any]) -> dict[str, Any]:
        answer = client.post(
            f"{url}/{path}", json=sent, headers={"Authorization": f"Bearer {tokens[side]}"}
        )
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    state = send("a", "rolls", {"dice": [5, 2]})
    send("a", "plays", {"play": state["legal_plays"][0]["play"]})
    send("b", "resignations", {"level": "single"})
    assert send("a", "resignations/accept", {})["phase"] == "match_over"
    met(tally, winner, loser, (1, 0), "2026-04-19")


def head_to_head_rows(browser: Any) -> dict[str, list[str]]:
    """The head-to-head table as a person reads it: the opponent's name, then the figures."""
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, "#head-to-head tbody tr")
    cells = [[td.text for td in row.find_elements(By.TAG_NAME, "td")] for row in rows]
    return {line[0]: line[1:] for line in cells}


def expected_rows(
    tally: dict[tuple[str, str], list[Any]], player: str, names: dict[str, str]
) -> dict[str, list[str]]:
    """The player's rows as the German page should show them, the day as "19.04.2026"."""
    return {
        names[other]: [*(str(figure) for figure in figures[:5]), german_date(figures[5])]
        for (me, other), figures in tally.items()
        if me == player
    }


def german_date(iso: str) -> str:
    return ".".join(reversed(iso.split("-")))


def test_the_standings_and_the_ranking_lead_to_each_players_head_to_head(
    live_server: LiveServer, browser: Any
) -> None:
    # issue 22, API.md GET /api/v1/players/{id}/head-to-head; rules T-FMT-3, R-RATE-1
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    season_id = create_season(client)
    day, tally = three_swiss_rounds(client, live_server.clock, season_id)
    first, second, third, _ = day.players
    a_friendly_one_pointer_next_day(client, live_server.clock, tally, second, first)
    names = {p: f"Vorname{n} N." for n, p in enumerate(day.players, start=1)}

    # from the tournament's standings: a click on the second person's name
    browser.get(f"{live_server.url}/pages/tournaments/{day.id}/standings")
    to_the_next_page(
        browser,
        lambda: (
            browser.find_element(By.CSS_SELECTOR, "#standings")
            .find_element(By.LINK_TEXT, names[second])
            .click()
        ),
    )
    assert text_of(browser, "h1") == f"Direkter Vergleich: {names[second]}"
    assert head_to_head_rows(browser) == expected_rows(tally, second, names)
    assert head_to_head_rows(browser)[names[first]][0] == "2"  # the tournament and the friendly
    screenshot(browser, "head-to-head")

    # from the season's ranking: a click on the third person's name
    browser.get(f"{live_server.url}/pages/seasons/{season_id}/ranking")
    to_the_next_page(
        browser,
        lambda: (
            browser.find_element(By.CSS_SELECTOR, "#ranking")
            .find_element(By.LINK_TEXT, names[third])
            .click()
        ),
    )
    assert text_of(browser, "h1") == f"Direkter Vergleich: {names[third]}"
    assert head_to_head_rows(browser) == expected_rows(tally, third, names)
    # an opponent's name leads on to that opponent's own head-to-head
    to_the_next_page(browser, lambda: browser.find_element(By.LINK_TEXT, names[first]).click())
    assert head_to_head_rows(browser) == expected_rows(tally, first, names)
