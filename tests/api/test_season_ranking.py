"""A season of three tournaments over REST: the ranking equals an independent count of the
rules, row by row, and every explanation adds up to its row (R-ATT-1, R-ATT-2, R-MATCH-1,
R-BYE-1, R-CLASS-1, R-TIE-1, C-EXCL-1, T-FMT-5..7)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import Day, pair_next, report
from tests.api.test_tournaments import CALENDAR, advance_to, person, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
ATTENDANCE = 7


def open_day(
    client: Client, season_id: str, date: str, people: list[int], **terms: Any
) -> tuple[str, dict[str, dict[str, Any]]]:
    tournament = schedule(client, season_id=season_id, date=date, name=f"Turnier {date}", **terms)
    registered = {}
    for number in people:
        response = client.post(
            f"/api/v1/tournaments/{tournament['id']}/registrations",
            json=person(number),
            headers=DIRECTOR,
        )
        assert response.status_code == 201, response.text
        registered[response.json()["player_id"]] = response.json()
    return tournament["id"], registered


def run_day(
    client: Client,
    clock: MovableClock,
    tournament_id: str,
    registered: dict[str, dict[str, Any]],
    check_in: datetime,
    during_round: Callable[[Day, int], None],
) -> Day:
    advance_to(client, clock, check_in)
    for registration in registered.values():
        client.post(
            f"/api/v1/tournaments/{tournament_id}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        ).raise_for_status()
    day = Day(id=tournament_id, players=registered)
    started = client.post(day.url("/start"), headers=DIRECTOR).json()
    day.rounds.append(started["round"])
    while True:
        during_round(day, len(day.rounds))
        open_tables = [
            row
            for row in client.get(day.url("/matches")).json()
            if row["status"] != "decided" and row["round"] == len(day.rounds)
        ]
        for row in open_tables:
            table = next(t for t in day.rounds[-1]["pairings"] if t["match_id"] == row["match_id"])
            report(client, day, table)
        if client.get(day.url()).json()["status"] == "completed":
            return day
        pair_next(client, day)


def independent_count(
    client: Client, days: list[Day], revoked: dict[str, set[str]]
) -> dict[str, tuple[int, int, int]]:
    """(points, tournament wins, tournaments played) by player, counted from what the API
    shows of each tournament: its matches, their match lengths and its places."""
    points: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for day in days:
        for player in day.players:
            played[player] += 1
            if player not in revoked[day.id]:
                points[player] += ATTENDANCE  # rule R-ATT-1, R-ATT-2
        lengths = {
            t["match_id"]: t["match_length"]
            for r in day.rounds
            for t in r["pairings"]
            if t["match_id"]
        }
        for row in client.get(day.url("/matches")).json():
            if row["played"]:  # rule R-MATCH-1; R-BYE-1: byes and unplayed matches score 0
                points[row["winner"]] += lengths[row["match_id"]]
        wins[client.get(day.url("/places")).json()[0]["player_id"]] += 1
    return {player: (points[player], wins[player], played[player]) for player in played}


def test_the_season_ranking_equals_an_independent_count_of_its_rules(
    client: Client, clock: MovableClock
) -> None:
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    spring_id, spring_people = open_day(client, season["id"], "2026-04-18", [1, 2, 3, 4, 5, 6])
    autumn_id, autumn_people = open_day(client, season["id"], "2026-10-10", [1, 2, 3, 7, 8])
    other_id, other_people = open_day(
        client, season["id"], "2026-12-12", [1, 2, 9, 10], **{"class": "Einsteiger"}
    )
    left_early: set[str] = set()
    excluded: set[str] = set()

    def spring_round(day: Day, number: int) -> None:
        if number == 1:  # a correction of round 1's first result
            table = day.rounds[0]["pairings"][0]
            first = report(client, day, table)
            loser = table["player_b"] if first["winner"] == table["player_a"] else table["player_a"]
            client.post(
                day.url("/results"),
                json={
                    "match_id": table["match_id"],
                    "winner": loser,
                    "points_a": 7 if loser == table["player_a"] else 2,
                    "points_b": 7 if loser == table["player_b"] else 2,
                    "corrects": first["result_id"],
                },
                headers=DIRECTOR,
            ).raise_for_status()
        if number == 2:  # a player leaves early: the open match is unplayed
            leaving = day.rounds[1]["pairings"][0]["player_a"]
            client.post(
                day.url("/withdrawals"),
                json={"player_id": leaving, "reason": "train", "left_early": True},
                headers=DIRECTOR,
            ).raise_for_status()
            left_early.add(leaving)

    def autumn_round(day: Day, number: int) -> None:
        if number == 2:  # five players: a bye every round; one player excluded
            table = next(t for t in day.rounds[1]["pairings"] if t["player_b"])
            client.post(
                day.url("/exclusions"),
                json={"player_id": table["player_b"], "reason": "conduct"},
                headers=DIRECTOR,
            ).raise_for_status()
            excluded.add(table["player_b"])

    spring_check_in = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)
    autumn_check_in = datetime(2026, 10, 10, 10, 30, tzinfo=UTC)
    winter_check_in = datetime(2026, 12, 12, 11, 30, tzinfo=UTC)
    spring = run_day(client, clock, spring_id, spring_people, spring_check_in, spring_round)
    autumn = run_day(client, clock, autumn_id, autumn_people, autumn_check_in, autumn_round)
    run_day(client, clock, other_id, other_people, winter_check_in, lambda day, number: None)
    assert any(t["player_b"] is None for r in autumn.rounds for t in r["pairings"])  # a bye

    expected = independent_count(
        client, [spring, autumn], {spring.id: left_early, autumn.id: excluded}
    )
    ranking = client.get(f"/api/v1/seasons/{season['id']}/ranking").json()
    assert {
        row["player_id"]: (row["points"], row["tournament_wins"], row["tournaments_played"])
        for row in ranking
    } == expected
    order = [(-p, -w, n) for p, w, n in (expected[row["player_id"]] for row in ranking)]
    assert order == sorted(order)  # rule R-TIE-1
    assert other_id not in {
        entry["tournament_id"]
        for row in ranking
        for entry in client.get(
            f"/api/v1/seasons/{season['id']}/ranking/{row['player_id']}"
        ).json()["entries"]
    }  # rule R-CLASS-1
    for row in ranking:
        explained = client.get(f"/api/v1/seasons/{season['id']}/ranking/{row['player_id']}").json()
        assert sum(entry["points"] for entry in explained["entries"]) == row["points"]
    page = client.get(f"/pages/seasons/{season['id']}/ranking")
    assert page.status_code == 200
    shown = [page.text.find(row["display_name"]) for row in ranking[:3]]
    assert -1 not in shown  # rule P-PUB-1: the club's "Rangliste", in the ranking's order
    assert shown == sorted(shown)
