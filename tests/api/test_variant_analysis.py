"""POST /api/v1/analysis/legal-plays with a variant board (API.md "Analysis (stateless):
variants"): the board encoding, the pinned lists, the notation and every 422 of the contract."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

Client = TestClient[Any]
URL = "/api/v1/analysis/legal-plays"
STANDARD = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
ALL_ON_24 = [0] * 24 + [15]
EMPTY = [0] * 25

CONTRACT_EXAMPLE = {
    "variant": "plakoto",
    "board": {
        "on_roll": [0, 2, 4, 2, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0],
        "opponent": [0, 3, 0, 0, 4, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0],
        "pinned": {"on_roll": [], "opponent": [21]},
    },
    "dice": [4, 6],
}


def board_with(points: dict[int, int]) -> list[int]:
    return [points.get(index, 0) for index in range(25)]


def test_the_contract_example_has_its_three_plakoto_plays(client: Client) -> None:
    # rules V-PLAKOTO-2, V-PLAKOTO-6 (6/off is not allowed while checkers are outside home)
    response = client.post(URL, json=CONTRACT_EXAMPLE)
    assert response.status_code == 200
    plays = response.json()["plays"]
    assert sorted(sorted(play["play"].split()) for play in plays) == sorted(
        sorted(play.split()) for play in ("22/16 6/2", "22/16 22/18", "22/16 16/12")
    )
    # API.md: clients identify a play by its board; the steps may be shown in either order
    by_board = {str(play["board"]): play for play in plays}
    expected_board = {
        "on_roll": CONTRACT_EXAMPLE["board"]["opponent"],  # type: ignore[index]
        "opponent": [0, 2, 5, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 4, 0, 0],
        "pinned": {"on_roll": [21], "opponent": []},
    }
    first = by_board[str(expected_board)]
    assert first["play"] in ("22/16 6/2", "6/2 22/16")
    assert (first["game_result"], first["points"]) == (None, None)


def test_a_play_s_board_can_be_sent_back_for_the_next_turn(client: Client) -> None:
    first = client.post(URL, json=CONTRACT_EXAMPLE).json()["plays"][0]
    response = client.post(
        URL, json={"variant": "plakoto", "board": first["board"], "dice": [1, 2]}
    )
    assert response.status_code == 200
    assert response.json()["plays"]


def test_the_fevga_opening_six_six_plays_one_checker_one_step(client: Client) -> None:
    # rule V-FEVGA-3: a second checker may not leave 24 before the first passed the
    # opponent's start; 18/12 lands on the opponent's checkers (V-FEVGA-2).
    body = {"variant": "fevga", "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24}}
    response = client.post(URL, json=body | {"dice": [6, 6]})
    assert response.json() == {
        "plays": [
            {
                "play": "24/18",
                "board": {"on_roll": ALL_ON_24, "opponent": board_with({18: 1, 24: 14})},
                "game_result": None,
                "points": None,
            }
        ]
    }


def test_a_portes_play_marks_its_hit_and_enters_from_the_bar(client: Client) -> None:
    # rules V-PORTES-1 (G-BAR-1, G-MOVE-2): the bar is index 0; a hit has its *.
    on_roll = board_with({0: 1, 6: 14})
    opponent = board_with({3: 1, 24: 14})  # the opponent's 3 is the mover's 22
    response = client.post(
        URL,
        json={
            "variant": "portes",
            "board": {"on_roll": on_roll, "opponent": opponent},
            "dice": [3, 1],
        },
    )
    plays = {play["play"] for play in response.json()["plays"]}
    assert "bar/22* 6/5" in plays or "6/5 bar/22*" in plays
    assert all(play.startswith("bar/") for play in plays)


def test_a_tavla_win_against_a_checker_in_the_winner_s_home_is_a_mars_not_three(
    client: Client,
) -> None:
    # rules V-WIN-1, V-TAVLA-2: what gnubg scores as a backgammon is 2 points.
    on_roll = board_with({1: 1})
    opponent = board_with({20: 1, 10: 14})  # its 20 is the winner's home board point 5
    response = client.post(
        URL,
        json={
            "variant": "tavla",
            "board": {"on_roll": on_roll, "opponent": opponent},
            "dice": [2, 1],
        },
    )
    assert response.json()["plays"] == [
        {
            "play": "1/off",
            "board": {"on_roll": opponent, "opponent": EMPTY},
            "game_result": "gammon",
            "points": 2,
        }
    ]


def test_a_finished_plakoto_game_has_no_plays(client: Client) -> None:
    # API.md: the on-roll side's mother pinned, the opponent's 24-point empty: it lost.
    on_roll = board_with({24: 1, 10: 14})
    opponent = board_with({1: 1, 10: 14})  # the opponent's 1 is the mover's 24
    body = {
        "variant": "plakoto",
        "board": {"on_roll": on_roll, "opponent": opponent, "pinned": {"on_roll": [24]}},
        "dice": [6, 5],
    }
    assert client.post(URL, json=body).json() == {"plays": []}


def test_the_backgammon_request_still_answers_with_position_ids(client: Client) -> None:
    response = client.post(URL, json={"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]})
    assert response.status_code == 200
    assert "position_id" in response.json()["plays"][0]


def plakoto(on_roll: list[int], opponent: list[int], pinned: Any = None) -> dict[str, Any]:
    board: dict[str, Any] = {"on_roll": on_roll, "opponent": opponent}
    if pinned is not None:
        board["pinned"] = pinned
    return {"variant": "plakoto", "board": board, "dice": [1, 2]}


MIXED_ON_4 = (board_with({4: 1, 24: 14}), board_with({21: 2, 1: 13}))
"""The on-roll side's point 4 holds its single checker and two of the opponent's."""


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {
                "variant": "chouette",
                "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "variant",
        ),
        (
            {
                "variant": "backgammon",
                "board": {"on_roll": STANDARD, "opponent": STANDARD},
                "dice": [1, 2],
            },
            "variant",
        ),
        (
            {
                "variant": "tavli",
                "board": {"on_roll": STANDARD, "opponent": STANDARD},
                "dice": [1, 2],
            },
            "variant",
        ),
        ({"variant": "fevga", "dice": [1, 2]}, "board"),
        ({"variant": "fevga", "board": {"on_roll": ALL_ON_24}, "dice": [1, 2]}, "board.opponent"),
        (
            {
                "variant": "fevga",
                "board": {"on_roll": ALL_ON_24[1:], "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "board.on_roll",
        ),
        (
            {
                "variant": "fevga",
                "board": {"on_roll": [-1, *ALL_ON_24[1:]], "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "board.on_roll[0]",
        ),
        (
            {
                "variant": "fevga",
                "board": {"on_roll": [True, *ALL_ON_24[1:]], "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "board.on_roll[0]",
        ),
        (
            {
                "variant": "fevga",
                "board": {"on_roll": ["1", *ALL_ON_24[1:]], "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "board.on_roll[0]",
        ),
        (
            {
                "variant": "fevga",
                "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24, "bar": 0},
                "dice": [1, 2],
            },
            "board.bar",
        ),
        (
            {
                "variant": "nardi",
                "board": {"on_roll": board_with({24: 16}), "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "board.on_roll",
        ),
        (
            {
                "variant": "nardi",
                "board": {"on_roll": board_with({0: 1, 24: 14}), "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "board.on_roll[0]",
        ),
        (
            {
                "variant": "plakoto",
                "board": {"on_roll": ALL_ON_24, "opponent": board_with({0: 1})},
                "dice": [1, 2],
            },
            "board.opponent[0]",
        ),
        # both sides on one point: the mover's 13 is the fevga opponent's 1
        (
            {
                "variant": "fevga",
                "board": {
                    "on_roll": board_with({13: 1, 24: 14}),
                    "opponent": board_with({1: 1, 24: 14}),
                },
                "dice": [1, 2],
            },
            "board",
        ),
        (
            {
                "variant": "portes",
                "board": {"on_roll": board_with({13: 15}), "opponent": board_with({12: 15})},
                "dice": [1, 2],
            },
            "board",
        ),
        (
            {
                "variant": "fevga",
                "board": {
                    "on_roll": ALL_ON_24,
                    "opponent": ALL_ON_24,
                    "pinned": {"on_roll": [], "opponent": []},
                },
                "dice": [1, 2],
            },
            "board.pinned",
        ),
        (plakoto(*MIXED_ON_4), "board.pinned"),  # a mixed point not listed
        (plakoto(*MIXED_ON_4, {"on_roll": [4], "opponent": [21]}), "board.pinned.opponent"),
        (plakoto(*MIXED_ON_4, {"opponent": [21]}), "board.pinned.opponent"),  # two, not one
        (plakoto(*MIXED_ON_4, {"on_roll": [4, 4]}), "board.pinned.on_roll"),
        (plakoto(ALL_ON_24, ALL_ON_24, {"on_roll": [24]}), "board.pinned.on_roll"),  # 15 there
        (
            plakoto(board_with({5: 1, 24: 14}), ALL_ON_24, {"on_roll": [5]}),
            "board.pinned.on_roll",
        ),  # not mixed
        (plakoto(ALL_ON_24, ALL_ON_24, {"on_roll": [25]}), "board.pinned.on_roll[0]"),
        (plakoto(ALL_ON_24, ALL_ON_24, {"on_roll": [0]}), "board.pinned.on_roll[0]"),
        (plakoto(ALL_ON_24, ALL_ON_24, {"both": []}), "board.pinned.both"),
        (
            {
                "variant": "nardi",
                "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24},
                "dice": [7, 2],
            },
            "dice[0]",
        ),
        (
            {
                "variant": "nardi",
                "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24},
                "dice": [2],
            },
            "dice",
        ),
        (
            {
                "variant": "nardi",
                "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24},
                "dice": [2, 2, 2],
            },
            "dice",
        ),
        ({"variant": "nardi", "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24}}, "dice"),
        (
            {
                "variant": "nardi",
                "position_id": "4HPwATDgc/ABMA",
                "board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24},
                "dice": [1, 2],
            },
            "position_id",
        ),
        ({"board": {"on_roll": ALL_ON_24, "opponent": ALL_ON_24}, "dice": [1, 2]}, "variant"),
    ],
)
def test_every_board_the_contract_refuses_is_a_422_naming_the_field(
    client: Client, body: dict[str, Any], field: str
) -> None:
    response = client.post(URL, json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert [error["field"] for error in response.json()["errors"]] == [field]


def test_a_structurally_valid_board_that_cannot_arise_is_analysed_as_given(client: Client) -> None:
    # API.md: borne-off checkers beside checkers outside home, and a six-block already there.
    on_roll = board_with({24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 10: 2})
    response = client.post(
        URL,
        json={
            "variant": "fevga",
            "board": {"on_roll": on_roll, "opponent": ALL_ON_24},
            "dice": [1, 2],
        },
    )
    assert response.status_code == 200
