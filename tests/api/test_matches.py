"""Match play over REST: a whole 7-point match, replay by version, bad input, concurrency."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.backgammon.match_id import GameState, MatchState
from domain.dice import roll_from_seed
from service.clock import MovableClock
from service.matches.matches import MatchService
from service.settings import Settings
from tests.api.match_script import DIRECTOR, PlayedMatch, play_seven_point_match

Client = TestClient[Any]


@pytest.fixture
def played(client: Client, clock: MovableClock) -> PlayedMatch:
    return play_seven_point_match(client, clock)


def create(client: Client, **fields: Any) -> dict[str, Any]:
    body = {"player_a": "anna", "player_b": "ben", "match_length": 7, **fields}
    response = client.post("/api/v1/matches", json=body, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def bearer(created: dict[str, Any], side: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['player_tokens'][side]}"}


def post(
    client: Client, created: dict[str, Any], path: str, body: dict[str, Any], side: str
) -> Any:
    return client.post(
        f"/api/v1/matches/{created['id']}/{path}", json=body, headers=bearer(created, side)
    )


def version_of(client: Client, created: dict[str, Any]) -> int:
    version: int = client.get(f"/api/v1/matches/{created['id']}").json()["version"]
    return version


# --- the whole match ------------------------------------------------------------------------


def test_a_seven_point_match_is_played_from_the_opening_roll_to_the_match_result(
    played: PlayedMatch,
) -> None:
    final = played.final

    assert (final["status"], final["phase"], final["winner"]) == ("finished", "match_over", "a")
    assert final["score"] == {"a": 7, "b": 3}
    assert (final["legal_plays"], final["turn"], final["dice"]) == ([], None, None)
    decoded = MatchState.from_match_id(final["match_id"])
    assert (decoded.score, decoded.match_length, decoded.game_state) == ((7, 3), 7, GameState.OVER)


def test_the_match_has_doubles_takes_drops_a_gammon_and_the_crawford_game(
    client: Client, played: PlayedMatch
) -> None:
    events = client.get(f"/api/v1/matches/{played.id}/events").json()
    counts = Counter(event["type"] for event in events)
    games = [event["data"] for event in events if event["type"] == "GameWon"]
    started = [event["data"] for event in events if event["type"] == "GameStarted"]

    assert counts["CubeOffered"] == 4
    assert (counts["CubeTaken"], counts["CubeDropped"]) == (2, 2)
    assert [(g["winner"], g["result"], g["reason"], g["cube"], g["points"]) for g in games] == [
        ("a", "gammon", "bear_off", 2, 4),
        ("b", "single", "drop", 1, 1),
        ("a", "single", "resignation", 2, 2),
        ("b", "single", "resignation", 1, 1),
        ("b", "single", "drop", 1, 1),
        ("a", "single", "resignation", 1, 1),
    ]
    assert [(g["game"], g["crawford"]) for g in started] == [
        (1, False),
        (2, False),
        (3, False),
        (4, True),  # rule G-CUBE-2: side a reached 6 of 7 in game 3
        (5, False),
        (6, False),
    ]
    assert events[-1]["type"] == "MatchWon"
    assert events[-1]["data"] == {"winner": "a", "score_a": 7, "score_b": 3, "reason": "score"}
    opening = [e["data"] for e in events if e["type"] == "OpeningRollMade"]
    assert opening[0] == {
        "die_a": 4,
        "die_b": 4,
        "starter": None,
        "roll_index": None,
        "entered_by": "a",
    }


def test_doubling_in_the_crawford_game_is_refused_with_a_clear_409(played: PlayedMatch) -> None:
    assert len(played.refusals) == 2
    for problem in played.refusals:
        assert problem["status"] == 409
        assert problem["type"].endswith("/cube-not-available")
        assert "Crawford game (G-CUBE-2)" in problem["detail"]
    crawford = [r for r in played.responses if r["game"] == 4]
    assert crawford
    assert all(r["crawford"] and r["cube"]["value"] == 1 for r in crawford)
    assert all(r["post_crawford"] for r in played.responses if r["game"] >= 5)


def test_every_intermediate_state_is_reproduced_by_asking_for_its_version(
    client: Client, played: PlayedMatch
) -> None:
    for response in played.responses:
        replayed = client.get(f"/api/v1/matches/{played.id}?version={response['version']}")
        assert replayed.status_code == 200
        assert replayed.json() == response  # clocks and dice included
    final = played.final["version"]
    versions = [
        client.get(f"/api/v1/matches/{played.id}?version={n}").json()["version"]
        for n in range(1, final + 1)
    ]
    assert versions == list(range(1, final + 1))
    beyond = client.get(f"/api/v1/matches/{played.id}?version={final + 1}")
    assert beyond.status_code == 404


def test_clocks_are_read_from_the_event_timestamps(client: Client, played: PlayedMatch) -> None:
    first_play = next(r for r in played.responses if r["game"] == 1 and r["phase"] == "roll")

    clocks = first_play["clocks"]
    assert clocks["preset"] == "club"
    assert clocks["running"] == "b"
    assert clocks["a"]["reserve_seconds"] == 14 * 60  # 4 s per action, within the 12 s delay
    assert (clocks["a"]["running"], clocks["b"]["running"]) == (False, True)
    assert played.final["clocks"]["running"] is None


def test_the_events_list_versions_timestamps_and_actors(
    client: Client, played: PlayedMatch
) -> None:
    events = client.get(f"/api/v1/matches/{played.id}/events?until_version=4").json()

    assert [e["version"] for e in events] == [1, 2, 3, 4]
    assert [e["type"] for e in events] == [
        "MatchStarted",
        "GameStarted",
        "OpeningRollMade",
        "OpeningRollMade",
    ]
    assert events[0]["actor"] == "director"
    # rule R-RATE-7: a rated match's sides are players of the rating list, who act by id
    # (their names are personal data, sealed in the match's start and never in an actor)
    assert events[2]["actor"].startswith("player:")
    assert "Anna" not in events[2]["actor"]
    assert events[3]["timestamp"] > events[2]["timestamp"]
    assert "token_hash_a" not in events[0]["data"]
    assert "sealed_seed" not in events[0]["data"]


def test_the_audit_stream_shows_any_aggregate_to_the_director_only(
    client: Client, played: PlayedMatch
) -> None:
    path = f"/api/v1/audit/streams/{played.id}"

    assert client.get(path).status_code == 401
    assert client.get(path, headers={"Authorization": "Bearer nope"}).status_code == 401
    stream = client.get(path + "?until_version=3", headers=DIRECTOR).json()
    assert [e["type"] for e in stream] == ["MatchStarted", "GameStarted", "OpeningRollMade"]
    unknown = client.get(
        "/api/v1/audit/streams/00000000-0000-0000-0000-000000000000", headers=DIRECTOR
    )
    assert unknown.status_code == 404


def schedule_tournament_with_a_registration(client: Client) -> str:
    tournament = client.post(
        "/api/v1/tournaments",
        json={"name": "Frühlingsturnier 2026", "date": "2026-04-18", "venue": "Amberg"},
        headers=DIRECTOR,
    )
    assert tournament.status_code == 201, tournament.text
    tournament_id: str = tournament.json()["id"]
    person = {"first_name": "Eva", "last_name": "Roth", "age": 40, "email": "eva@example.org"}
    registered = client.post(
        f"/api/v1/tournaments/{tournament_id}/registrations", json=person, headers=DIRECTOR
    )
    assert registered.status_code == 201, registered.text
    return tournament_id


def test_the_audit_stream_of_every_aggregate_keeps_token_hashes_and_sealed_seeds_secret(
    client: Client,
) -> None:
    tournament_id = schedule_tournament_with_a_registration(client)
    match = create(client, dice="server")

    streams = [
        client.get(f"/api/v1/audit/streams/{stream_id}", headers=DIRECTOR).json()
        for stream_id in (tournament_id, match["id"])
    ]
    match_events = client.get(f"/api/v1/matches/{match['id']}/events").json()

    assert "PlayerRegistered" in [event["type"] for event in streams[0]]
    for events in [*streams, match_events]:
        for event in events:
            assert not {"token_hash", "token_hash_a", "token_hash_b", "sealed_seed"} & set(
                event["data"]
            ), event
    assert streams[1] == match_events


def test_a_match_lists_its_legal_plays_as_the_analysis_endpoint_does(
    client: Client, opened: dict[str, Any]
) -> None:
    state = client.get(f"/api/v1/matches/{opened['id']}").json()

    analysis = client.post(
        "/api/v1/analysis/legal-plays",
        json={"position_id": state["position_id"], "dice": [1, 3]},
    )

    assert analysis.status_code == 200
    assert analysis.json()["plays"] == state["legal_plays"]
    assert len(state["legal_plays"]) == 16


def test_a_command_answers_the_state_byte_for_byte_as_litestar_answers_it(
    client: Client,
) -> None:
    """Match commands answer their Struct without Litestar's ``Response`` (api/http/auth.py):
    the same status, headers and bytes as the show, which Litestar answers. A match without a
    clock reads the same at any instant, so the command's state and the show's are one."""
    created = create(client)
    for path, body in (("rolls", {"dice": [3, 1]}), ("plays", {"play": "8/5 6/5"})):
        command = post(client, created, path, body, "a")
        shown = client.get(f"/api/v1/matches/{created['id']}")

        assert command.status_code == shown.status_code == 200
        assert command.content == shown.content
        assert (
            command.headers.raw
            == shown.headers.raw
            == [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(shown.content)).encode()),
            ]
        )


def test_the_export_lists_every_game_with_its_cube_actions_and_results(
    client: Client, played: PlayedMatch
) -> None:
    response = client.get(f"/api/v1/matches/{played.id}/export.mat")

    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    text = response.text
    assert " 7 point match" in text
    assert [line for line in text.splitlines() if line.startswith(" Game ")] == [
        f" Game {n}" for n in range(1, 7)
    ]
    assert text.count("Doubles => 2") == 4
    assert (text.count("Takes"), text.count("Drops")) == (2, 2)
    assert "Wins 4 points" in text
    assert text.rstrip().endswith("Wins 1 point and the match")
    assert " Anna Maier : 6                 Ben : 1" in text  # the Crawford game's score line


# --- bad input: a clear 4xx, nothing stored -------------------------------------------------


@pytest.fixture
def opened(client: Client) -> dict[str, Any]:
    """A match where side a won the opening roll with 3-1 and must play."""
    created = create(client)
    assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 200
    return created


def test_a_play_for_the_wrong_side_is_forbidden_and_nothing_is_stored(
    client: Client, opened: dict[str, Any]
) -> None:
    before = version_of(client, opened)

    response = post(client, opened, "plays", {"play": "8/5 6/5"}, "b")

    assert response.status_code == 403
    assert response.json()["detail"] == "it is side a's turn, not side b's"
    assert version_of(client, opened) == before


def test_a_player_cannot_claim_to_be_the_other_side(client: Client, opened: dict[str, Any]) -> None:
    response = post(client, opened, "plays", {"play": "8/5 6/5", "side": "a"}, "b")

    assert response.status_code == 403
    assert "this token plays side b" in response.json()["detail"]


def test_a_roll_out_of_turn_is_a_conflict(client: Client, opened: dict[str, Any]) -> None:
    before = version_of(client, opened)

    response = post(client, opened, "rolls", {"dice": [6, 6]}, "a")

    assert response.status_code == 409
    assert response.json()["detail"] == "cannot roll now: side a has rolled and must play"
    assert version_of(client, opened) == before


def test_an_illegal_play_is_a_conflict_with_the_reason(
    client: Client, opened: dict[str, Any]
) -> None:
    before = version_of(client, opened)

    response = post(client, opened, "plays", {"play": "24/18"}, "a")

    assert response.status_code == 409
    problem = response.json()
    assert problem["type"].endswith("/illegal-play")
    assert "G-LEGAL-1" in problem["detail"]
    assert version_of(client, opened) == before


def test_malformed_notation_is_invalid_input_naming_the_field(
    client: Client, opened: dict[str, Any]
) -> None:
    response = post(client, opened, "plays", {"play": "eight/five"}, "a")

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "play"


def test_a_play_as_the_position_after_it_is_accepted(
    client: Client, opened: dict[str, Any]
) -> None:
    state = client.get(f"/api/v1/matches/{opened['id']}").json()
    target = state["legal_plays"][0]

    response = post(client, opened, "plays", {"position_id": target["position_id"]}, "a")

    assert response.status_code == 200
    assert response.json()["position_id"] == target["position_id"]  # b on roll sees it so


def test_a_take_with_no_double_offered_is_a_conflict(
    client: Client, opened: dict[str, Any]
) -> None:
    post(client, opened, "plays", {"play": "8/5 6/5"}, "a")

    response = post(client, opened, "cube", {"action": "take"}, "b")

    assert response.status_code == 409
    assert response.json()["detail"] == "cannot take: no double has been offered"


def test_a_play_after_the_game_ended_is_a_conflict(client: Client, opened: dict[str, Any]) -> None:
    post(client, opened, "plays", {"play": "8/5 6/5"}, "a")
    post(client, opened, "cube", {"action": "double"}, "b")
    assert post(client, opened, "cube", {"action": "drop"}, "a").json()["phase"] == "opening"

    response = post(client, opened, "plays", {"play": "24/21 24/23"}, "b")

    assert response.status_code == 409
    assert "opening roll is due" in response.json()["detail"]


def test_a_command_after_the_match_ended_is_a_conflict(client: Client) -> None:
    created = create(client, match_length=1)
    post(client, created, "rolls", {"dice": [3, 1]}, "b")
    post(client, created, "resignations", {"level": "single"}, "b")
    assert post(client, created, "resignations/accept", {}, "a").json()["status"] == "finished"

    response = post(client, created, "rolls", {"dice": [3, 1]}, "a")

    assert response.status_code == 409
    assert response.json()["type"].endswith("/match-over")


@pytest.mark.parametrize(
    ("body", "field"),
    [({"dice": [7, 1]}, "dice"), ({"dice": [1]}, "dice"), ({}, "dice"), ({"dice": "66"}, "dice")],
)
def test_bad_entered_dice_are_invalid_input(
    client: Client, body: dict[str, Any], field: str
) -> None:
    created = create(client)

    response = post(client, created, "rolls", body, "a")

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"].startswith(field)


def test_commands_need_a_token_of_this_match(client: Client, opened: dict[str, Any]) -> None:
    path = f"/api/v1/matches/{opened['id']}/plays"
    other = create(client)

    assert client.post(path, json={"play": "8/5 6/5"}).status_code == 401
    foreign = client.post(path, json={"play": "8/5 6/5"}, headers=bearer(other, "a"))
    assert foreign.status_code == 403
    assert (
        client.post("/api/v1/matches", json={"player_a": "x", "player_b": "y"}).status_code == 401
    )


def test_a_token_with_non_ascii_characters_is_refused_not_a_crash(
    client: Client, opened: dict[str, Any]
) -> None:
    response = client.post(
        f"/api/v1/matches/{opened['id']}/plays",
        json={"play": "8/5 6/5"},
        headers={b"Authorization": "Bearer caf\u00e9-\u00b2".encode("latin-1")},
    )

    assert response.status_code == 401  # a token nobody holds
    assert response.json()["type"].endswith("/not-authenticated")


def test_the_openapi_document_says_when_turn_is_null(client: Client) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]

    turn = schemas["Match"]["properties"]["turn"]

    assert "null while the opening roll is due" in turn["description"]
    assert "once the match is over" in turn["description"]


def test_the_director_acts_for_either_side_and_is_recorded_as_the_actor(
    client: Client, opened: dict[str, Any]
) -> None:
    path = f"/api/v1/matches/{opened['id']}"

    played = client.post(f"{path}/plays", json={"play": "8/5 6/5", "side": "a"}, headers=DIRECTOR)
    wrong = client.post(f"{path}/rolls", json={"dice": [2, 2], "side": "a"}, headers=DIRECTOR)
    rolled = client.post(f"{path}/rolls", json={"dice": [2, 2], "side": "b"}, headers=DIRECTOR)

    assert (played.status_code, wrong.status_code, rolled.status_code) == (200, 403, 200)
    events = client.get(f"{path}/events").json()
    assert [e["actor"] for e in events[-2:]] == ["director", "director"]


def test_unknown_matches_are_404(client: Client) -> None:
    missing = "/api/v1/matches/00000000-0000-0000-0000-000000000000"

    assert client.get(missing).status_code == 404
    assert client.post(f"{missing}/rolls", json={}, headers=DIRECTOR).status_code == 404


def test_the_id_of_a_tournament_names_no_match_and_is_404(client: Client) -> None:
    tournament_id = schedule_tournament_with_a_registration(client)
    path = f"/api/v1/matches/{tournament_id}"

    responses = [
        client.get(path),
        client.get(f"{path}?version=1"),
        client.get(f"{path}/events"),
        client.get(f"{path}/export.mat"),
        client.get(f"{path}/dice-proof"),
        client.post(f"{path}/rolls", json={"dice": [3, 1]}, headers=DIRECTOR),
    ]

    assert [response.status_code for response in responses] == [404] * len(responses)
    assert all(r.json()["type"].endswith("/not-found") for r in responses)
    audit = client.get(f"/api/v1/audit/streams/{tournament_id}", headers=DIRECTOR)
    assert audit.status_code == 200


@pytest.mark.parametrize("value", ["99999999999999999999", str(2**31), "0", "-1"])
def test_an_event_version_out_of_range_is_422_naming_the_query_parameter(
    client: Client, opened: dict[str, Any], value: str
) -> None:
    match_path = f"/api/v1/matches/{opened['id']}"
    audit_path = f"/api/v1/audit/streams/{opened['id']}"

    responses = {
        "version": client.get(f"{match_path}?version={value}"),
        "until_version": client.get(f"{match_path}/events?until_version={value}"),
        "until_version ": client.get(f"{audit_path}?until_version={value}", headers=DIRECTOR),
    }

    for name, response in responses.items():
        assert response.status_code == 422, (name, response.text)
        assert response.json()["errors"][0]["field"] == name.strip()
    assert client.get(f"{match_path}?version={2**31 - 1}").status_code == 404


@pytest.mark.parametrize("if_match", ["²", "9" * 5000, "3x", ""])
def test_an_if_match_that_is_no_version_is_422(
    client: Client, opened: dict[str, Any], if_match: str
) -> None:
    # Header bytes arrive as Latin-1: "²" is a digit to str.isdigit, but no number.
    headers = {
        b"Authorization": bearer(opened, "a")["Authorization"].encode(),
        b"If-Match": if_match.encode("latin-1"),
    }

    response = client.post(
        f"/api/v1/matches/{opened['id']}/plays", json={"play": "8/5 6/5"}, headers=headers
    )

    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "If-Match"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"play": "24/18 " * 200_000}, "play"),
        ({"play": "8/5 6/5 " * 9}, "play"),
        ({"position_id": "4HPwATDgc/ABMA" * 1000}, "position_id"),
        ({"position_id": "4HPwATDgc/ABM"}, "position_id"),
    ],
)
def test_an_overlong_play_is_refused_at_the_edge_without_echoing_it(
    client: Client, opened: dict[str, Any], body: dict[str, Any], field: str
) -> None:
    before = version_of(client, opened)

    response = post(client, opened, "plays", body, "a")

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == field
    assert len(response.text) < 500  # the input is not echoed back
    assert version_of(client, opened) == before


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"position_id": "4HPwATDgc/ABMA" * 100}, "position_id"),
        ({"position_id": "4HPwATDgc/ABMA", "match_id": "MAHgAAAAAAAE" * 100}, "match_id"),
    ],
)
def test_the_position_analysis_refuses_overlong_ids_without_echoing_them(
    client: Client, params: dict[str, str], field: str
) -> None:
    response = client.get("/api/v1/analysis/position", params=params)

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == field
    assert len(response.text) < 500


@pytest.mark.parametrize("tournament_id", ["x" * 5_000_000, "not-a-uuid"])
def test_a_tournament_id_is_a_uuid_or_the_match_is_refused(
    client: Client, tournament_id: str
) -> None:
    body = {"player_a": "a", "player_b": "b", "tournament_id": tournament_id}

    response = client.post("/api/v1/matches", json=body, headers=DIRECTOR)

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "tournament_id"
    assert len(response.text) < 500


def test_bad_match_settings_are_422(client: Client) -> None:
    for body in [
        {"player_a": "a", "player_b": "b", "match_length": 7, "jacoby": True},
        {"player_a": "a", "player_b": "b", "match_length": 99},
        {"player_a": "a", "player_b": "b", "clock": "sundial"},
    ]:
        response = client.post("/api/v1/matches", json=body, headers=DIRECTOR)
        assert response.status_code == 422, body


# --- concurrency ----------------------------------------------------------------------------


def test_a_stale_if_match_version_is_a_conflict(client: Client, opened: dict[str, Any]) -> None:
    version = version_of(client, opened)
    path = f"/api/v1/matches/{opened['id']}/plays"
    headers = {**bearer(opened, "a"), "If-Match": str(version - 1)}

    stale = client.post(path, json={"play": "8/5 6/5"}, headers=headers)
    fresh = client.post(
        path, json={"play": "8/5 6/5"}, headers={**headers, "If-Match": str(version)}
    )

    assert stale.status_code == 409
    assert stale.json()["type"].endswith("/stale-version")
    assert fresh.status_code == 200


def test_two_simultaneous_plays_on_one_match_one_wins_the_other_gets_409(
    client: Client, opened: dict[str, Any]
) -> None:
    state = client.get(f"/api/v1/matches/{opened['id']}").json()
    plays = [item["play"] for item in state["legal_plays"][:2]]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(play: str) -> None:
        barrier.wait()
        statuses.append(post(client, opened, "plays", {"play": play}, "a").status_code)

    threads = [threading.Thread(target=send, args=(play,)) for play in plays]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200, 409]
    events = client.get(f"/api/v1/matches/{opened['id']}/events").json()
    assert [e["type"] for e in events].count("CheckersPlayed") == 1


@pytest.fixture
def client_on_either_store(
    tmp_path: Path, clock: MovableClock, database_url: str | None
) -> Iterator[Client]:
    settings = Settings(
        data_dir=tmp_path / "data", dev=True, run_scheduler=False, database_url=database_url
    )
    with TestClient(create_app(settings, clock=clock)) as test_client:
        yield test_client


def is_on_an_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_match_commands_run_on_the_event_loop_and_stream_reads_in_worker_threads_on_postgresql(
    client_on_either_store: Client, database_url: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = client_on_either_store
    matches = client.app.state.services.matches
    created = create(client)
    on_the_loop: dict[str, bool] = {}

    def watched(name: str) -> Any:
        use_case = getattr(MatchService, name)

        def run(*arguments: Any, **keywords: Any) -> Any:
            on_the_loop[name] = is_on_an_event_loop()
            return use_case(matches, *arguments, **keywords)

        return run

    for name in ("roll", "events"):
        monkeypatch.setattr(matches, name, watched(name))
    rolled = post(client, created, "rolls", {"dice": [3, 1]}, "a")
    events = client.get(f"/api/v1/matches/{created['id']}/events")

    assert rolled.status_code == 200, rolled.text
    assert [event["type"] for event in events.json()][-1] == "OpeningRollMade"
    # a command: one short write, on the loop on either store; a whole stream read from
    # PostgreSQL goes to a worker thread
    assert on_the_loop == {"roll": True, "events": database_url is None}


# --- server dice ----------------------------------------------------------------------------


def test_server_dice_are_committed_at_the_start_and_the_revealed_seed_reproduces_every_roll(
    client: Client,
) -> None:
    created = create(client, match_length=1, dice="server")
    proof = client.get(f"/api/v1/matches/{created['id']}/dice-proof").json()
    assert proof["seed"] is None
    assert proof["verified"] is None
    commitment = proof["seed_commitment"]
    assert created["match"]["seed_commitment"] == commitment
    assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 422
    state = created["match"]
    for _ in range(12):
        if state["phase"] == "move":
            state = post(
                client, created, "plays", {"play": state["legal_plays"][0]["play"]}, state["turn"]
            ).json()
        else:
            state = post(client, created, "rolls", {}, state["turn"] or "a").json()
    assert client.get(f"/api/v1/matches/{created['id']}/dice-proof").json()["seed"] is None
    loser = state["turn"] or "a"
    post(client, created, "resignations", {"level": "single"}, loser)
    post(client, created, "resignations/accept", {}, "b" if loser == "a" else "a")

    proof = client.get(f"/api/v1/matches/{created['id']}/dice-proof").json()
    seed = bytes.fromhex(proof["seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment
    assert proof["verified"] is True
    events = client.get(f"/api/v1/matches/{created['id']}/events").json()
    recorded = [
        (e["data"]["roll_index"], (e["data"]["die_a"], e["data"]["die_b"]))
        if e["type"] == "OpeningRollMade"
        else (e["data"]["roll_index"], tuple(e["data"]["dice"]))
        for e in events
        if e["type"] in {"OpeningRollMade", "DiceRolled"}
    ]
    assert len(recorded) >= 6
    assert [index for index, _ in recorded] == list(range(len(recorded)))
    assert all(roll_from_seed(seed, index) == dice for index, dice in recorded)
    assert events[-1]["type"] == "DiceSeedRevealed"


# --- clocks ---------------------------------------------------------------------------------


def test_a_timeout_claim_is_checked_against_the_clock(client: Client, clock: MovableClock) -> None:
    created = create(client, clock="app")
    post(client, created, "rolls", {"dice": [3, 1]}, "a")
    clock.advance(100)  # rule G-CLOCK-2: 11 s per move, then 90 s reserve

    early = post(client, created, "timeouts", {}, "b")
    state = client.get(f"/api/v1/matches/{created['id']}").json()
    clock.advance(1)
    claimed = post(client, created, "timeouts", {}, "b")

    assert early.status_code == 409
    assert early.json()["detail"] == "side a still has 1.0 s on the clock"
    assert state["clocks"]["a"] == {
        "reserve_seconds": 1.0,
        "delay_seconds": 0.0,
        "running": True,
        "expired": False,
        "overtime": False,
    }
    assert claimed.status_code == 200
    body = claimed.json()
    assert (body["score"], body["game"], body["phase"]) == ({"a": 0, "b": 2}, 2, "opening")
    events = client.get(f"/api/v1/matches/{created['id']}/events").json()
    timeout = next(e for e in events if e["type"] == "TimeoutClaimed")
    assert timeout["data"] == {
        "side": "b",
        "flagged": "a",
        "reserve_ms": 90_000,
        "used_ms": 101_000,
        "outcome": "gammon",
        "overtime_ms": 0,
    }


def test_entered_dice_record_which_sides_token_entered_them(client: Client) -> None:
    # One physical board: side a's token enters both opening dice, also b's; the events (and
    # the audit stream) say whose token it was, None for the director.
    created = create(client)
    path = f"/api/v1/matches/{created['id']}"
    assert post(client, created, "rolls", {"dice": [1, 3]}, "b").status_code == 200
    assert post(client, created, "plays", {"play": "8/5 6/5"}, "b").status_code == 200
    assert post(client, created, "rolls", {"dice": [6, 5]}, "a").status_code == 200
    assert post(client, created, "plays", {"play": "24/13"}, "a").status_code == 200
    director = client.post(f"{path}/rolls", json={"dice": [2, 1], "side": "b"}, headers=DIRECTOR)
    assert director.status_code == 200
    stream = client.get(f"/api/v1/audit/streams/{created['id']}", headers=DIRECTOR).json()
    rolls = [e for e in stream if e["type"] in ("OpeningRollMade", "DiceRolled")]
    assert [e["data"]["entered_by"] for e in rolls] == ["b", "a", None]
    events = client.get(f"{path}/events").json()
    assert [e["data"]["entered_by"] for e in events if e["type"] == "DiceRolled"] == ["a", None]
