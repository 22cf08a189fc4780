"""Matches in a variant over REST (API.md "Matches and tournaments: variants"): whole matches
with server dice in each variant, replay by version, and the refusals of the contract."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.match_script import DIRECTOR

Client = TestClient[Any]
VARIANTS = ("portes", "plakoto", "fevga", "tavla", "nardi")
MAX_ACTIONS = 4000


def create(client: Client, **fields: Any) -> Any:
    body = {"player_a": "anna", "player_b": "ben", "match_length": 3, **fields}
    return client.post("/api/v1/matches", json=body, headers=DIRECTOR)


def act(client: Client, match_id: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/v1/matches/{match_id}/{path}", json=body, headers=DIRECTOR)
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


@dataclass
class PlayedMatch:
    id: str
    final: dict[str, Any]
    responses: list[dict[str, Any]] = field(default_factory=list)


def play_to_the_end(client: Client, variant: str, seed: int, **fields: Any) -> PlayedMatch:
    """Server dice; each side picks a random legal play (seeded), given by notation or, every
    other time, by the board after it."""
    response = create(client, variant=variant, dice="server", **fields)
    assert response.status_code == 201, response.text
    match_id = response.json()["id"]
    state = response.json()["match"]
    chooser = random.Random(seed)
    played = PlayedMatch(match_id, state)
    for count in range(MAX_ACTIONS):
        if state["status"] == "finished":
            break
        if state["phase"] == "move":
            chosen = chooser.choice(state["legal_plays"])
            body = {"play": chosen["play"]} if count % 2 else {"board": chosen["board"]}
            state = act(client, match_id, "plays", {**body, "side": state["turn"]})
        else:
            side = {"side": state["turn"]} if state["turn"] else {}
            state = act(client, match_id, "rolls", side)
        played.responses.append(state)
    played.final = state
    return played


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_match_in_each_variant_is_played_with_server_dice_to_its_length(
    client: Client, variant: str
) -> None:
    # rules V-MATCH-VARIANT-1, V-WIN-1, V-CUBE-1
    played = play_to_the_end(client, variant, seed=VARIANTS.index(variant))
    final = played.final

    assert final["status"] == "finished"
    assert (final["variant"], final["game_variant"]) == (variant, variant)
    assert (final["cube_enabled"], final["cube"]) == (False, None)
    winner = final["winner"]
    assert final["score"][winner] >= 3
    games = final["games"]
    assert {game["variant"] for game in games} == {variant}
    assert {game["result"] for game in games} <= {"single", "gammon", "mother", "draw"}
    for side in ("a", "b"):
        won = sum(game["points"] for game in games if game["winner"] == side)
        assert won == final["score"][side]
    assert [game["game"] for game in games] == list(range(1, len(games) + 1))


@pytest.mark.parametrize("variant", ["plakoto", "nardi", "tavli"])
def test_every_state_of_a_variant_match_is_reproduced_by_asking_for_its_version(
    client: Client, variant: str
) -> None:
    played = play_to_the_end(client, variant, seed=7)

    for response in played.responses:
        replayed = client.get(f"/api/v1/matches/{played.id}?version={response['version']}")
        assert replayed.json() == response  # boards, pins, games and legal plays included


@pytest.mark.parametrize("tavli_format", ["points", "best_of_three"])
def test_a_tavli_match_cycles_portes_plakoto_fevga_and_the_winner_starts_the_next_game(
    client: Client, tavli_format: str
) -> None:
    # rule V-TAVLI-MATCH-1
    played = play_to_the_end(client, "tavli", seed=3, tavli_format=tavli_format)
    final = played.final
    games = final["games"]

    assert (final["status"], final["variant"]) == ("finished", "tavli")
    decided = [game for game in games if game["result"] != "draw"]
    cycle = ["portes", "plakoto", "fevga"]
    assert [game["variant"] for game in decided] == [cycle[n % 3] for n in range(len(decided))]
    assert all(game["variant"] == "plakoto" for game in games if game["result"] == "draw")
    wins = {side: sum(game["winner"] == side for game in games) for side in ("a", "b")}
    if tavli_format == "best_of_three":
        assert wins[final["winner"]] == 2
        assert max(wins.values()) == 2
    else:
        assert final["score"][final["winner"]] >= 3
    for previous in games:
        later = [r for r in played.responses if r["game"] == previous["game"] + 1]
        if not later or previous["winner"] is None:
            continue  # the last game, or a drawn Plakoto (replayed by its starter)
        # no opening roll: the previous game's winner rolls first, in the cycle's next variant
        decided_so_far = sum(g["winner"] is not None for g in games[: previous["game"]])
        assert (later[0]["phase"], later[0]["turn"]) == ("roll", previous["winner"])
        assert later[0]["game_variant"] == cycle[decided_so_far % 3]
    assert len(games) >= 2


def test_the_variant_board_is_shown_from_the_side_on_roll_and_position_ids_only_where_they_exist(
    client: Client,
) -> None:
    plakoto = create(client, variant="plakoto").json()["match"]
    portes = create(client, variant="portes").json()["match"]

    # rule V-START-1: all 15 on the side's own 24-point; pins listed in plakoto only
    assert plakoto["board"] == {
        "on_roll": [0] * 24 + [15],
        "opponent": [0] * 24 + [15],
        "pinned": {"on_roll": [], "opponent": []},
    }
    assert (plakoto["position_id"], plakoto["match_id"]) == (None, None)
    assert portes["position_id"] == "4HPwATDgc/ABMA"  # G-SETUP-1
    assert "pinned" not in portes["board"]


@pytest.mark.parametrize(("variant", "phase"), [("plakoto", "roll"), ("tavla", "move")])
def test_the_opening_starter_rolls_again_except_in_tavla(
    client: Client, variant: str, phase: str
) -> None:
    # rule V-OPEN-1: Tavla keeps G-OPEN-1, the others roll both dice again
    match_id = create(client, variant=variant).json()["id"]

    state = act(client, match_id, "rolls", {"dice": [5, 2]})

    assert (state["phase"], state["turn"]) == (phase, "a")
    assert state["dice"] == ([5, 2] if variant == "tavla" else None)


def test_a_played_plakoto_step_pins_and_the_board_can_be_sent_back(client: Client) -> None:
    match_id = create(client, variant="plakoto").json()["id"]
    act(client, match_id, "rolls", {"dice": [6, 1]})
    act(client, match_id, "rolls", {"dice": [6, 5], "side": "a"})
    state = act(client, match_id, "plays", {"play": "24/13", "side": "a"})  # combined form
    assert state["board"]["opponent"][13] == 1

    state = act(client, match_id, "rolls", {"dice": [6, 6], "side": "b"})
    # rule V-PLAKOTO-2: a's 13 is b's 12 (V-BOARD-2), two sixes from b's 24
    pinning = [p for p in state["legal_plays"] if p["board"]["pinned"]["on_roll"] == [13]]
    assert pinning
    state = act(client, match_id, "plays", {"board": pinning[0]["board"], "side": "b"})

    assert (state["turn"], state["board"]["pinned"]) == ("a", {"on_roll": [13], "opponent": []})


def test_a_variant_resigns_single_or_gammon_but_not_backgammon(client: Client) -> None:
    # rule V-RESIGN-1
    match_id = create(client, variant="fevga").json()["id"]
    act(client, match_id, "rolls", {"dice": [3, 1]})

    refused = client.post(
        f"/api/v1/matches/{match_id}/resignations",
        json={"level": "backgammon", "side": "b"},
        headers=DIRECTOR,
    )
    act(client, match_id, "resignations", {"level": "gammon", "side": "b"})
    state = act(client, match_id, "resignations/accept", {"side": "a"})

    assert refused.status_code == 422
    assert "V-RESIGN-1" in refused.json()["detail"]
    assert state["score"] == {"a": 2, "b": 0}
    assert state["games"] == [
        {"game": 1, "variant": "fevga", "winner": "a", "result": "gammon", "points": 2}
    ]


def test_the_cube_is_off_in_a_variant_unless_asked_for(client: Client) -> None:
    # rule V-CUBE-1
    plain = create(client, variant="portes").json()["id"]
    with_cube = create(client, variant="portes", cube=True).json()["id"]
    for match_id in (plain, with_cube):
        act(client, match_id, "rolls", {"dice": [3, 1]})
        act(client, match_id, "rolls", {"dice": [3, 1], "side": "a"})
        act(client, match_id, "plays", {"play": "8/5 6/5", "side": "a"})

    refused = client.post(
        f"/api/v1/matches/{plain}/cube", json={"action": "double"}, headers=DIRECTOR
    )
    doubled = act(client, with_cube, "cube", {"action": "double"})

    assert refused.status_code == 409
    assert refused.json()["type"].endswith("/cube-disabled")
    assert doubled["cube"] == {"value": 1, "owner": None, "offered": 2}


def test_a_variant_match_is_not_exported_as_mat_and_the_answer_says_why(client: Client) -> None:
    match_id = create(client, variant="tavla").json()["id"]

    response = client.get(f"/api/v1/matches/{match_id}/export.mat")

    assert response.status_code == 409
    problem = response.json()
    assert problem["type"].endswith("/not-exportable")
    assert "GNU Backgammon" in problem["detail"]
    assert "3 points" in problem["detail"]


def test_a_backgammon_match_shows_its_variant_and_its_cube(client: Client) -> None:
    state = create(client).json()["match"]

    assert (state["variant"], state["game_variant"], state["cube_enabled"]) == (
        "backgammon",
        "backgammon",
        True,
    )
    assert (state["board"], state["games"], state["cube"]["value"]) == (None, [], 1)


@pytest.mark.parametrize(
    ("fields", "field_name"),
    [
        ({"variant": "chess"}, "variant"),
        ({"variant": "backgammon", "cube": False}, "cube"),
        ({"variant": "plakoto", "tavli_format": "best_of_three"}, "tavli_format"),
        ({"variant": "nardi", "match_length": 0}, "match_length"),
    ],
)
def test_a_match_with_a_bad_combination_of_variant_options_is_refused(
    client: Client, fields: dict[str, Any], field_name: str
) -> None:
    response = create(client, **fields)

    assert response.status_code == 422
    assert field_name in response.text


@pytest.mark.parametrize(
    ("variant", "body"),
    [
        ("plakoto", {"position_id": "4HPwATDgc/ABMA"}),
        ("fevga", {"board": {"on_roll": [0] * 25, "opponent": [0] * 25, "pinned": {}}}),
        ("nardi", {"play": "24/?"}),
    ],
)
def test_a_play_the_variant_cannot_read_is_refused_with_422(
    client: Client, variant: str, body: dict[str, Any]
) -> None:
    match_id = create(client, variant=variant).json()["id"]
    act(client, match_id, "rolls", {"dice": [3, 1]})
    act(client, match_id, "rolls", {"dice": [3, 1], "side": "a"})

    response = client.post(
        f"/api/v1/matches/{match_id}/plays", json={**body, "side": "a"}, headers=DIRECTOR
    )

    assert response.status_code == 422, response.text
