"""Problem details for bad input: 422 with every offending field named as the client wrote it."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.conftest import DIRECTOR

Client = TestClient[Any]
LEGAL_PLAYS = "/api/v1/analysis/legal-plays"


def fields(response: Any) -> list[str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    return [error["field"] for error in response.json()["errors"]]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "a JSON object is required"),
        (b"[]", "Expected `object`, got `array`"),
        (b'"text"', "Expected `object`, got `str`"),
    ],
)
def test_a_body_that_is_no_object_is_named_body(
    client: Client, content: bytes, message: str
) -> None:
    response = client.post(
        LEGAL_PLAYS, content=content, headers={"content-type": "application/json"}
    )
    assert fields(response) == ["body"]
    assert response.json()["errors"][0]["message"] == message


def test_an_unknown_field_is_named(client: Client) -> None:
    response = client.post(
        LEGAL_PLAYS, json={"position_id": "4HPwATDgc/ABMA", "dice": [1, 2], "colour": "red"}
    )
    assert fields(response) == ["colour"]


def test_a_missing_query_parameter_is_named(client: Client) -> None:
    assert fields(client.get("/api/v1/analysis/position")) == ["position_id"]


def test_a_missing_nested_field_is_named_with_its_path(client: Client) -> None:
    response = client.post(
        "/api/v1/seasons",
        json={
            "name": "2026",
            "starts_on": "2026-01-01",
            "ends_on": "2026-12-31",
            "periods": [{"kind": "break", "starts_on": "2026-06-01", "ends_on": "2026-08-31"}],
        },
        headers=DIRECTOR,
    )
    assert fields(response) == ["periods[0].name"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("best_place_tiebreak", 0, "Expected `bool`, got `int`"),
        ("best_place_tiebreak", "true", "Expected `bool`, got `str`"),
        ("drop_worst", "2", "Expected `int | null`, got `str`"),
    ],
)
def test_a_body_value_of_another_json_type_is_named_and_nothing_is_stored(
    client: Client, field: str, value: object, message: str
) -> None:
    # API.md "Conventions" (400/422 bad input) and "Seasons and tournaments" (R-OPT-1):
    # "best_place_tiebreak" is a bool, as the served document says; Litestar alone read 0 as
    # false and "2" as 2 (found by schemathesis, ST201)
    body = {"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31", field: value}
    response = client.post("/api/v1/seasons", json=body, headers=DIRECTOR)
    assert fields(response) == [field]
    assert response.json()["errors"][0]["message"] == message
    assert client.get("/api/v1/seasons").json() == []


def test_a_whole_number_written_with_a_point_is_still_an_integer(client: Client) -> None:
    # a JSON Schema integer is any number without a fractional part: 2.0 fits the document
    body = {"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31", "drop_worst": 2.0}
    response = client.post("/api/v1/seasons", json=body, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    assert response.json()["options"]["drop_worst"] == 2


def test_a_ban_s_revoke_points_is_a_bool_and_nothing_is_stored(client: Client) -> None:
    # API.md "Seasons and tournaments": {"player_id", "reason", "revoke_points": true}
    season = client.post(
        "/api/v1/seasons",
        json={"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
        headers=DIRECTOR,
    ).json()["id"]
    player = str(uuid.uuid4())
    response = client.post(
        f"/api/v1/seasons/{season}/bans",
        json={"player_id": player, "reason": "cheating", "revoke_points": 0},
        headers=DIRECTOR,
    )
    assert fields(response) == ["revoke_points"]
    events = client.get(f"/api/v1/audit/streams/{season}", headers=DIRECTOR).json()
    assert [event["type"] for event in events] == ["SeasonCreated"]


def test_an_unknown_path_is_a_404_problem(client: Client) -> None:
    response = client.get("/api/v1/nowhere")
    assert response.status_code == 404
    assert response.json()["type"].endswith("/not-found")


@pytest.mark.parametrize("seconds", [-1, 1e300, "soon"])
def test_the_dev_clock_refuses_to_go_back_or_beyond_ten_years(
    client: Client, seconds: object
) -> None:
    response = client.post("/api/v1/dev/clock/advance", json={"seconds": seconds}, headers=DIRECTOR)
    assert fields(response) == ["seconds"]


def test_the_dev_clock_moves_forward_by_the_seconds_given(client: Client) -> None:
    before = client.get("/api/v1/dev/clock").json()["now"]
    response = client.post("/api/v1/dev/clock/advance", json={"seconds": 120}, headers=DIRECTOR)
    assert response.status_code == 200
    assert response.json()["now"] > before
    assert response.json()["now"] == client.get("/api/v1/dev/clock").json()["now"]


@pytest.mark.parametrize("seconds", ["10", "1e3", "-0", True, False, None, [10], {"s": 10}])
def test_the_dev_clock_takes_its_seconds_only_as_a_json_number(
    client: Client, seconds: object
) -> None:
    # API.md: {"seconds": n}; Litestar alone would read "10" as 10
    before = client.get("/api/v1/dev/clock").json()["now"]
    response = client.post("/api/v1/dev/clock/advance", json={"seconds": seconds}, headers=DIRECTOR)
    assert fields(response) == ["seconds"]
    assert response.json()["errors"][0]["message"].startswith("Expected `float`, got")
    assert client.get("/api/v1/dev/clock").json()["now"] == before


def test_the_dev_clock_takes_whole_and_fractional_seconds(client: Client) -> None:
    advanced = [
        client.post("/api/v1/dev/clock/advance", json={"seconds": s}, headers=DIRECTOR).json()
        for s in (10, 0.5, 0)
    ]
    assert advanced == [
        {"now": "2026-03-01T09:00:10Z"},
        {"now": "2026-03-01T09:00:10.500000Z"},
        {"now": "2026-03-01T09:00:10.500000Z"},
    ]


def operations_with_a_body(client: Client) -> list[tuple[str, str]]:
    """Every operation with a JSON body, its path parameters filled in: a number where the
    document says integer (a round), else a UUID. (The console's forms take form fields.)"""
    document = client.get("/schema/openapi.json").json()
    return [
        (method, filled_in(path, operation.get("parameters", [])))
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict)
        and "application/json" in operation.get("requestBody", {}).get("content", {})
    ]


def filled_in(path: str, parameters: list[dict[str, Any]]) -> str:
    integers = {
        p["name"]
        for p in parameters
        if p.get("in") == "path" and p.get("schema", {}).get("type") == "integer"
    }
    return re.sub(
        r"\{([^}]+)\}", lambda m: "1" if m.group(1) in integers else str(uuid.uuid4()), path
    )


@pytest.mark.parametrize("nested", ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000])
def test_a_deeply_nested_body_is_a_400_problem_on_every_endpoint(
    client: Client, nested: str
) -> None:
    operations = operations_with_a_body(client)
    assert len(operations) > 10
    for method, path in operations:
        response = client.request(
            method,
            path,
            content=nested.encode(),
            headers={**DIRECTOR, "content-type": "application/json"},
        )
        assert response.status_code == 400, (method, path, response.text)
        assert response.json()["type"].endswith("/body-too-deep")


def test_only_the_director_may_advance_the_dev_clock(client: Client) -> None:
    before = client.get("/api/v1/dev/clock").json()["now"]
    anonymous = client.post("/api/v1/dev/clock/advance", json={"seconds": 120})
    assert anonymous.status_code == 401
    player = client.post(
        "/api/v1/dev/clock/advance",
        json={"seconds": 120},
        headers={"Authorization": "Bearer a-player-token"},
    )
    assert player.status_code == 401  # a token nobody holds (a player's: 403)
    assert client.get("/api/v1/dev/clock").json()["now"] == before


def test_the_dev_clock_stops_short_of_the_year_10000_and_the_service_keeps_answering(
    client: Client,
) -> None:
    ten_years = 10 * 365 * 86_400
    statuses = [
        client.post(
            "/api/v1/dev/clock/advance", json={"seconds": ten_years}, headers=DIRECTOR
        ).status_code
        for _ in range(800)
    ]
    assert statuses.count(200) == 797  # 2026 + 7973 years, then 9999-12-31 would be passed
    assert set(statuses[797:]) == {409}
    refused = client.post(
        "/api/v1/dev/clock/advance", json={"seconds": ten_years}, headers=DIRECTOR
    )
    assert refused.json()["type"].endswith("/clock-limit")
    assert client.get("/health").status_code == 200
    assert client.get("/api/v1/dev/clock").json()["now"].startswith("99")


@pytest.mark.parametrize(
    "bad", ["Anna\x00", "\x1b[2JAnna", "Anna\r\nX-Injected: 1", "\u202eannA", "An\u200bna"]
)
def test_names_and_free_text_with_control_characters_are_a_422(client: Client, bad: str) -> None:
    # format characters too: a bidi override (U+202E) shows a name reversed
    tournament = client.post(
        "/api/v1/tournaments", json={"name": bad, "date": "2026-04-18"}, headers=DIRECTOR
    )
    assert fields(tournament) == ["name"]
    tournament_id = client.post(
        "/api/v1/tournaments", json={"name": "Monthly", "date": "2026-04-18"}, headers=DIRECTOR
    ).json()["id"]
    registrations = f"/api/v1/tournaments/{tournament_id}/registrations"
    person = {"first_name": bad, "last_name": "M", "email": "anna@example.org", "age": 30}
    assert fields(client.post(registrations, json=person)) == ["first_name"]
    registration = client.post(
        registrations, json={**person, "first_name": "Anna"}, headers=DIRECTOR
    ).json()
    cancel = client.delete(
        f"{registrations}/{registration['registration_id']}",
        params={"reason": bad},
        headers=DIRECTOR,
    )
    assert fields(cancel) == ["reason"]
    match = client.post(
        "/api/v1/matches",
        json={"player_a": bad, "player_b": "Bert", "match_length": 3},
        headers=DIRECTOR,
    )
    assert fields(match) == ["player_a"]


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ("Anna\tMaria", "U+0009"),
        ("Anna\u2028", "U+2028"),
        ("Anna\u2029", "U+2029"),
        ("An\u2800na", "U+2800"),
        ("\u3164", "U+3164"),
        ("Anna\u00a0M", "U+00A0"),
    ],
)
def test_names_with_tabs_separators_or_blanks_are_a_422(
    client: Client, bad: str, code: str
) -> None:
    # rule T-REG-5: every name a person can see, where it is entered
    tournament = client.post(
        "/api/v1/tournaments", json={"name": bad, "date": "2026-04-18"}, headers=DIRECTOR
    )
    assert fields(tournament) == ["name"]
    assert tournament.json()["errors"][0]["message"].endswith(f"({code})")
    season = {"name": bad, "starts_on": "2026-01-01", "ends_on": "2026-12-31"}
    assert fields(client.post("/api/v1/seasons", json=season, headers=DIRECTOR)) == ["name"]
    director = client.post("/api/v1/directors", json={"name": bad}, headers=DIRECTOR)
    assert fields(director) == ["name"]
    match = client.post(
        "/api/v1/matches",
        json={"player_a": "Anna", "player_b": bad, "match_length": 3},
        headers=DIRECTOR,
    )
    assert fields(match) == ["player_b"]
    tournament_id = client.post(
        "/api/v1/tournaments", json={"name": "Monthly", "date": "2026-04-18"}, headers=DIRECTOR
    ).json()["id"]
    registrations = f"/api/v1/tournaments/{tournament_id}/registrations"
    person = {"first_name": "Anna", "last_name": bad, "email": "anna@example.org", "age": 30}
    assert fields(client.post(registrations, json=person)) == ["last_name"]
    assert client.get(registrations, headers=DIRECTOR).json() == []


@pytest.mark.parametrize(
    "email", ["anna@[127.0.0.1]", "anna@127.0.0.1", "anna@[IPv6:::1]", "anna\u2800@example.org"]
)
def test_an_address_at_an_ip_or_with_a_blank_is_a_422(client: Client, email: str) -> None:
    # rule T-REG-5
    tournament_id = client.post(
        "/api/v1/tournaments", json={"name": "Monthly", "date": "2026-04-18"}, headers=DIRECTOR
    ).json()["id"]
    registrations = f"/api/v1/tournaments/{tournament_id}/registrations"
    person = {"first_name": "Anna", "last_name": "M", "email": email, "age": 30}
    response = client.post(registrations, json=person)
    assert fields(response) == ["email"]
    assert "anna" not in response.json()["detail"]
