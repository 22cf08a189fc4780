"""Video evidence deleted after its game (C-VIDEO-1), held by an open dispute until it is
decided; disputes replayed from the history (C-DISPUTE-1); run-out clocks flagged (G-CLOCK-2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from service.settings import Settings
from tests.api.test_matches import bearer, create, post
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def run_jobs(client: Client) -> list[Any]:
    services = client.app.state.services
    runs: list[Any] = services.jobs.run_due(services.clock.now())
    return runs


def events_of(client: Client, kind: str) -> list[Any]:
    services = client.app.state.services
    return [
        services.store.decode(n)
        for n in services.store.notifications(0, 100_000)
        if n.topic.endswith(":" + kind)
    ]


def recording(settings: Settings, name: str = "table1-game1.mp4") -> Path:
    """A recording in the evidence folder (by default ``<data-dir>/evidence``)."""
    path = settings.data_dir / "evidence" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00video")
    return path


def register(client: Client, match_id: str, game: int, uri: str) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/matches/{match_id}/videos", json={"game": game, "uri": uri}, headers=DIRECTOR
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def end_game_1(client: Client, created: dict[str, Any]) -> None:
    """Side a opens with 3-1 and plays; b doubles and a drops: game 1 is over."""
    assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 200
    assert post(client, created, "plays", {"play": "8/5 6/5"}, "a").status_code == 200
    assert post(client, created, "cube", {"action": "double"}, "b").status_code == 200
    assert post(client, created, "cube", {"action": "drop"}, "a").json()["phase"] == "opening"


def videos(client: Client, match_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/matches/{match_id}/videos", headers=DIRECTOR)
    assert response.status_code == 200, response.text
    body: list[dict[str, Any]] = response.json()
    return body


def test_a_games_video_is_deleted_once_after_the_game_ends(
    client: Client, settings: Settings
) -> None:
    # rule C-VIDEO-1
    created = create(client)
    path = recording(settings)
    video = register(client, created["id"], 1, "table1-game1.mp4")
    assert video["deleted_at"] is None
    assert run_jobs(client) == []  # the game is being played: the recording stays
    assert path.exists()

    end_game_1(client, created)
    runs = run_jobs(client)

    assert [run.effect for run in runs] == ["VideoDeleted"]
    assert not path.exists()
    assert run_jobs(client) == []
    assert len(events_of(client, "VideoDeleted")) == 1
    assert events_of(client, "VideoDeleted")[0].actor == "scheduler"
    assert videos(client, created["id"])[0]["deleted_at"] is not None


def test_an_open_dispute_holds_the_video_until_it_is_decided(
    client: Client, settings: Settings
) -> None:
    # rules C-VIDEO-1 (default extension), C-DISPUTE-1
    created = create(client)
    path = recording(settings)
    register(client, created["id"], 1, f"file://{path}")
    end_game_1(client, created)
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": created["id"], "version": 3, "claim": "the 3-1 was cocked"},
        headers=bearer(created, "b"),
    )
    assert opened.status_code == 201, opened.text
    assert opened.json()["status"] == "open"

    assert run_jobs(client) == []
    assert path.exists()
    assert videos(client, created["id"])[0]["held_by_dispute"] is True
    held = [
        j
        for j in client.get("/api/v1/jobs", headers=DIRECTOR).json()
        if j["kind"] == "delete_video"
    ]
    assert held[0]["status"] == "held"

    decided = client.post(
        f"/api/v1/disputes/{opened.json()['id']}/decision",
        json={"ruling": "the roll stands", "reason": "the replay shows a clean 3-1"},
        headers=DIRECTOR,
    )
    assert decided.status_code == 200, decided.text
    assert decided.json()["status"] == "decided"

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert not path.exists()


def test_a_video_that_cannot_be_deleted_is_retried_and_shown_to_the_director(
    client: Client, settings: Settings, clock: MovableClock
) -> None:
    created = create(client)
    stuck = settings.data_dir / "evidence" / "stuck.mp4"
    (stuck / "part").mkdir(parents=True)  # a directory: unlink fails
    register(client, created["id"], 1, "stuck.mp4")
    end_game_1(client, created)

    assert run_jobs(client)[0].effect.startswith("VideoDeletionFailed")
    shown = videos(client, created["id"])[0]
    assert shown["deleted_at"] is None
    assert shown["failure"]["failures"] == 1
    assert run_jobs(client) == []  # retried after a pause, not at every poll

    (stuck / "part").rmdir()
    stuck.rmdir()
    clock.advance(61)
    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert videos(client, created["id"])[0]["deleted_at"] is not None


def test_a_recording_outside_the_data_directory_is_refused(client: Client) -> None:
    created = create(client)
    response = client.post(
        f"/api/v1/matches/{created['id']}/videos",
        json={"game": 1, "uri": "/etc/passwd"},
        headers=DIRECTOR,
    )
    assert response.status_code == 422
    assert client.get(f"/api/v1/matches/{created['id']}/videos", headers=DIRECTOR).json() == []


def test_videos_are_for_the_director_only(client: Client) -> None:
    created = create(client)
    response = client.get(f"/api/v1/matches/{created['id']}/videos", headers=bearer(created, "a"))
    assert response.status_code == 403


# --- disputes ---------------------------------------------------------------------------------


@pytest.fixture
def timed(client: Client, clock: MovableClock) -> dict[str, Any]:
    """A timed match (app clock) where each side took some seconds for each action."""
    created = create(client, clock="app")
    responses = []
    steps: list[tuple[str, dict[str, Any], str]] = [
        ("rolls", {"dice": [3, 1]}, "a"),
        ("plays", {"play": "8/5 6/5"}, "a"),
        ("rolls", {"dice": [6, 4]}, "b"),
        ("plays", {"play": "24/14"}, "b"),
        ("rolls", {"dice": [5, 2]}, "a"),
    ]
    for path, body, side in steps:
        clock.advance(7)
        response = post(client, created, path, body, side)
        assert response.status_code == 200, response.text
        responses.append(response.json())
    created["responses"] = responses
    return created


def test_a_disputed_play_is_replayed_as_the_players_saw_it(
    client: Client, timed: dict[str, Any]
) -> None:
    # rule C-DISPUTE-1: the states before and after, with clocks and dice, as sent then
    before, after = timed["responses"][2], timed["responses"][3]
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": timed["id"], "version": after["version"], "claim": "24/14 is wrong"},
        headers=bearer(timed, "a"),
    ).json()
    shown = client.get(f"/api/v1/disputes/{opened['id']}", headers=bearer(timed, "a")).json()

    assert shown["replay"]["after"].endswith(f"?version={after['version']}")
    assert shown["replay"]["before"].endswith(f"?version={after['version'] - 1}")
    assert before["version"] == after["version"] - 1
    assert client.get(shown["replay"]["before"]).json() == before
    assert client.get(shown["replay"]["after"]).json() == after
    assert before["dice"] == [6, 4]
    assert after["clocks"] == client.get(shown["replay"]["after"]).json()["clocks"]
    assert shown["opened_by"] == "player:anna"
    assert shown["decision"] is None


def test_only_a_player_of_the_match_or_a_director_may_dispute_or_see_it(
    client: Client, timed: dict[str, Any]
) -> None:
    other = create(client, player_a="carla", player_b="dora")
    body = {"match_id": timed["id"], "version": 2, "claim": "too slow"}
    assert client.post("/api/v1/disputes", json=body).status_code == 401
    assert client.post("/api/v1/disputes", json=body, headers=bearer(other, "a")).status_code == 403
    opened = client.post("/api/v1/disputes", json=body, headers=DIRECTOR)
    assert opened.status_code == 201
    url = f"/api/v1/disputes/{opened.json()['id']}"
    assert client.get(url, headers=bearer(other, "b")).status_code == 403
    assert client.get(url, headers=bearer(timed, "b")).status_code == 200
    assert client.get(url, headers=DIRECTOR).json()["replay"]["before"].endswith("?version=1")


def test_a_dispute_is_decided_once_and_never_edits_the_matchs_history(
    client: Client, timed: dict[str, Any]
) -> None:
    events = client.get(f"/api/v1/matches/{timed['id']}/events").json()
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": timed["id"], "version": 4, "claim": "wrong play"},
        headers=DIRECTOR,
    ).json()
    url = f"/api/v1/disputes/{opened['id']}/decision"
    ruling = {"ruling": "the play stands", "reason": "legal"}
    assert client.post(url, json=ruling, headers=bearer(timed, "a")).status_code == 403
    assert client.post(url, json=ruling, headers=DIRECTOR).json()["decision"]["ruling"] == (
        "the play stands"
    )
    assert client.post(url, json=ruling, headers=DIRECTOR).status_code == 409
    assert client.get(f"/api/v1/matches/{timed['id']}/events").json() == events


def test_a_dispute_names_an_event_the_match_has(client: Client, timed: dict[str, Any]) -> None:
    body = {"match_id": timed["id"], "version": 99, "claim": "?"}
    assert client.post("/api/v1/disputes", json=body, headers=DIRECTOR).status_code == 422
    unknown = {"match_id": "00000000-0000-4000-8000-000000000000", "version": 1, "claim": "?"}
    assert client.post("/api/v1/disputes", json=unknown, headers=DIRECTOR).status_code == 404


# --- clocks -----------------------------------------------------------------------------------


def test_a_run_out_clock_is_flagged_once_and_the_opponent_claims(
    client: Client, clock: MovableClock, timed: dict[str, Any]
) -> None:
    # rule G-CLOCK-2: 11 s per move, then the reserve; the opponent must claim
    assert run_jobs(client) == []
    clock.advance(11 + 90)
    runs = run_jobs(client)
    assert [(run.kind, run.effect) for run in runs] == [("flag_clock", "ClockFlagged")]
    assert run_jobs(client) == []
    clock.advance(30)
    assert run_jobs(client) == []
    flags = events_of(client, "ClockFlagged")
    assert [(flag.flagged, flag.actor) for flag in flags] == [("a", "scheduler")]

    claimed = post(client, timed, "timeouts", {}, "b")
    assert claimed.status_code == 200, claimed.text
    jobs = client.get("/api/v1/jobs", headers=DIRECTOR).json()
    assert [j["effect"] for j in jobs if j["kind"] == "flag_clock"] == [
        "ClockFlagged: side a out of time"
    ]
