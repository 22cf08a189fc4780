"""Tournaments in a variant over REST: the creation body's variant fields, their refusals, and
a Plakoto Swiss with a backgammon final played through the API with server dice to its places
(rules V-MATCH-VARIANT-1, V-CUBE-1, V-TAVLI-MATCH-1; API.md "Matches and tournaments:
variants")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import Day, pair_next, standings, start_tournament
from tests.api.test_tournaments import SPRING, schedule
from tests.api.test_variant_matches import MAX_ACTIONS, act
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def play_with_server_dice(client: Client, day: Day, pairing: dict[str, Any], seed: int) -> Any:
    """The two players play their table's match with their registration tokens, each a random
    legal play (seeded) by its notation, until the match is over."""
    tokens = {
        "a": day.players[pairing["player_a"]]["player_token"],
        "b": day.players[pairing["player_b"]]["player_token"],
    }
    url = f"/api/v1/matches/{pairing['match_id']}"
    chooser = random.Random(seed)
    state = client.get(url).json()
    for _ in range(MAX_ACTIONS):
        if state["phase"] == "match_over":
            return state
        side = state["turn"] or "a"  # the opening roll: either player rolls for both
        if state["phase"] == "move":
            path, body = "plays", {"play": chooser.choice(state["legal_plays"])["play"]}
        else:
            path, body = "rolls", {}
        response = client.post(
            f"{url}/{path}", json=body, headers={"Authorization": f"Bearer {tokens[side]}"}
        )
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError(f"the match at table {pairing['table']} did not end")


def test_todays_creation_body_plays_backgammon_with_the_cube(client: Client) -> None:
    # rule V-MATCH-VARIANT-1: without the new fields, today's meaning
    created = schedule(client)
    assert (created["variant"], created["cube"]) == ("backgammon", None)
    assert (created["tavli_format"], created["stage_variants"]) == (None, {})


def test_a_tournament_shows_its_variants_as_created(client: Client) -> None:
    created = schedule(
        client, variant="tavli", tavli_format="best_of_three", stage_variants={"final": "portes"}
    )
    shown = client.get(f"/api/v1/tournaments/{created['id']}").json()
    for tournament in (created, shown):
        assert (tournament["variant"], tournament["cube"]) == ("tavli", None)
        assert tournament["tavli_format"] == "best_of_three"
        assert tournament["stage_variants"] == {"final": "portes"}


def test_the_tavli_format_is_shown_only_where_a_stage_plays_tavli(client: Client) -> None:
    # rule V-TAVLI-MATCH-1: a tavli tournament whose every stage plays another variant has no
    # Tavli match, so no format to show; its body is accepted again as shown
    changes = {"variant": "tavli", "knockout_players": 0, "stage_variants": {"swiss": "portes"}}
    created = schedule(client, **changes)
    assert created["tavli_format"] is None
    again = schedule(client, **changes, tavli_format=created["tavli_format"])
    assert again["tavli_format"] is None
    assert schedule(client, variant="tavli")["tavli_format"] == "points"
    played = schedule(client, stage_variants={"final": "tavli"})
    assert played["tavli_format"] == "points"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"variant": "chess"}, "variant"),
        ({"stage_variants": {"final": "chess"}}, "stage_variants.final"),
        ({"stage_variants": {"quarter_final": "plakoto"}}, "stage_variants.quarter_final"),
        ({"stage_variants": {"round_robin": "plakoto"}}, "stage_variants.round_robin"),
        ({"knockout_players": 0, "stage_variants": {"final": "fevga"}}, "stage_variants.final"),
        ({"cube": False}, "cube"),
        ({"variant": "nardi", "tavli_format": "points"}, "tavli_format"),
        ({"stage_variants": ["final", "portes"]}, "stage_variants"),
    ],
)
def test_variant_settings_that_cannot_work_are_refused_and_nothing_is_stored(
    client: Client, changes: dict[str, Any], field: str
) -> None:
    # API.md "Matches and tournaments: variants": 422 with the field named, nothing stored
    response = client.post("/api/v1/tournaments", json={**SPRING, **changes}, headers=DIRECTOR)
    assert response.status_code == 422, response.text
    assert field in {error["field"] for error in response.json()["errors"]}
    assert client.get("/api/v1/tournaments").json() == []


def test_a_stage_the_format_never_plays_says_which_stages_it_plays(client: Client) -> None:
    body = {**SPRING, "stage_variants": {"consolation": "plakoto"}}
    response = client.post("/api/v1/tournaments", json=body, headers=DIRECTOR)
    assert response.json()["errors"] == [
        {
            "field": "stage_variants.consolation",
            "message": "this swiss tournament never plays a consolation stage "
            "(it plays swiss, semi_final, final, third_place)",
        }
    ]


def test_a_plakoto_swiss_with_a_backgammon_final_is_played_through_the_api_to_its_places(
    client: Client, clock: MovableClock
) -> None:
    # rule V-MATCH-VARIANT-1: each pairing's match plays its stage's variant; results are match
    # points as before and make the standings (API.md: match points, not game points)
    day = start_tournament(
        client,
        clock,
        4,
        variant="plakoto",
        stage_variants={"final": "backgammon"},
        dice="server",
        swiss_rounds=2,
        match_length=3,
        match_lengths={"semi_final": 1, "final": 1, "third_place": 1},
    )
    finals: dict[str, dict[str, Any]] = {}
    for number in range(1, 5):  # two Swiss rounds, the semi-finals, the final and 3rd place
        paired = day.rounds[-1]
        for pairing in paired["pairings"]:
            if pairing["match_id"] is not None:
                finals[pairing["match_id"]] = play_with_server_dice(
                    client, day, pairing, seed=number * 10 + pairing["table"]
                )
        if number < 4:
            pair_next(client, day)

    for final in finals.values():
        expected = "backgammon" if final["stage"] == "final" else "plakoto"
        assert (final["variant"], final["dice_mode"]) == (expected, "server")
        # rule V-CUBE-1: the cube by the variant's default
        assert (final["cube"] is None) == (expected == "plakoto")
        if expected == "plakoto":
            assert {game["variant"] for game in final["games"]} == {"plakoto"}
    matches = client.get(day.url("/matches")).json()
    assert all(m["status"] == "decided" and m["result_id"] for m in matches)
    swiss = [m for m in matches if m["stage"] == "swiss"]
    for row in standings(client, day):
        player = row["player_id"]
        won = sum(m["winner"] == player for m in swiss)
        scored = sum(
            m["score"]["a" if m["player_a"] == player else "b"]
            for m in swiss
            if player in (m["player_a"], m["player_b"])
        )
        assert (row["wins"], row["points"]) == (won, scored)
    assert [p["place"] for p in client.get(day.url("/places")).json()] == [1, 2, 3, 4]
    assert client.get(day.url("")).json()["status"] == "completed"


def test_a_best_of_three_tavli_match_shows_its_game_points_in_the_standings(
    client: Client, clock: MovableClock
) -> None:
    # rules V-TAVLI-MATCH-1, V-MATCH-VARIANT-1: the winner is who won two games, the standings
    # count game points (T-FMT-3): a single, a gammon lost and a single again are 2 v 2
    day = start_tournament(
        client,
        clock,
        2,
        variant="tavli",
        tavli_format="best_of_three",
        swiss_rounds=1,
        knockout_players=0,
        match_length=7,
    )
    pairing = day.rounds[0]["pairings"][0]
    match_id = pairing["match_id"]
    act(client, match_id, "rolls", {"dice": [6, 5]})  # the opening roll: a is on roll
    for loser, level in (("b", "single"), ("a", "gammon"), ("b", "single")):
        act(client, match_id, "resignations", {"level": level, "side": loser})
        final = act(client, match_id, "resignations/accept", {"side": "a" if loser == "b" else "b"})

    assert (final["phase"], final["winner"], final["score"]) == (
        "match_over",
        "a",
        {"a": 2, "b": 2},
    )
    assert [game["variant"] for game in final["games"]] == ["portes", "plakoto", "fevga"]
    [match] = client.get(day.url("/matches")).json()
    assert (match["status"], match["winner"]) == ("decided", pairing["player_a"])
    rows = standings(client, day)
    shown = [(row["player_id"], row["wins"], row["points"]) for row in rows]
    assert shown == [(pairing["player_a"], 1, 2), (pairing["player_b"], 0, 2)]
