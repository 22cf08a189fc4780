"""The season ranking over REST: rows, CSV, one row explained, 404s (rules R-ATT-1, R-MATCH-1,
R-BYE-1, R-TIE-1).

Rounds and results are driven through the domain's commands on the service's store: the REST
endpoints of the tournament day are built elsewhere (issue 8)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from litestar.testing import TestClient

from domain.events import DomainEvent
from domain.tournament import Tournament, TournamentNotFoundError, evolve, start
from domain.tournament.rounds import pair_next_round, record_result
from service.bootstrap import Services
from service.clock import MovableClock
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, register, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
UNKNOWN = "00000000-0000-4000-8000-000000000000"
CONTRACT_FIELDS = {
    "rank",
    "player_id",
    "display_name",
    "points",
    "attendance_points",
    "match_points",
    "tournament_wins",
    "tournaments_played",
}


def command(
    client: Client,
    tournament_id: str,
    decide: Callable[[Tournament, datetime], Sequence[DomainEvent]],
) -> Tournament:
    """One tournament command through the service's store; the views catch up."""
    services: Services = client.app.state.services
    commands = CommandRunner(services.store, services.clock, services.views)

    def load() -> Tournament:
        return services.store.load_as(
            UUID(tournament_id), evolve, Tournament, lambda: TournamentNotFoundError("")
        )

    return commands.update(load, evolve, decide, DECIDE_AGAIN).state


def create_season(client: Client) -> str:
    body = {"name": "Saison 2026", "starts_on": "2026-03-01", "ends_on": "2027-02-28"}
    response = client.post("/api/v1/seasons", json=body, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    season_id: str = response.json()["id"]
    return season_id


def play_three(client: Client, clock: MovableClock, season_id: str) -> dict[str, str]:
    """Three players, one Swiss round: a match of 7 points and a bye. Returns the player ids
    by role: ``winner``, ``loser``, ``bye``."""
    tournament = schedule(client, season_id=season_id, swiss_rounds=1)["id"]
    registrations = [register(client, tournament, number) for number in (1, 2, 3)]
    advance_to(client, clock, CHECK_IN_OPENS)
    for registration in registrations:
        response = client.post(
            f"/api/v1/tournaments/{tournament}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        )
        assert response.status_code == 200, response.text
    command(client, tournament, lambda state, now: start(state, lot_seed=1, now=now, actor="d"))
    state = command(
        client,
        tournament,
        lambda state, now: pair_next_round(
            state, seed=1, new_match_id=uuid4, now=now, actor="director"
        ),
    )
    [match] = [table for table in state.rounds[-1].tables if table.player_b is not None]
    [bye] = [table for table in state.rounds[-1].tables if table.player_b is None]
    assert match.match_id is not None
    assert match.player_b is not None
    match_id = match.match_id
    state = command(
        client,
        tournament,
        lambda state, now: record_result(
            state,
            result_id=uuid4(),
            match_id=match_id,
            winner=match.player_a,
            points_a=7,
            points_b=3,
            source="director",
            now=now,
            actor="director",
        ),
    )
    assert state.completed_at is not None
    return {
        "winner": str(match.player_a),
        "loser": str(match.player_b),
        "bye": str(bye.player_a),
    }


def ranking(client: Client, season_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/seasons/{season_id}/ranking")
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()
    return rows


def test_the_season_ranking_lists_every_present_player_with_the_contract_fields(
    client: Client, clock: MovableClock
) -> None:
    season = create_season(client)
    assert ranking(client, season) == []
    players = play_three(client, clock, season)
    rows = ranking(client, season)
    assert all(CONTRACT_FIELDS | {"season_revoked"} == set(row) for row in rows)
    summary = [
        (row["rank"], row["player_id"], row["points"], row["match_points"], row["tournament_wins"])
        for row in rows
    ]
    # the bye (R-BYE-1) and the lost match give nothing beyond the 7 for attendance
    tied = sorted([players["loser"], players["bye"]])
    assert summary == [
        (1, players["winner"], 14, 7, 1),
        (2, tied[0], 7, 0, 0),
        (2, tied[1], 7, 0, 0),
    ]
    assert {row["display_name"] for row in rows} == {"Vorname1 N.", "Vorname2 N.", "Vorname3 N."}
    assert all(row["attendance_points"] == 7 and row["tournaments_played"] == 1 for row in rows)


def test_the_ranking_answers_csv_with_a_header(client: Client, clock: MovableClock) -> None:
    season = create_season(client)
    play_three(client, clock, season)
    response = client.get(f"/api/v1/seasons/{season}/ranking", headers={"Accept": "text/csv"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    lines = list(csv.DictReader(io.StringIO(response.text)))
    rows = ranking(client, season)
    assert [line["player_id"] for line in lines] == [row["player_id"] for row in rows]
    assert set(lines[0]) >= CONTRACT_FIELDS
    assert lines[0]["points"] == "14"
    assert lines[0]["season_revoked"] == "false"


def test_one_row_is_explained_by_entries_that_add_up_to_its_points(
    client: Client, clock: MovableClock
) -> None:
    season = create_season(client)
    players = play_three(client, clock, season)
    for role, player in players.items():
        response = client.get(f"/api/v1/seasons/{season}/ranking/{player}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["player_id"] == player
        assert sum(entry["points"] for entry in body["entries"]) == body["points"], role
    winner = client.get(f"/api/v1/seasons/{season}/ranking/{players['winner']}").json()
    assert [(e["kind"], e["points"], e["rule"]) for e in winner["entries"]] == [
        ("attendance", 7, "R-ATT-1"),
        ("match_won", 7, "R-MATCH-1"),
        ("tournament_won", 0, "R-TIE-1"),
    ]
    assert winner["entries"][1]["stage"] == "swiss"
    assert winner["entries"][1]["round"] == 1
    bye = client.get(f"/api/v1/seasons/{season}/ranking/{players['bye']}").json()
    assert [(e["kind"], e["points"], e["match_id"]) for e in bye["entries"]] == [
        ("attendance", 7, None),
        ("match_unplayed", 0, None),
    ]


def test_an_unknown_season_or_a_player_without_a_row_is_404(
    client: Client, clock: MovableClock
) -> None:
    season = create_season(client)
    for path in (
        f"/api/v1/seasons/{UNKNOWN}/ranking",
        f"/api/v1/seasons/{UNKNOWN}/ranking/{UNKNOWN}",
        f"/api/v1/seasons/{season}/ranking/{UNKNOWN}",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["type"].endswith("/not-found")
    csv_404 = client.get(f"/api/v1/seasons/{UNKNOWN}/ranking", headers={"Accept": "text/csv"})
    assert csv_404.status_code == 404


def test_the_openapi_document_describes_the_ranking(client: Client) -> None:
    document = client.get("/schema/openapi.json").json()
    table = document["paths"]["/api/v1/seasons/{season_id}/ranking"]["get"]
    assert set(table["responses"]["200"]["content"]) == {"application/json", "text/csv"}
    rows = table["responses"]["200"]["content"]["application/json"]["schema"]
    row_name = rows["items"]["$ref"].rsplit("/", 1)[-1]
    row = document["components"]["schemas"][row_name]
    assert CONTRACT_FIELDS | {"season_revoked"} == set(row["required"])
    one = document["paths"]["/api/v1/seasons/{season_id}/ranking/{player_id}"]["get"]
    explained = one["responses"]["200"]["content"]["application/json"]["schema"]
    assert explained == {"$ref": "#/components/schemas/RankingExplained"}
    assert "entries" in document["components"]["schemas"]["RankingExplained"]["required"]
