"""POST /api/v1/matches/{id}/rolls/void (rule G-DICE-2) and the club clock's USBGF overtime
(rule G-CLOCK-1, ``clock_overtime_seconds``) over REST."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.match_script import DIRECTOR
from tests.api.test_matches import create, post

Client = TestClient[Any]


@pytest.fixture
def opened(client: Client) -> dict[str, Any]:
    """A match where side a won the opening roll with 3-1 and must play."""
    created = create(client)
    assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 200
    return created


def void(client: Client, created: dict[str, Any], side: str, reason: str = "cocked") -> Any:
    return post(client, created, "rolls/void", {"reason": reason}, side)


def events_of(client: Client, created: dict[str, Any]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(f"/api/v1/matches/{created['id']}/events").json()
    return events


# --- who may void -------------------------------------------------------------------------


def test_a_director_voids_the_latest_roll_at_once(client: Client, opened: dict[str, Any]) -> None:
    # rule G-DICE-2: a director can void it; the roll is rolled again
    answer = client.post(
        f"/api/v1/matches/{opened['id']}/rolls/void",
        json={"reason": "a die left the board"},
        headers=DIRECTOR,
    )

    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["phase"], body["dice"], body["opening_roll"], body["legal_plays"]) == (
        "opening",
        None,
        None,
        [],
    )
    last = events_of(client, opened)[-1]
    assert (last["type"], last["actor"]) == ("RollVoided", "director")
    assert last["data"] == {
        "roll_version": 3,
        "side": None,
        "dice": [3, 1],
        "reason": "a die left the board",
        "by": "director",
    }
    assert post(client, opened, "rolls", {"dice": [5, 2]}, "b").json()["dice"] == [5, 2]


def test_one_players_request_waits_for_the_opponent_and_both_requests_void_it(
    client: Client, opened: dict[str, Any]
) -> None:
    # rule G-DICE-2: both players can void it, one cannot
    asked = void(client, opened, "b", "die on a checker")
    again = void(client, opened, "b", "die on a checker")
    agreed = void(client, opened, "a", "yes")

    assert asked.status_code == 200
    assert (asked.json()["phase"], asked.json()["void_request"]) == ("move", {"side": "b"})
    assert again.status_code == 409
    assert again.json()["type"].endswith("/roll-not-voidable")
    assert "side a asks too" in again.json()["detail"]
    assert agreed.status_code == 200
    assert (agreed.json()["phase"], agreed.json()["void_request"]) == ("opening", None)
    types = [e["type"] for e in events_of(client, opened)]
    assert types[-2:] == ["RollVoidRequested", "RollVoided"]


def test_the_rolls_player_and_the_opponent_may_each_start_the_request(
    client: Client, opened: dict[str, Any]
) -> None:
    assert post(client, opened, "plays", {"play": "8/5 6/5"}, "a").status_code == 200
    assert post(client, opened, "rolls", {"dice": [6, 5]}, "b").status_code == 200

    void(client, opened, "a")  # the opponent of the roller asks first
    voided = void(client, opened, "b")

    assert (voided.json()["phase"], voided.json()["turn"], voided.json()["dice"]) == (
        "roll",
        "b",
        None,
    )


# --- refusals -----------------------------------------------------------------------------


def test_after_a_play_from_the_roll_there_is_nothing_to_void(
    client: Client, opened: dict[str, Any]
) -> None:
    # rule G-DICE-2: the latest roll before its play
    post(client, opened, "plays", {"play": "8/5 6/5"}, "a")
    before = events_of(client, opened)

    answer = client.post(
        f"/api/v1/matches/{opened['id']}/rolls/void", json={"reason": "late"}, headers=DIRECTOR
    )

    assert answer.status_code == 409
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert "no roll to void" in answer.json()["detail"]
    assert events_of(client, opened) == before


def test_a_void_needs_a_token_of_this_match_and_a_reason(
    client: Client, opened: dict[str, Any]
) -> None:
    path = f"/api/v1/matches/{opened['id']}/rolls/void"
    stranger = create(client)

    no_token = client.post(path, json={"reason": "cocked"})
    foreign = client.post(
        path,
        json={"reason": "cocked"},
        headers={"Authorization": f"Bearer {stranger['player_tokens']['a']}"},
    )
    no_reason = void(client, opened, "a", "")
    blank = void(client, opened, "a", "   ")
    unknown_field = post(client, opened, "rolls/void", {"reason": "x", "dice": [1, 1]}, "a")

    assert (no_token.status_code, foreign.status_code) == (401, 403)
    assert (no_reason.status_code, blank.status_code, unknown_field.status_code) == (
        422,
        422,
        422,
    )
    assert [e["field"] for e in blank.json()["errors"]] == ["reason"]


def test_a_player_cannot_ask_in_the_other_sides_name(
    client: Client, opened: dict[str, Any]
) -> None:
    answer = post(client, opened, "rolls/void", {"reason": "cocked", "side": "b"}, "a")

    assert answer.status_code == 403


def test_replay_by_version_shows_the_roll_before_its_void(
    client: Client, opened: dict[str, Any]
) -> None:
    void(client, opened, "a")
    void(client, opened, "b")
    path = f"/api/v1/matches/{opened['id']}"

    states = [client.get(path, params={"version": v}).json() for v in (3, 4, 5)]

    assert [(s["phase"], s["dice"], s["void_request"]) for s in states] == [
        ("move", [3, 1], None),
        ("move", [3, 1], {"side": "a"}),
        ("opening", None, None),
    ]


# --- G-CLOCK-1: the USBGF overtime -----------------------------------------------------------


def test_a_club_match_with_overtime_loses_at_the_second_expiry_only(
    client: Client, clock: MovableClock
) -> None:
    # rule G-CLOCK-1 (USBGF option): one overtime of 1 or 2 minutes; the second expiry loses
    created = create(client, match_length=1, clock="club", clock_overtime_seconds=60)
    post(client, created, "rolls", {"dice": [3, 1]}, "a")
    clock.advance(150)

    state = client.get(f"/api/v1/matches/{created['id']}").json()
    early = post(client, created, "timeouts", {}, "b")
    clock.advance(30)
    claimed = post(client, created, "timeouts", {}, "b")

    assert state["clocks"]["overtime_seconds"] == 60
    assert state["clocks"]["a"]["overtime"] is True
    assert (state["clocks"]["a"]["reserve_seconds"], state["clocks"]["a"]["expired"]) == (
        30.0,
        False,
    )
    assert early.status_code == 409
    assert claimed.status_code == 200
    assert (claimed.json()["status"], claimed.json()["winner"]) == ("finished", "b")


@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ({"clock": "club", "clock_overtime_seconds": 90}, 422),
        ({"clock": "app", "clock_overtime_seconds": 60}, 422),
        ({"clock": "club", "clock_overtime_seconds": 120}, 201),
    ],
)
def test_the_overtime_is_0_60_or_120_seconds_of_the_club_clock(
    client: Client, fields: dict[str, Any], status: int
) -> None:
    body = {"player_a": "anna", "player_b": "ben", "match_length": 5, **fields}

    answer = client.post("/api/v1/matches", json=body, headers=DIRECTOR)

    assert answer.status_code == status, answer.text


def test_the_audit_stream_shows_the_void_with_its_reason(
    client: Client, opened: dict[str, Any]
) -> None:
    void(client, opened, "b", "die on a checker")
    void(client, opened, "a", "agreed")

    stream = client.get(f"/api/v1/audit/streams/{opened['id']}", headers=DIRECTOR).json()

    assert [(e["type"], e["data"].get("reason")) for e in stream[-3:]] == [
        ("OpeningRollMade", None),
        ("RollVoidRequested", "die on a checker"),
        ("RollVoided", "agreed"),
    ]


@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ({"clock_overtime_seconds": 120}, 201),
        ({"clock_overtime_seconds": 30}, 422),
        ({"clock": "app", "clock_overtime_seconds": 60}, 422),
    ],
)
def test_a_tournament_takes_the_overtime_option_too(
    client: Client, fields: dict[str, Any], status: int
) -> None:
    # rule G-CLOCK-1, API.md: "also on tournament creation"
    body = {"name": "Frühlingsturnier 2026", "date": "2026-04-18", "venue": "Amberg", **fields}

    answer = client.post("/api/v1/tournaments", json=body, headers=DIRECTOR)

    assert answer.status_code == status, answer.text
    if status == 422:
        assert [e["field"] for e in answer.json()["errors"]] == ["clock_overtime_seconds"]


def test_a_voided_server_roll_stays_in_the_dice_proof_marked_and_verified(client: Client) -> None:
    # rules G-DICE-1 and G-DICE-2: the voided roll came from the seed like every other
    created = create(client, match_length=1, dice="server")
    path = f"/api/v1/matches/{created['id']}"
    state = post(client, created, "rolls", {}, "a").json()
    while state["phase"] == "opening":  # rule G-OPEN-1: a tie is rolled again
        state = post(client, created, "rolls", {}, "a").json()
    voided_version = state["version"]
    client.post(f"{path}/rolls/void", json={"reason": "the app froze"}, headers=DIRECTOR)
    state = post(client, created, "rolls", {}, "a").json()
    while state["phase"] == "opening":
        state = post(client, created, "rolls", {}, "a").json()
    starter = state["turn"]
    post(client, created, "resignations", {"level": "single"}, starter)
    other = "b" if starter == "a" else "a"
    assert post(client, created, "resignations/accept", {}, other).json()["status"] == "finished"

    proof = client.get(f"{path}/dice-proof").json()

    assert proof["verified"] is True
    assert [r["voided"] for r in proof["rolls"] if r["version"] == voided_version] == [True]
    assert [r["index"] for r in proof["rolls"]] == list(range(len(proof["rolls"])))
    assert sum(r["voided"] for r in proof["rolls"]) == 1
