"""A player's head-to-head over REST and on the public pages (issue 22; API.md
``GET /api/v1/players/{id}/head-to-head``): two tournaments of the same four people, every
result reported by the director, one corrected."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_ranking import create_season
from tests.api.test_tournament_day import report, start_tournament
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, person, register, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
UNKNOWN = "00000000-0000-4000-8000-000000000000"
CONTRACT_FIELDS = {
    "opponent_id",
    "opponent",
    "matches",
    "wins",
    "losses",
    "points_for",
    "points_against",
    "last_played",
}


def two_tournaments(client: Client, clock: MovableClock) -> tuple[list[str], list[str]]:
    """The same four people in two tournaments of a season, three 3-point Swiss rounds each,
    checked in: the tournament ids and the player ids in registration order (person 1 first)."""
    season = create_season(client)
    tournaments = [
        schedule(client, name=name, match_length=3, swiss_rounds=3, season_id=season)["id"]
        for name in ("Frühlingsturnier", "Sommerturnier")
    ]
    registrations = {t: [register(client, t, n) for n in (1, 2, 3, 4)] for t in tournaments}
    advance_to(client, clock, CHECK_IN_OPENS)
    for tournament, receipts in registrations.items():
        for receipt in receipts:
            response = client.post(
                f"/api/v1/tournaments/{tournament}/registrations/"
                f"{receipt['registration_id']}/check-in",
                json={"id_document_seen": True, "buy_in_paid_cents": 10000},
                headers=DIRECTOR,
            )
            assert response.status_code == 200, response.text
    players = [r["player_id"] for r in registrations[tournaments[0]]]
    assert players == [r["player_id"] for r in registrations[tournaments[1]]]
    return tournaments, players


def play(client: Client, tournament: str, players: list[str], lower_wins: bool) -> None:
    """Three Swiss rounds; each table won 3 to 1 by the lower-numbered person, or the higher."""
    url = f"/api/v1/tournaments/{tournament}"
    paired = client.post(f"{url}/start", headers=DIRECTOR).json()["round"]
    for number in (1, 2, 3):
        if number > 1:
            paired = client.post(f"{url}/rounds", headers=DIRECTOR).json()
        for table in paired["pairings"]:
            a, b = players.index(table["player_a"]), players.index(table["player_b"])
            a_wins = (a < b) == lower_wins
            body = {
                "match_id": table["match_id"],
                "winner": table["player_a"] if a_wins else table["player_b"],
                "points_a": 3 if a_wins else 1,
                "points_b": 1 if a_wins else 3,
            }
            response = client.post(f"{url}/results", json=body, headers=DIRECTOR)
            assert response.status_code == 201, response.text


def head_to_head(client: Client, player: str) -> dict[str, tuple[int, int, int, int, int]]:
    response = client.get(f"/api/v1/players/{player}/head-to-head")
    assert response.status_code == 200, response.text
    return {
        row["opponent_id"]: (
            row["matches"],
            row["wins"],
            row["losses"],
            row["points_for"],
            row["points_against"],
        )
        for row in response.json()
    }


def test_two_tournaments_give_each_opponent_exact_figures(
    client: Client, clock: MovableClock
) -> None:
    (spring, summer), (p1, p2, p3, p4) = two_tournaments(client, clock)
    play(client, spring, [p1, p2, p3, p4], lower_wins=True)
    play(client, summer, [p1, p2, p3, p4], lower_wins=False)
    # four people, three Swiss rounds without a rematch: everyone met everyone in each
    assert head_to_head(client, p1) == {
        p2: (2, 1, 1, 4, 4),
        p3: (2, 1, 1, 4, 4),
        p4: (2, 1, 1, 4, 4),
    }
    rows = client.get(f"/api/v1/players/{p1}/head-to-head").json()
    assert {row["opponent"] for row in rows} == {"Vorname2 N.", "Vorname3 N.", "Vorname4 N."}
    assert {row["last_played"] for row in rows} == {"2026-04-18"}


def test_a_corrected_result_counts_once_with_its_corrected_figures(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-6: the correction replaces the result it names
    (spring, summer), players = two_tournaments(client, clock)
    p1, p2 = players[:2]
    play(client, spring, players, lower_wins=True)
    play(client, summer, players, lower_wins=False)
    matches = client.get(f"/api/v1/tournaments/{spring}/matches").json()
    (met,) = [m for m in matches if {m["player_a"], m["player_b"]} == {p1, p2}]
    a_is_p2 = met["player_a"] == p2
    correction = {
        "match_id": met["match_id"],
        "winner": p2,
        "points_a": 3 if a_is_p2 else 2,
        "points_b": 2 if a_is_p2 else 3,
        "corrects": met["result_id"],
        "reason": "Zettel vertauscht",
    }
    response = client.post(
        f"/api/v1/tournaments/{spring}/results", json=correction, headers=DIRECTOR
    )
    assert response.status_code == 201, response.text
    assert head_to_head(client, p1)[p2] == (2, 0, 2, 2 + 1, 3 + 3)
    assert head_to_head(client, p2)[p1] == (2, 2, 0, 3 + 3, 2 + 1)


def test_the_public_answer_holds_display_names_only(client: Client, clock: MovableClock) -> None:
    (spring, _), players = two_tournaments(client, clock)
    play(client, spring, players, lower_wins=True)
    response = client.get(f"/api/v1/players/{players[0]}/head-to-head")
    assert [set(row) for row in response.json()] == [CONTRACT_FIELDS] * 3
    for number in (2, 3, 4):
        assert person(number)["email"] not in response.text
        assert person(number)["last_name"] not in response.text
    assert "@" not in response.text
    assert "token" not in response.text


def test_an_unknown_player_is_404_with_clear_words(client: Client) -> None:
    response = client.get(f"/api/v1/players/{UNKNOWN}/head-to-head")
    assert response.status_code == 404
    assert "no player has the id" in response.json()["detail"]
    assert client.get("/api/v1/players/not-an-id/head-to-head").status_code in (400, 404)


def test_the_head_to_head_page_speaks_german_and_english_and_the_tables_link_to_it(
    client: Client, clock: MovableClock
) -> None:
    (spring, _), players = two_tournaments(client, clock)
    play(client, spring, players, lower_wins=True)
    link = f'href="/pages/players/{players[1]}/head-to-head?lang=de"'
    assert link in client.get(f"/pages/tournaments/{spring}/standings").text
    season = client.get(f"/api/v1/tournaments/{spring}").json()["season_id"]
    assert link in client.get(f"/pages/seasons/{season}/ranking").text
    german = client.get(f"/pages/players/{players[0]}/head-to-head")
    assert german.status_code == 200
    assert "Direkter Vergleich: Vorname1 N." in german.text
    assert 'id="head-to-head"' in german.text
    assert "Punkte gegen" in german.text
    english = client.get(f"/pages/players/{players[0]}/head-to-head?lang=en")
    assert "Head-to-head: Vorname1 N." in english.text
    assert "Points against" in english.text
    assert person(2)["email"] not in english.text
    rating_page = client.get(f"/pages/players/{players[0]}?lang=en").text
    assert 'id="head-to-head"' in rating_page
    assert f"/pages/players/{players[0]}/head-to-head?lang=en" in rating_page
    assert client.get(f"/pages/players/{UNKNOWN}/head-to-head").status_code == 404


def test_an_unplayed_forfeit_and_a_bye_are_no_meetings(client: Client, clock: MovableClock) -> None:
    # rules T-FMT-5, T-FMT-7, R-BYE-1: the withdrawn player's match is won unplayed
    day = start_tournament(client, clock, 5)
    tables = day.rounds[0]["pairings"]
    forfeited, played = tables[0], tables[1]
    (bye,) = [t for t in tables if t["player_b"] is None]
    response = client.post(
        day.url("/withdrawals"),
        json={"player_id": forfeited["player_a"], "reason": "Zug nach Hause", "left_early": True},
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    report(client, day, played, winner="a")
    assert head_to_head(client, forfeited["player_a"]) == {}
    assert head_to_head(client, forfeited["player_b"]) == {}
    assert head_to_head(client, bye["player_a"]) == {}
    length = played["match_length"]
    assert head_to_head(client, played["player_a"])[played["player_b"]][:3] == (1, 1, 0)
    assert head_to_head(client, played["player_b"])[played["player_a"]][3] < length
