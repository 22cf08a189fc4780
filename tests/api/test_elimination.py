"""The elimination over REST: the creation body's consolation fields, a day paired from both
brackets to the places and the prizes, and the refusals of fixed brackets
(rules T-FMT-10, T-FMT-12..14; API.md "Formats")."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import report, start_tournament
from tests.api.test_tournaments import SPRING, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_an_elimination_is_created_with_its_defaults_and_shows_them(client: Client) -> None:
    # API.md "Formats": first_round consolation, 20 % of the pot, [60, 40], seeds by lot
    created = schedule(client, format="elimination", match_length=5)
    assert (created["format"], created["capacity"], created["swiss_rounds"]) == (
        "elimination",
        20,
        0,
    )
    assert (created["consolation"], created["seeding"]) == ("first_round", "lot")
    assert created["consolation_match_length"] == 5
    assert created["consolation_pot_percent"] == 20
    assert created["consolation_payout_percent"] == [60, 40]
    assert created["consolation_played"] is None
    swiss = schedule(client)
    assert (swiss["consolation"], swiss["consolation_pot_percent"]) == (None, None)


def test_the_start_shows_the_consolation_the_field_plays(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-13: five players have one round-1 loser only: no consolation is played
    day = start_tournament(client, clock, 5, format="elimination")
    shown = client.get(day.url("")).json()
    assert (shown["consolation"], shown["consolation_played"]) == ("first_round", "none")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"consolation": "progressive", "capacity": 8},
            "consolation",
            "a progressive consolation needs at least 9 players: use first_round",
        ),
        ({"knockout_players": 4}, "knockout_players", None),
        ({"swiss_rounds": 3}, "swiss_rounds", None),
        ({"consolation": "none", "consolation_pot_percent": 10}, "consolation_pot_percent", None),
        ({"consolation_payout_percent": [50, 40]}, "consolation_payout_percent", None),
        ({"consolation": "double"}, "consolation", None),
    ],
)
def test_an_elimination_that_cannot_work_is_refused_with_the_field_named(
    client: Client, changes: dict[str, Any], field: str, message: str | None
) -> None:
    # rule T-FMT-10; API.md "Formats": 422 with the field, nothing stored
    body = {**SPRING, "format": "elimination", **changes}
    response = client.post("/api/v1/tournaments", json=body, headers=DIRECTOR)
    assert response.status_code == 422, response.text
    errors = response.json()["errors"]
    assert field in {error["field"] for error in errors}
    if message:
        assert {"field": field, "message": message} in errors
    assert client.get("/api/v1/tournaments").json() == []


def test_a_consolation_field_outside_the_elimination_is_refused(client: Client) -> None:
    # API.md "Formats": consolation fields with another format, each its own field
    body = {**SPRING, "format": "round_robin", "consolation_pot_percent": 10}
    response = client.post("/api/v1/tournaments", json=body, headers=DIRECTOR)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "consolation_pot_percent"


def test_an_elimination_of_seven_plays_both_brackets_to_the_places_and_prizes(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-12: B = 8, seed 1 has the bye; T-FMT-13: round-1 losers play a consolation
    day = start_tournament(client, clock, 7, format="elimination")
    first = day.rounds[0]
    assert first["stage"] == "elimination"
    assert [(p["seed_a"], p["seed_b"]) for p in first["pairings"]] == [
        (4, 5),
        (2, 7),
        (3, 6),
        (1, None),
    ]
    assert {p["bracket"] for p in first["pairings"]} == {"main"}
    assert {p["bracket_round"] for p in first["pairings"]} == {1}
    bye = first["pairings"][-1]
    assert (bye["match_id"], bye["player_b"]) == (None, None)
    while True:
        for pairing in day.rounds[-1]["pairings"]:
            if pairing["match_id"] is not None:
                report(client, day, pairing)
        if client.get(day.url("")).json()["status"] == "completed":
            break
        response = client.post(day.url("/rounds"), headers=DIRECTOR)
        assert response.status_code == 201, response.text
        day.rounds.append(response.json())
    assert len(day.rounds) == 3
    second = day.rounds[1]["pairings"]
    # rule T-FMT-13: consolation round 1 in tournament round 2: 3 losers, one with a bye
    consolation = [p for p in second if p["bracket"] == "consolation"]
    assert [p["stage"] for p in consolation] == ["consolation", "consolation"]
    assert sorted(p["player_b"] is None for p in consolation) == [False, True]
    last = day.rounds[2]["pairings"]
    assert sorted(p["stage"] for p in last) == ["consolation", "final", "third_place"]

    places = client.get(day.url("/places")).json()
    assert [p["place"] for p in places] == list(range(1, 8))
    assert sorted(p["player_id"] for p in places) == sorted(day.players)
    assert sorted(p["consolation_place"] or 0 for p in places)[-2:] == [1, 2]
    final = next(p for p in last if p["stage"] == "final")
    assert {places[0]["player_id"], places[1]["player_id"]} == {
        final["player_a"],
        final["player_b"],
    }
    # rule T-FMT-14: 20 % of the pot to the consolation, 60/40; every cent paid
    prizes = client.get(day.url("/prizes")).json()
    assert prizes["consolation_pot_cents"] == prizes["pot_cents"] * 20 // 100
    assert prizes["main_pot_cents"] + prizes["consolation_pot_cents"] == prizes["pot_cents"]
    assert sum(p["amount_cents"] for p in prizes["payouts"]) == prizes["pot_cents"]
    assert [p["bracket"] for p in prizes["payouts"]] == ["main"] * 3 + ["consolation"] * 2
    assert client.post(day.url("/rounds"), headers=DIRECTOR).status_code == 409
    # API.md "Formats": the standings list the places, without Buchholz
    standings = client.get(day.url("/standings")).json()
    assert [row["player_id"] for row in standings] == [p["player_id"] for p in places]
    assert [row["rank"] for row in standings] == list(range(1, 8))
    assert all("buchholz" not in row["tiebreaks"] for row in standings)
    # every page, printout and list of the day answers (no 500 for the brackets' stages)
    for path in (
        f"/pages/tournaments/{day.id}",
        f"/pages/tournaments/{day.id}/standings",
        f"/pages/tournaments/{day.id}/bracket",
        f"/pages/tournaments/{day.id}/wallboard",
        f"/pages/tournaments/{day.id}/print/standings",
        day.url("/standings"),
        day.url("/matches"),
        day.url("/rounds/3"),
    ):
        assert client.get(path, headers=DIRECTOR).status_code == 200, path


def test_an_elimination_refuses_overrides_with_format_fixed_schedule(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-12: pairing overrides are refused (409)
    day = start_tournament(client, clock, 4, format="elimination")
    tables = [p for p in day.rounds[0]["pairings"] if p["player_b"]]
    body = {
        "pairings": [{"player_a": t["player_b"], "player_b": t["player_a"]} for t in tables],
        "reason": "the players asked",
    }
    override = client.put(day.url("/rounds/1/pairings"), json=body, headers=DIRECTOR)
    assert override.status_code == 409, override.text
    assert override.json()["type"].endswith("format-fixed-schedule")


def test_the_prizes_before_the_end_split_the_pot_between_main_and_consolation(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-14: with a consolation played, floor(pot x 15 %) is the consolation pot and
    # the rest the main pot; each split rounds as T-BUYIN-1, the remainder to place 1
    terms: dict[str, Any] = {"pot_share_cents": 1333, "consolation_pot_percent": 15}
    terms |= {"payout_percent": [50, 30, 20], "consolation_payout_percent": [70, 30]}
    day = start_tournament(client, clock, 7, format="elimination", **terms)
    prizes = client.get(day.url("/prizes")).json()
    assert prizes["pot_cents"] == 7 * 1333 == 9331
    assert (prizes["main_pot_cents"], prizes["consolation_pot_cents"]) == (7932, 1399)
    assert [(p["bracket"], p["place"], p["amount_cents"]) for p in prizes["payouts"]] == [
        ("main", 1, 3967),
        ("main", 2, 2379),
        ("main", 3, 1586),
        ("consolation", 1, 980),
        ("consolation", 2, 419),
    ]
    assert {p["player_id"] for p in prizes["payouts"]} == {None}
    assert sum(p["amount_cents"] for p in prizes["payouts"]) == prizes["pot_cents"]
    assert prizes["unpaid_cents"] == 0


def test_the_prizes_of_an_elimination_without_a_consolation_are_all_main(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-13: four players play no consolation, so the whole pot is main (T-FMT-14)
    day = start_tournament(client, clock, 4, format="elimination")
    prizes = client.get(day.url("/prizes")).json()
    assert prizes["main_pot_cents"] == prizes["pot_cents"] > 0
    assert prizes["consolation_pot_cents"] == 0
    assert {p["bracket"] for p in prizes["payouts"]} == {"main"}
    assert sum(p["amount_cents"] for p in prizes["payouts"]) == prizes["pot_cents"]


def test_the_elimination_standings_rows_have_no_tiebreaks(
    client: Client, clock: MovableClock
) -> None:
    # API.md "Formats": an elimination's standings are its places, rows with `tiebreaks: {}`
    day = start_tournament(client, clock, 6, format="elimination")
    for pairing in day.rounds[0]["pairings"]:
        if pairing["match_id"] is not None:
            report(client, day, pairing)
    standings = client.get(day.url("/standings")).json()
    assert [row["tiebreaks"] for row in standings] == [{}] * 6
    # players still in the main bracket first: the four round-1 winners and byes
    losers = {
        p["player_a"] if r["winner"] == p["player_b"] else p["player_b"]
        for p in day.rounds[0]["pairings"]
        if p["match_id"] is not None
        for r in client.get(day.url("/matches")).json()
        if r["match_id"] == p["match_id"]
    }
    assert {row["player_id"] for row in standings[4:]} == losers
    table = client.get(day.url("/standings"), headers={"Accept": "text/csv"})
    assert table.status_code == 200
    assert len(table.text.strip().splitlines()) == 7
