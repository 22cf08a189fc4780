"""A season's ranking options over REST (rule R-OPT-1): set at creation, refused with words when
invalid, and applied by the season's ranking."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_ranking import play_three, ranking
from tests.conftest import DIRECTOR

Client = TestClient[Any]
SEASON = {"name": "Saison 2026", "starts_on": "2026-03-01", "ends_on": "2027-02-28"}


def create_season(client: Client, **options: Any) -> str:
    response = client.post("/api/v1/seasons", json={**SEASON, **options}, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    season_id: str = response.json()["id"]
    return season_id


def test_the_season_shows_its_options_as_created_and_the_defaults_without_them(
    client: Client,
) -> None:
    # rule R-OPT-1: the season's rules snapshot; the defaults are R-TIE-1's
    options = {"drop_worst": 4, "events_tiebreak": "more", "best_place_tiebreak": True}
    created = client.post("/api/v1/seasons", json={**SEASON, **options}, headers=DIRECTOR)
    assert created.json()["options"] == options
    period = {"name": "Frühling", "starts_on": "2026-03-01", "ends_on": "2026-05-31"}
    season_id = created.json()["id"]
    client.post(f"/api/v1/seasons/{season_id}/periods", json=period, headers=DIRECTOR)
    assert client.get(f"/api/v1/seasons/{season_id}").json()["options"] == options
    plain = {**SEASON, "name": "Saison 2027", "starts_on": "2027-03-01", "ends_on": "2028-02-28"}
    default = client.post("/api/v1/seasons", json=plain, headers=DIRECTOR).json()
    assert default["options"] == {
        "drop_worst": None,
        "events_tiebreak": "fewer",
        "best_place_tiebreak": False,
    }


def test_best_place_tiebreak_decides_the_tie_the_default_leaves_shared(
    client: Client, clock: MovableClock
) -> None:
    # rules R-TIE-1, R-OPT-1: the loser and the player with the bye have 7 points each, no win
    # and one tournament; the bye counts as a win in the Swiss standings, so its player placed
    # better (the default shares the rank: tests/api/test_ranking.py)
    season = create_season(client, best_place_tiebreak=True, events_tiebreak="more")
    players = play_three(client, clock, season)
    places = client.get(f"/api/v1/tournaments/{_tournament_of(client, season)}/places").json()
    order = [row["player_id"] for row in places]
    assert order[0] == players["winner"]
    second, third = order[1], order[2]
    assert {second, third} == {players["loser"], players["bye"]}
    rows = ranking(client, season)
    assert [(row["rank"], row["player_id"], row["points"]) for row in rows] == [
        (1, players["winner"], 14),
        (2, second, 7),
        (3, third, 7),
    ]


def test_drop_worst_larger_than_the_season_changes_nothing(
    client: Client, clock: MovableClock
) -> None:
    # rule R-OPT-1: the best 3 of one result is that result
    season = create_season(client, drop_worst=3)
    players = play_three(client, clock, season)
    rows = ranking(client, season)
    assert [row["points"] for row in rows] == [14, 7, 7]
    assert rows[0]["player_id"] == players["winner"]
    explained = client.get(f"/api/v1/seasons/{season}/ranking/{players['winner']}").json()
    assert "result_dropped" not in {entry["kind"] for entry in explained["entries"]}


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"drop_worst": 0}, "drop_worst", "1 or more"),
        ({"drop_worst": -1}, "drop_worst", "1 or more"),
        ({"drop_worst": "all"}, "drop_worst", "int"),
        ({"events_tiebreak": "most"}, "events_tiebreak", "fewer"),
        ({"best_place_tiebreak": "yes"}, "best_place_tiebreak", "bool"),
        ({"tiebreak": "attendance"}, "tiebreak", "unknown"),
    ],
)
def test_an_invalid_option_is_a_422_naming_the_field_in_words(
    client: Client, options: dict[str, Any], field: str, words: str
) -> None:
    # rule R-OPT-1; nothing is created
    response = client.post("/api/v1/seasons", json={**SEASON, **options}, headers=DIRECTOR)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert [error["field"] for error in problem["errors"]] == [field]
    assert words in problem["detail"]
    assert client.get("/api/v1/seasons").json() == []


def test_the_openapi_document_names_the_season_options(client: Client) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    created = next(schema for name, schema in schemas.items() if name.endswith("SeasonCreate"))
    assert {"drop_worst", "events_tiebreak", "best_place_tiebreak"} <= set(created["properties"])


def _tournament_of(client: Client, season_id: str) -> str:
    [tournament] = [
        row for row in client.get("/api/v1/tournaments").json() if row["season_id"] == season_id
    ]
    tournament_id: str = tournament["id"]
    return tournament_id


def test_the_ranking_page_states_the_season_s_tiebreaks_in_german_and_english(
    client: Client,
) -> None:
    # rules R-TIE-1, R-OPT-1: the page says by which rules the season ranks
    default = create_season(client)
    german = client.get(f"/pages/seasons/{default}/ranking").text
    assert "Turniersiege, dann weniger gespielte Turniere, sonst wird der Rang geteilt." in german
    assert "besten" not in german
    later = {"name": "Saison 2027", "starts_on": "2027-03-01", "ends_on": "2028-02-28"}
    options = {"drop_worst": 5, "events_tiebreak": "more", "best_place_tiebreak": True}
    season = client.post("/api/v1/seasons", json={**later, **options}, headers=DIRECTOR).json()
    english = client.get(f"/pages/seasons/{season['id']}/ranking?lang=en").text
    assert "The best 5 tournament results of each player count." in english
    assert (
        "tournament wins, then more tournaments played, then the best single place, "
        "else the rank is shared." in english
    )


def test_drop_worst_counts_each_player_s_best_result_of_two_tournaments(
    client: Client, clock: MovableClock
) -> None:
    # rule R-OPT-1: with drop_worst 1 only the better of a player's two results counts; the
    # other stays in the explanation, taken back by a result_dropped entry
    season = create_season(client, drop_worst=1)
    first = play_three(client, clock, season)
    second = play_three(client, clock, season)
    assert set(first.values()) == set(second.values())  # the same three people played twice
    result = {"winner": 14, "loser": 7, "bye": 7}
    best = {
        player: max(
            result[role]
            for roles in (first, second)
            for role, who in roles.items()
            if who == player
        )
        for player in first.values()
    }
    rows = ranking(client, season)
    assert {row["player_id"]: row["points"] for row in rows} == best
    assert all(row["tournaments_played"] == 2 for row in rows)
    for player, points in best.items():
        explained = client.get(f"/api/v1/seasons/{season}/ranking/{player}").json()
        dropped = [entry for entry in explained["entries"] if entry["kind"] == "result_dropped"]
        assert len(dropped) == 1
        assert dropped[0]["rule"] == "R-OPT-1"
        assert sum(entry["points"] for entry in explained["entries"]) == points
