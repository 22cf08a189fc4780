"""Whole tournament days over REST: start, Swiss rounds, results, standings, knockout, places
and prizes, with some matches played move by move and the rest reported (T-FMT-1..8, T-BUYIN-1)."""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournaments import advance_to, person, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
Side = Literal["a", "b"]
CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)  # 12:30 in Berlin


@dataclass
class Day:
    """A started tournament as the test drives it."""

    id: str
    players: dict[str, dict[str, Any]]
    """Each registration's answer by player id (its ``player_token`` acts for the player)."""
    swiss_rounds: int = 0
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def url(self, path: str = "") -> str:
        return f"/api/v1/tournaments/{self.id}{path}"


def start_tournament(client: Client, clock: MovableClock, players: int, **terms: Any) -> Day:
    created = schedule(client, capacity=max(players, 2), **terms)
    registrations = {}
    for number in range(1, players + 1):
        response = client.post(
            f"/api/v1/tournaments/{created['id']}/registrations",
            json=person(number),
            headers=DIRECTOR,  # the club registers the people who write to it
        )
        assert response.status_code == 201, response.text
        registrations[response.json()["player_id"]] = response.json()
    advance_to(client, clock, CHECK_IN_OPENS)
    for registration in registrations.values():
        response = client.post(
            f"/api/v1/tournaments/{created['id']}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        )
        assert response.status_code == 200, response.text
    day = Day(id=created["id"], players=registrations)
    response = client.post(day.url("/start"), headers=DIRECTOR)
    assert response.status_code == 200, response.text
    first = response.json()["round"]
    assert first["round"] == 1
    day.rounds.append(first)
    day.swiss_rounds = response.json()["swiss_rounds"]
    return day


def lot(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:4], "big")


def report(
    client: Client, day: Day, pairing: dict[str, Any], winner: Side | None = None
) -> dict[str, Any]:
    """The director reports a result: the winner ("a" or "b", else decided by a stable lot)
    and the loser's points."""
    length = pairing["match_length"]
    a_wins = winner == "a" if winner else lot(pairing["match_id"]) % 2 == 0
    loser_points = lot(pairing["match_id"], "points") % length
    body = {
        "match_id": pairing["match_id"],
        "winner": pairing["player_a"] if a_wins else pairing["player_b"],
        "points_a": length if a_wins else loser_points,
        "points_b": loser_points if a_wins else length,
    }
    response = client.post(day.url("/results"), json=body, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def play_through_api(client: Client, day: Day, pairing: dict[str, Any], winner: str) -> None:
    """The two players play the match on the table's tablet with their registration tokens:
    in every game the loser resigns a backgammon after the winner's opening play (3 points)."""
    tokens = {
        "a": day.players[pairing["player_a"]]["player_token"],
        "b": day.players[pairing["player_b"]]["player_token"],
    }
    loser = "b" if winner == "a" else "a"
    url = f"/api/v1/matches/{pairing['match_id']}"

    def send(side: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = client.post(
            f"{url}/{path}", json=body, headers={"Authorization": f"Bearer {tokens[side]}"}
        )
        assert response.status_code == 200, response.text
        state: dict[str, Any] = response.json()
        return state

    state = client.get(url).json()
    while state["phase"] != "match_over":
        state = send("a", "rolls", {"dice": [6, 5] if winner == "a" else [5, 6]})
        state = send(winner, "plays", {"play": state["legal_plays"][0]["play"]})
        state = send(loser, "resignations", {"level": "backgammon"})
        state = send(winner, "resignations/accept", {})


def standings(client: Client, day: Day) -> list[dict[str, Any]]:
    response = client.get(day.url("/standings"))
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()
    return rows


def pair_next(client: Client, day: Day) -> dict[str, Any]:
    response = client.post(day.url("/rounds"), headers=DIRECTOR)
    assert response.status_code == 201, response.text
    paired: dict[str, Any] = response.json()
    day.rounds.append(paired)
    return paired


BRUTE_FORCE_PLAYERS = 10
"""Up to this many active players a round is checked against every possible pairing."""


def fewest_rematches(players: list[str], met: set[frozenset[str]], byes: list[str]) -> int:
    """The fewest rematches any pairing of ``players`` has, the bye (odd fields) to one of
    ``byes``: an exhaustive search, to tell an avoidable rematch from an unavoidable one."""

    def pairings(rest: list[str]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        return min(
            (frozenset((first, other)) in met) + pairings([p for p in others if p != other])
            for other in others
        )

    if len(players) % 2 == 0:
        return pairings(players)
    return min(pairings([p for p in players if p != bye]) for bye in byes)


def check_swiss_round(day: Day, paired: dict[str, Any], before: list[dict[str, Any]]) -> None:
    """rule T-FMT-1, T-FMT-2: everyone active once; no rematch where one can be avoided; one
    bye for an odd field, never a second one, to the lowest score group unless only a higher
    bye avoids a rematch."""
    active = sorted(row["player_id"] for row in before if not row["withdrawn"])
    seen = [p for t in paired["pairings"] for p in (t["player_a"], t["player_b"]) if p]
    assert sorted(seen) == active
    met = {
        frozenset((t["player_a"], t["player_b"]))
        for earlier in day.rounds[:-1]
        for t in earlier["pairings"]
        if t["player_b"]
    }
    had_bye = {
        t["player_a"]
        for earlier in day.rounds[:-1]
        for t in earlier["pairings"]
        if not t["player_b"]
    }
    wins = {row["player_id"]: row["wins"] for row in before}
    eligible = [p for p in active if p not in had_bye]
    lowest = [p for p in eligible if wins[p] == min(wins[q] for q in eligible)] if eligible else []
    rematches = sum(
        frozenset((t["player_a"], t["player_b"])) in met
        for t in paired["pairings"]
        if t["player_b"]
    )
    byes = [t["player_a"] for t in paired["pairings"] if t["player_b"] is None]
    assert len(byes) == len(active) % 2
    if len(active) > BRUTE_FORCE_PLAYERS:
        assert rematches == 0
    else:
        assert rematches == fewest_rematches(active, met, eligible or active)
    for player in byes:
        assert player not in had_bye
        assert [t["reason"] for t in paired["pairings"] if t["player_a"] == player] == ["bye"]
        if player not in lowest and len(active) <= BRUTE_FORCE_PLAYERS:
            # a higher bye only where every bye of the lowest score group forces a rematch
            assert fewest_rematches(active, met, lowest) > rematches
        elif len(active) > BRUTE_FORCE_PLAYERS:
            assert player in lowest


def check_order(rows: list[dict[str, Any]]) -> None:
    """rule T-FMT-3: wins, then points, then Buchholz (head-to-head and lot break the rest)."""
    keys = [(r["wins"], r["points"], r["tiebreaks"]["buchholz"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))


def run_day(
    client: Client, clock: MovableClock, players: int, semi_final_winner: Side | None = None
) -> Day:
    """A whole day over REST; the semi-finals' winners are the side named (else by lot)."""
    day = start_tournament(client, clock, players)
    swiss_rounds = day.swiss_rounds
    # before round 1 nobody has won (the standings already count round 1's bye)
    before = [{**row, "wins": 0} for row in standings(client, day)]
    check_swiss_round(day, day.rounds[0], before)
    first_table = next(t for t in day.rounds[0]["pairings"] if t["player_b"])
    play_through_api(client, day, first_table, winner="b")
    while True:
        current = day.rounds[-1]
        for table in current["pairings"]:
            if table["player_b"] and table is not first_table:
                report(client, day, table)
        rows = standings(client, day)
        check_order(rows)
        if len(day.rounds) == swiss_rounds:
            break
        paired = pair_next(client, day)
        check_swiss_round(day, paired, rows)
    swiss = standings(client, day)
    if players >= 4:
        semis = pair_next(client, day)
        order = [row["player_id"] for row in swiss]
        assert [(t["stage"], t["player_a"], t["player_b"]) for t in semis["pairings"]] == [
            ("semi_final", order[0], order[3]),
            ("semi_final", order[1], order[2]),
        ]
        for table in semis["pairings"]:
            report(client, day, table, semi_final_winner)
        finals = pair_next(client, day)
        assert [t["stage"] for t in finals["pairings"]] == ["final", "third_place"]
        for table in finals["pairings"]:
            report(client, day, table)
    refused = client.post(day.url("/rounds"), headers=DIRECTOR)
    assert refused.status_code == 409
    assert client.get(day.url()).json()["status"] == "completed"
    return day


@pytest.mark.parametrize("players", [20, 17, 8, 4])
def test_a_whole_tournament_day_runs_over_rest(
    client: Client, clock: MovableClock, players: int
) -> None:
    day = run_day(client, clock, players)
    places = client.get(day.url("/places")).json()
    assert [row["place"] for row in places] == list(range(1, players + 1))
    assert sorted(row["player_id"] for row in places) == sorted(day.players)
    finals = day.rounds[-1]["pairings"]
    final_winner = client.get(f"/api/v1/matches/{finals[0]['match_id']}")
    assert final_winner.status_code == 200
    matches = {row["match_id"]: row for row in client.get(day.url("/matches")).json()}
    final_row, third_row = matches[finals[0]["match_id"]], matches[finals[1]["match_id"]]
    assert places[0]["player_id"] == final_row["winner"]
    assert {places[0]["player_id"], places[1]["player_id"]} == {
        final_row["player_a"],
        final_row["player_b"],
    }
    assert places[2]["player_id"] == third_row["winner"]
    # rule T-FMT-4: places 5.. follow the Swiss standings
    swiss_order = [row["player_id"] for row in standings(client, day)]
    top_four = {row["player_id"] for row in places[:4]}
    assert [row["player_id"] for row in places[4:]] == [p for p in swiss_order if p not in top_four]
    # rule T-BUYIN-1: 80 EUR per player, 50/30/20, paid out to the cent
    prizes = client.get(day.url("/prizes")).json()
    assert prizes["pot_cents"] == players * 8000
    assert sum(p["amount_cents"] for p in prizes["payouts"]) == prizes["pot_cents"]
    assert [p["player_id"] for p in prizes["payouts"]] == [r["player_id"] for r in places[:3]]


def test_the_match_played_through_the_api_records_its_result_in_the_tournament_once(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    play_through_api(client, day, table, winner="a")
    row = next(
        r for r in client.get(day.url("/matches")).json() if r["match_id"] == table["match_id"]
    )
    assert (row["status"], row["winner"], row["score"]) == (
        "decided",
        table["player_a"],
        {"a": 9, "b": 0},
    )
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    recorded = [e for e in stream if e["type"] == "ResultRecorded"]
    assert [(e["data"]["match_id"], e["data"]["source"]) for e in recorded] == [
        (table["match_id"], "match")
    ]
    reported = client.post(
        day.url("/results"),
        json={
            "match_id": table["match_id"],
            "winner": table["player_a"],
            "points_a": 7,
            "points_b": 0,
        },
        headers=DIRECTOR,
    )
    assert reported.status_code == 409
    assert reported.json()["type"].endswith("result-recorded")


def test_a_registration_token_acts_only_in_its_own_players_matches(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    first, second = day.rounds[0]["pairings"]
    stranger = day.players[second["player_a"]]["player_token"]
    response = client.post(
        f"/api/v1/matches/{first['match_id']}/rolls",
        json={"dice": [6, 5]},
        headers={"Authorization": f"Bearer {stranger}"},
    )
    assert response.status_code == 403
    state = client.get(f"/api/v1/matches/{first['match_id']}").json()
    assert (state["tournament_id"], state["round"], state["table"], state["stage"]) == (
        day.id,
        1,
        1,
        "swiss",
    )
    names = {state["players"]["a"], state["players"]["b"]}
    assert all(name.endswith(".") for name in names)  # display names, "Vorname1 N."


def test_a_corrected_result_moves_the_standings_and_leaves_the_next_round_as_paired(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-6
    day = start_tournament(client, clock, 6)
    results = {t["match_id"]: report(client, day, t) for t in day.rounds[0]["pairings"]}
    second = pair_next(client, day)
    table = day.rounds[0]["pairings"][0]
    old = results[table["match_id"]]
    loser = table["player_b"] if old["winner"] == table["player_a"] else table["player_a"]
    before = {r["player_id"]: r["wins"] for r in standings(client, day)}
    response = client.post(
        day.url("/results"),
        json={
            "match_id": table["match_id"],
            "winner": loser,
            "points_a": 7 if loser == table["player_a"] else 0,
            "points_b": 7 if loser == table["player_b"] else 0,
            "corrects": old["result_id"],
            "reason": "score sheet misread",
        },
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    corrected = response.json()
    assert corrected["corrects"] == old["result_id"]
    assert corrected["affects"]["rounds_paired_since"] == [2]
    changed = {row["player_id"] for row in corrected["affects"]["standings"]}
    assert {old["winner"], loser} <= changed
    after = {r["player_id"]: r["wins"] for r in standings(client, day)}
    assert (after[loser], after[old["winner"]]) == (before[loser] + 1, before[old["winner"]] - 1)
    assert client.get(day.url("/rounds/2")).json()["pairings"] == second["pairings"]
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    for_table = [e["data"] for e in stream if e["type"] == "ResultRecorded"]
    assert [d["corrects"] for d in for_table if d["match_id"] == table["match_id"]] == [
        None,
        old["result_id"],
    ]


def test_the_next_round_is_refused_while_results_are_missing(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    report(client, day, day.rounds[0]["pairings"][0])
    response = client.post(day.url("/rounds"), headers=DIRECTOR)
    assert response.status_code == 409
    problem = response.json()
    assert problem["type"].endswith("results-missing")
    assert problem["tables"] == [2, 3]


def test_a_player_who_withdraws_forfeits_and_is_not_paired_again(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-5
    day = start_tournament(client, clock, 6)
    table = day.rounds[0]["pairings"][0]
    response = client.post(
        day.url("/withdrawals"),
        json={"player_id": table["player_a"], "reason": "train home", "left_early": True},
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    assert response.json()["forfeits"] == [table["match_id"]]
    match = client.get(f"/api/v1/matches/{table['match_id']}").json()
    assert match["phase"] == "match_over"
    for other in day.rounds[0]["pairings"][1:]:
        report(client, day, other)
    rows = {r["player_id"]: r for r in standings(client, day)}
    assert (rows[table["player_b"]]["wins"], rows[table["player_b"]]["points"]) == (1, 0)
    assert rows[table["player_a"]]["withdrawn"] is True
    second = pair_next(client, day)
    paired = {p for t in second["pairings"] for p in (t["player_a"], t["player_b"])}
    assert table["player_a"] not in paired


def test_standings_answer_csv(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    response = client.get(day.url("/standings"), headers={"Accept": "text/csv"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [row["player_id"] for row in rows] == [r["player_id"] for r in standings(client, day)]
    assert {"rank", "display_name", "wins", "points", "buchholz"} <= set(rows[0])
    assert {row["place"] for row in rows} == {""}  # no place before the tournament is completed


def test_after_the_knockout_the_standings_carry_the_final_places_in_json_and_csv(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-4: places 1-4 come from the knockout, so a Swiss rank is no place; the Swiss
    # ranks 3 and 4 win the semi-finals (side b), so the places differ from the ranks
    day = run_day(client, clock, 4, semi_final_winner="b")
    places = {p["player_id"]: p["place"] for p in client.get(day.url("/places")).json()}
    rows = standings(client, day)
    assert {row["player_id"]: row["place"] for row in rows} == places
    assert [row["place"] for row in rows] != [row["rank"] for row in rows]
    response = client.get(day.url("/standings"), headers={"Accept": "text/csv"})
    sheet = list(csv.DictReader(io.StringIO(response.text)))
    assert response.text.startswith("place,rank,")
    assert {row["player_id"]: int(row["place"]) for row in sheet} == places


def test_ad_hoc_matches_of_a_tournament_need_it_running_and_its_seated_players(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    a, b = list(day.players)[:2]
    body = {"player_a": a, "player_b": b, "match_length": 3, "tournament_id": day.id.upper()}
    created = client.post("/api/v1/matches", json=body, headers=DIRECTOR)
    assert created.status_code == 201, created.text
    events = client.get(f"/api/v1/matches/{created.json()['id']}/events").json()
    assert events[0]["data"]["tournament_id"] == day.id
    assert created.json()["match"]["players"] == {"a": "Vorname1 N.", "b": "Vorname2 N."}
    unknown = {**body, "tournament_id": "00000000-0000-4000-8000-000000000000"}
    assert client.post("/api/v1/matches", json=unknown, headers=DIRECTOR).status_code == 404
    stranger = {**body, "player_b": "Somebody Else"}
    refused = client.post("/api/v1/matches", json=stranger, headers=DIRECTOR)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["field"] == "player_b"
    same = {**body, "player_b": a}
    assert client.post("/api/v1/matches", json=same, headers=DIRECTOR).status_code == 422


def test_a_result_reported_from_the_board_ends_the_match_itself(
    client: Client, clock: MovableClock
) -> None:
    # the board's result ends the match: its clock stops and it takes no more commands
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    token = day.players[table["player_a"]]["player_token"]
    url = f"/api/v1/matches/{table['match_id']}"
    started = client.post(
        f"{url}/rolls", json={"dice": [6, 5]}, headers={"Authorization": f"Bearer {token}"}
    )
    assert started.status_code == 200
    reported = report(client, day, table)
    state = client.get(url).json()
    winner_side = "a" if reported["winner"] == table["player_a"] else "b"
    assert (state["phase"], state["winner"]) == ("match_over", winner_side)
    assert state["score"] == {"a": reported["points_a"], "b": reported["points_b"]}
    clock.advance(3 * 60 * 60)
    claim = client.post(f"{url}/timeouts", json={}, headers={"Authorization": f"Bearer {token}"})
    assert claim.status_code == 409
    services = client.app.state.services
    assert [job for job in services.jobs.due(clock.now()) if job.kind == "flag_clock"] == []


def test_a_registration_after_an_early_start_is_told_when_the_tournament_started(
    client: Client, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: the director may start before the latest start (13:00), here at 12:30
    day = start_tournament(client, clock, 4)
    late = client.post(day.url("/registrations"), json=person(9))
    assert late.status_code == 409
    assert late.json()["started_at"] == "2026-04-18T12:30:00+02:00"
    assert late.json()["starts_at"] == "2026-04-18T13:00:00+02:00"  # as before, for clients
    assert "12:30" in late.json()["detail"]
    assert "13:00" not in late.json()["detail"]
