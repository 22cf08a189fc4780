"""A token nobody holds is a 401 on every protected endpoint; a director's or a player's token
without the right stays a 403 (API.md: "401 no or bad token, 403 wrong role or not your turn")."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_matches import create
from tests.api.test_openapi import _example_url, _operations
from tests.api.test_tournament_day import start_tournament
from tests.api.test_tournaments import register, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
PROBLEMS = "https://bgtd.example/problems/"
MISTYPED = {"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN[:-1]}N"}
"""The club's director token with its last letter mistyped."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_unknown_token(answer: Any) -> None:
    assert answer.status_code == 401, answer.text
    problem = answer.json()
    assert (problem["type"], problem["status"]) == (PROBLEMS + "not-authenticated", 401)
    assert "unknown token" in problem["detail"]
    assert answer.headers["www-authenticate"] == "Bearer"


def test_a_mistyped_director_token_is_unknown_on_every_director_endpoint(client: Client) -> None:
    seasons = client.post(
        "/api/v1/seasons",
        json={"name": "Saison 2026", "starts_on": "2026-03-01", "ends_on": "2027-02-28"},
        headers=MISTYPED,
    )
    assert_unknown_token(seasons)
    tournament = schedule(client)["id"]
    for method, path in [
        ("GET", "/api/v1/directors"),
        ("GET", f"/api/v1/tournaments/{tournament}/registrations"),
        ("POST", f"/api/v1/tournaments/{tournament}/start"),
        ("GET", f"/api/v1/audit/streams/{tournament}"),
        ("POST", "/api/v1/dev/clock/advance"),
        ("GET", "/api/v1/jobs"),
    ]:
        answer = client.request(method, path, json={"seconds": 1} if method == "POST" else None)
        assert answer.status_code == 401, f"{method} {path}: without a token"
        answer = client.request(method, path, headers=MISTYPED, json=None)
        assert_unknown_token(answer)
    # nothing was done with it
    assert client.get("/api/v1/seasons").json() == []


def test_no_secured_operation_forbids_a_token_nobody_holds(client: Client) -> None:
    # every operation that needs a token, with ids that exist nowhere: a 401 where the token
    # is asked for first, a 404 where the missing record is found first; a 403 never
    document = client.get("/schema/openapi.json").json()
    secured = [(m, p, op) for m, p, op in _operations(document) if op.get("security")]
    assert len(secured) > 40
    for method, path, operation in secured:
        url = _example_url(path, operation)
        answer = client.request(method.upper(), url, headers=MISTYPED, json={})
        assert answer.status_code in (401, 404, 422), f"{method} {path}: {answer.text}"


def test_a_players_token_without_the_right_is_still_forbidden(client: Client) -> None:
    tournament = schedule(client)["id"]
    mine, theirs = register(client, tournament, 1), register(client, tournament, 2)
    player = bearer(mine["player_token"])
    # a director's endpoint with a player's token: the wrong role
    directors = client.get("/api/v1/directors", headers=player)
    assert directors.status_code == 403
    assert directors.json()["detail"] == "only a tournament director may do this"
    # another player's registration
    path = f"/api/v1/tournaments/{tournament}/registrations/{theirs['registration_id']}"
    assert client.delete(path, headers=player).status_code == 403
    # a token nobody holds: unknown
    assert_unknown_token(client.delete(path, headers=bearer("not-a-token")))
    assert client.get(f"/api/v1/tournaments/{tournament}/seats").json()["taken"] == 2


def test_a_match_command_with_a_token_nobody_holds_is_unknown(client: Client) -> None:
    ours, other = create(client), create(client, player_a="carla", player_b="dora")
    roll = f"/api/v1/matches/{ours['id']}/rolls"
    before = client.get(f"/api/v1/matches/{ours['id']}").json()["version"]
    # a player of another match: somebody's token, not of this match
    stranger = client.post(roll, json={}, headers=bearer(other["player_tokens"]["a"]))
    assert stranger.status_code == 403
    assert_unknown_token(client.post(roll, json={}, headers=bearer("not-a-token")))
    dispute = {"match_id": ours["id"], "version": 1, "claim": "the dice were cocked"}
    disputed = client.post("/api/v1/disputes", json=dispute, headers=bearer("not-a-token"))
    assert_unknown_token(disputed)
    assert client.get(f"/api/v1/matches/{ours['id']}").json()["version"] == before


def test_a_report_with_a_token_nobody_holds_is_unknown(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    body = {
        "match_id": table["match_id"],
        "winner": table["player_a"],
        "points_a": table["match_length"],
        "points_b": 0,
    }
    assert_unknown_token(client.post(day.url("/reports"), json=body, headers=MISTYPED))
    assert_unknown_token(client.post(day.url("/reports"), json=body, headers=bearer("x")))
    # the director's token is somebody's: it is refused as no player's (403), not unknown
    assert client.post(day.url("/reports"), json=body, headers=DIRECTOR).status_code == 403
