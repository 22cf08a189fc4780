"""The round robin over REST: the creation body's format fields, a day played from the
Berger schedule, its standings and places, and the refusals of a fixed schedule
(rules T-FMT-10, T-FMT-11; API.md "Formats")."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import report, start_tournament
from tests.api.test_tournaments import SPRING, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_todays_creation_body_keeps_its_meaning(client: Client) -> None:
    # rule T-FMT-10: without format, a Swiss tournament with the knockout of the best four
    created = schedule(client)
    assert (created["format"], created["knockout_players"]) == ("swiss", 4)
    assert (created["capacity"], created["swiss_rounds"]) == (20, 6)
    assert (created["round_robin_cycles"], created["seeding"]) == (None, None)


def test_a_round_robin_is_created_with_its_defaults(client: Client) -> None:
    # rule T-FMT-11; API "Formats": capacity 12, no knockout, one cycle, Berger numbers by lot
    created = schedule(client, format="round_robin")
    assert created["format"] == "round_robin"
    assert (created["capacity"], created["knockout_players"]) == (12, 0)
    assert (created["round_robin_cycles"], created["seeding"]) == (1, "lot")
    shown = client.get(f"/api/v1/tournaments/{created['id']}").json()
    assert (shown["format"], shown["round_robin_cycles"]) == ("round_robin", 1)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"format": "round_robin", "capacity": 13}, "capacity"),
        ({"format": "round_robin", "swiss_rounds": 5}, "swiss_rounds"),
        ({"format": "round_robin", "round_robin_cycles": 3}, "round_robin_cycles"),
        ({"round_robin_cycles": 2}, "round_robin_cycles"),
        ({"seeding": "lot"}, "seeding"),
        ({"knockout_players": 2}, "knockout_players"),
        ({"format": "knockout"}, "format"),
    ],
)
def test_settings_that_cannot_work_are_refused_with_the_field_named(
    client: Client, changes: dict[str, Any], field: str
) -> None:
    # rule T-FMT-10: combinations that cannot work are rejected at creation (422, nothing stored)
    response = client.post("/api/v1/tournaments", json={**SPRING, **changes}, headers=DIRECTOR)
    assert response.status_code == 422, response.text
    assert field in {error["field"] for error in response.json()["errors"]}
    assert client.get("/api/v1/tournaments").json() == []


def test_a_round_robin_of_more_than_twelve_says_so(client: Client) -> None:
    # rule T-FMT-11: at most 12 players
    body = {**SPRING, "format": "round_robin", "capacity": 16}
    response = client.post("/api/v1/tournaments", json=body, headers=DIRECTOR)
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {"field": "capacity", "message": "a round robin seats at most 12 players"}
    ]


def test_a_round_robin_day_plays_the_berger_schedule_to_the_places(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-11: five players, five rounds, one rest each; rests worth nothing
    day = start_tournament(client, clock, 5, format="round_robin")
    for number in range(2, 6):
        for pairing in day.rounds[-1]["pairings"]:
            if pairing["match_id"] is not None:
                report(client, day, pairing)
        response = client.post(day.url("/rounds"), headers=DIRECTOR)
        assert response.status_code == 201, response.text
        assert response.json()["round"] == number
        day.rounds.append(response.json())
    for pairing in day.rounds[-1]["pairings"]:
        if pairing["match_id"] is not None:
            report(client, day, pairing)

    assert {r["stage"] for r in day.rounds} == {"round_robin"}
    pairings = [p for r in day.rounds for p in r["pairings"]]
    assert {p["stage"] for p in pairings} == {"round_robin"}
    rests = [p for p in pairings if p["player_b"] is None]
    assert sorted(p["player_a"] for p in rests) == sorted(day.players)
    assert all(p["match_id"] is None and p["seed_b"] is None for p in rests)
    met = [frozenset((p["player_a"], p["player_b"])) for p in pairings if p["player_b"]]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(day.players, 2)), key=sorted
    )
    # the Berger numbers are fixed at the start: each player keeps one number 1..5
    numbers = {(p["player_a"], p["seed_a"]) for p in pairings} | {
        (p["player_b"], p["seed_b"]) for p in pairings if p["player_b"]
    }
    assert sorted(number for _, number in numbers) == [1, 2, 3, 4, 5]

    standings = client.get(day.url("/standings")).json()
    assert sum(row["wins"] for row in standings) == 10
    assert all(set(row["tiebreaks"]) == {"head_to_head", "lot"} for row in standings)
    places = client.get(day.url("/places")).json()
    assert [p["place"] for p in places] == [1, 2, 3, 4, 5]
    assert [p["player_id"] for p in places] == [row["player_id"] for row in standings]
    assert client.get(day.url("")).json()["status"] == "completed"
    assert client.post(day.url("/rounds"), headers=DIRECTOR).status_code == 409


def test_overrides_and_late_entries_answer_409_for_a_fixed_schedule(
    client: Client, clock: MovableClock
) -> None:
    # API "Formats": PUT .../pairings and POST .../late-entries, problem type format-fixed-schedule
    day = start_tournament(client, clock, 4, format="round_robin")
    tables = day.rounds[0]["pairings"]
    body = {
        "pairings": [{"player_a": t["player_b"], "player_b": t["player_a"]} for t in tables],
        "reason": "the players asked",
    }
    override = client.put(day.url("/rounds/1/pairings"), json=body, headers=DIRECTOR)
    assert override.status_code == 409, override.text
    assert override.json()["type"].endswith("format-fixed-schedule")
    late = client.post(
        f"/api/v1/tournaments/{day.id}/registrations",
        json={"first_name": "Spät", "last_name": "Kommer", "email": "spaet@example.org", "age": 40},
        headers=DIRECTOR,
    )
    assert late.status_code == 201, late.text
    entry = client.post(
        day.url("/late-entries"),
        json={"registration_id": late.json()["registration_id"]},
        headers=DIRECTOR,
    )
    assert entry.status_code == 409, entry.text
    assert entry.json()["type"].endswith("format-fixed-schedule")


def test_a_late_registration_of_a_fixed_schedule_is_not_checked_in_and_pays_nothing(
    client: Client, clock: MovableClock
) -> None:
    # rules T-FMT-11 (late entries are refused), T-BUYIN-1 (the pot is the checked-in players'),
    # T-CHECKIN-1: a registration after the start of a round robin can never join the field,
    # so its arrival records no check-in and no buy-in paid (as the desk's late entry refuses
    # it before its proof), and the seats and the public list show nobody who never plays
    day = start_tournament(client, clock, 4, format="round_robin")
    late = client.post(
        f"/api/v1/tournaments/{day.id}/registrations",
        json={"first_name": "Spät", "last_name": "Kommer", "email": "spaet@example.org", "age": 40},
        headers=DIRECTOR,
    )
    assert late.status_code == 201, late.text
    seats = client.get(day.url("/seats")).json()

    checked_in = client.post(
        day.url(f"/registrations/{late.json()['registration_id']}/check-in"),
        json={"id_document_seen": True, "buy_in_paid_cents": 10000},
        headers=DIRECTOR,
    )

    assert checked_in.status_code == 409, checked_in.text
    assert checked_in.json()["type"].endswith("format-fixed-schedule")
    assert client.get(day.url("/seats")).json() == seats
    listed = client.get(day.url("/registrations"), headers=DIRECTOR).json()
    spaet = next(r for r in listed if r["email"] == "spaet@example.org")
    assert (spaet["checked_in_at"], spaet["buy_in_paid_cents"]) == (None, None)


def test_the_public_pages_and_printouts_show_a_round_robin(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-11: every page of the day serves a round robin, its rounds named as such
    day = start_tournament(client, clock, 3, format="round_robin")
    base = f"/pages/tournaments/{day.id}"
    for path in ("", "/standings", "/bracket", "/print/pairings?by=table", "/print/standings"):
        assert client.get(base + path).status_code == 200, path
    assert "Jeder gegen jeden" in client.get(base + "/wallboard").text
    assert "Round robin" in client.get(base + "/wallboard?lang=en").text
    assert "Jeder gegen jeden" in client.get(base + "/print/pairings?by=table").text
    as_csv = client.get(day.url("/standings"), headers={"Accept": "text/csv"})
    assert as_csv.status_code == 200
    assert len(as_csv.text.strip().splitlines()) == 4
