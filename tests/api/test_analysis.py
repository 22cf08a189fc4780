"""POST /api/v1/analysis/legal-plays and GET /api/v1/analysis/position over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from domain.backgammon import Position, legal_plays

LegalPlaysClient = TestClient[Any]


def test_legal_plays_lists_every_play_with_its_resulting_position(client: LegalPlaysClient) -> None:
    response = client.post(
        "/api/v1/analysis/legal-plays", json={"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}
    )
    assert response.status_code == 200
    plays = response.json()["plays"]
    expected = legal_plays(Position.starting(), (3, 1))
    assert {p["position_id"] for p in plays} == {p.position_id for p in expected}
    making_the_five_point = next(
        p for p in expected if {(m.source, m.destination) for m in p.moves} == {(8, 5), (6, 5)}
    )
    assert {
        "play": "8/5 6/5",
        "position_id": making_the_five_point.position_id,
        "game_result": None,
    } in plays


def test_opening_six_six_has_eleven_plays(client: LegalPlaysClient) -> None:
    response = client.post(
        "/api/v1/analysis/legal-plays", json={"position_id": "4HPwATDgc/ABMA", "dice": [6, 6]}
    )
    assert len(response.json()["plays"]) == 11


def test_a_game_ending_play_names_its_result(client: LegalPlaysClient) -> None:
    # rule G-WIN-1: the loser has borne off nothing: a gammon.
    mover = (1,) + (0,) * 24
    loser = (0,) * 11 + (15,) + (0,) * 13
    position = Position(mover, loser)
    response = client.post(
        "/api/v1/analysis/legal-plays", json={"position_id": position.position_id, "dice": [2, 1]}
    )
    assert response.json()["plays"] == [
        {
            "play": "1/off",
            "position_id": legal_plays(position, (2, 1))[0].position_id,
            "game_result": "gammon",
        }
    ]


def test_no_legal_play_gives_an_empty_list(client: LegalPlaysClient) -> None:
    closed = (2, 2, 2, 2, 2, 2) + (0,) * 6 + (3,) + (0,) * 12
    position = Position((0,) * 12 + (14,) + (0,) * 11 + (1,), closed)
    response = client.post(
        "/api/v1/analysis/legal-plays", json={"position_id": position.position_id, "dice": [6, 5]}
    )
    assert response.status_code == 200
    assert response.json() == {"plays": []}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"position_id": "4HPwATDgc/ABMA", "dice": [7, 1]}, "dice[0]"),
        ({"position_id": "4HPwATDgc/ABMA", "dice": [0, 1]}, "dice[0]"),
        ({"position_id": "4HPwATDgc/ABMA", "dice": [1]}, "dice"),
        ({"position_id": "4HPwATDgc/ABMA", "dice": ["a", 1]}, "dice[0]"),
        ({"position_id": "4HPwATDgc/ABMA"}, "dice"),
        ({"dice": [1, 2]}, "position_id"),
        ({"position_id": 12, "dice": [1, 2]}, "position_id"),
        ({"position_id": "4HPwATDgc/AB!A", "dice": [1, 2]}, "position_id"),
        ({"position_id": "//////////////", "dice": [1, 2]}, "position_id"),
        ({"position_id": "short", "dice": [1, 2]}, "position_id"),
    ],
)
def test_bad_input_is_a_422_problem_naming_the_field(
    client: LegalPlaysClient, body: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/analysis/legal-plays", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == 422
    assert problem["type"].endswith("/invalid-input")
    assert [error["field"] for error in problem["errors"]] == [field]


def test_malformed_json_is_a_400_problem(client: LegalPlaysClient) -> None:
    response = client.post(
        "/api/v1/analysis/legal-plays",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["status"] == 400


def test_position_decodes_the_board_and_pip_counts(client: LegalPlaysClient) -> None:
    response = client.get("/api/v1/analysis/position", params={"position_id": "mGfwATDgc/ABMA"})
    assert response.status_code == 200
    body = response.json()
    assert body["on_roll"]["pip_count"] == 167
    assert body["opponent"]["pip_count"] == 161
    assert body["opponent"]["points"][3] == 2
    assert body["match"] is None


def test_position_with_a_bad_id_is_a_422_naming_the_field(client: LegalPlaysClient) -> None:
    response = client.get("/api/v1/analysis/position", params={"position_id": "nonsense"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "position_id"


def test_position_with_a_match_id_decodes_the_match_state(client: LegalPlaysClient) -> None:
    # gnubg: a 7-point match at 0-0, player 0 to roll or double.
    response = client.get(
        "/api/v1/analysis/position",
        params={"position_id": "4HPwATDgc/ABMA", "match_id": "MAHgAAAAAAAE"},
    )
    assert response.status_code == 200
    match = response.json()["match"]
    assert match["match_length"] == 7
    assert match["score"] == [0, 0]
    assert match["cube_value"] == 1
    assert match["cube_owner"] is None
    assert match["game_state"] == "playing"


def test_position_with_a_bad_match_id_is_a_422_naming_the_field(client: LegalPlaysClient) -> None:
    response = client.get(
        "/api/v1/analysis/position",
        params={"position_id": "4HPwATDgc/ABMA", "match_id": "not-a-match!"},
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "match_id"


def test_a_token_with_non_ascii_characters_is_refused_not_a_crash(
    client: LegalPlaysClient,
) -> None:
    response = client.post(
        "/api/v1/seasons",
        json={"name": "S", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
        headers={b"Authorization": "Bearer caf\u00e9".encode("latin-1")},
    )
    # nobody holds such a token: unauthenticated (API.md: 401 no or bad token)
    assert response.status_code == 401
    assert response.json()["type"].endswith("/not-authenticated")
