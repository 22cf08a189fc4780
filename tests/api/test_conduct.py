"""Conduct over REST with the dev clock: breaks and their penalties, penalty points deciding a
match, exclusions and season bans (rules C-BREAK-1..3, C-EXCL-1, R-ATT-2, T-FMT-7)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import (
    Day,
    pair_next,
    play_through_api,
    report,
    standings,
    start_tournament,
)
from tests.api.test_tournaments import CALENDAR, person, schedule
from tests.api.test_venue import player_report
from tests.conftest import DIRECTOR
from tests.mailbox import confirmation_token

Client = TestClient[Any]


def match_state(client: Client, match_id: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/matches/{match_id}")
    assert response.status_code == 200
    state: dict[str, Any] = response.json()
    return state


def break_of(client: Client, day: Day, player_id: str) -> dict[str, Any]:
    rows = client.get(day.url("/breaks"), headers=DIRECTOR).json()
    row: dict[str, Any] = next(b for b in rows if b["player_id"] == player_id)
    return row


def match_row(client: Client, day: Day, match_id: str) -> dict[str, Any]:
    row: dict[str, Any] = next(
        r for r in client.get(day.url("/matches")).json() if r["match_id"] == match_id
    )
    return row


def penalise(
    client: Client, day: Day, match_id: str, player_id: str, points: int
) -> dict[str, Any]:
    response = client.post(
        day.url("/penalties"),
        json={"player_id": player_id, "match_id": match_id, "points": points, "reason": "late"},
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    penalty: dict[str, Any] = response.json()
    return penalty


def test_a_player_back_21_minutes_after_the_match_is_proposed_2_penalty_points(
    client: Client, clock: MovableClock
) -> None:
    # rules C-BREAK-1, C-BREAK-2: 10 minutes allowed, 11 late: 1 point after 5, 1 more after 10
    day = start_tournament(client, clock, 4)
    first, second = day.rounds[0]["pairings"]
    play_through_api(client, day, first, winner="a")  # a venue that records the matches
    report(client, day, second)
    paired = pair_next(client, day)  # the next match is paired as the last one ends
    late = first["player_a"]
    table = next(t for t in paired["pairings"] if late in (t["player_a"], t["player_b"]))
    clock.advance(21 * 60)  # 21 minutes after the end of the late player's match
    row = break_of(client, day, late)
    assert (row["late_minutes"], row["proposed_penalty"], row["ended_at"]) == (11, 2, None)
    assert row["next_match_id"] == table["match_id"]

    back = client.post(day.url("/breaks/present"), json={"player_id": late}, headers=DIRECTOR)
    assert (back.status_code, back.json()) == (200, {"present": [late]})
    clock.advance(5 * 60)  # the lateness stays what it was when the player came back
    row = next(
        b for b in client.get(day.url("/breaks"), headers=DIRECTOR).json() if b["player_id"] == late
    )
    assert (row["late_minutes"], row["proposed_penalty"]) == (11, 2)

    penalty = penalise(client, day, table["match_id"], late, row["proposed_penalty"])
    opponent_side = "b" if table["player_a"] == late else "a"
    state = match_state(client, table["match_id"])
    assert state["score"][opponent_side] == 2
    assert state["penalties"] == [
        {
            "penalty_id": penalty["penalty_id"],
            "side": "a" if opponent_side == "b" else "b",
            "points": 2,
        }
    ]
    waived = client.post(
        day.url(f"/penalties/{penalty['penalty_id']}/waive"),
        json={"reason": "the train was late"},
        headers=DIRECTOR,
    )
    assert waived.status_code == 200
    assert match_state(client, table["match_id"])["score"][opponent_side] == 0
    events = client.get(f"/api/v1/matches/{table['match_id']}/events").json()
    assert [e["type"] for e in events][-2:] == ["PenaltyAwarded", "PenaltyChanged"]


def test_an_agreed_return_time_moves_the_end_of_the_break(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-3
    day = start_tournament(client, clock, 4)
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    pair_next(client, day)
    player = day.rounds[0]["pairings"][0]["player_a"]
    until = clock.now().replace(microsecond=0).isoformat()
    refused = client.post(
        day.url(f"/breaks/{player}/return-time"), json={"until": until}, headers=DIRECTOR
    )
    assert refused.status_code == 422  # in the past
    agreed = (clock.now().replace(microsecond=0) + timedelta(minutes=30)).isoformat()
    response = client.post(
        day.url(f"/breaks/{player}/return-time"), json={"until": agreed}, headers=DIRECTOR
    )
    assert response.status_code == 204
    clock.advance(25 * 60)
    row = next(
        b
        for b in client.get(day.url("/breaks"), headers=DIRECTOR).json()
        if b["player_id"] == player
    )
    assert (row["late_minutes"], row["proposed_penalty"]) == (0, 0)
    clock.advance(10 * 60)
    row = next(
        b
        for b in client.get(day.url("/breaks"), headers=DIRECTOR).json()
        if b["player_id"] == player
    )
    assert (row["late_minutes"], row["proposed_penalty"]) == (5, 1)


def test_penalty_points_above_half_the_match_length_decide_the_match_and_its_result(
    client: Client, clock: MovableClock
) -> None:
    # rules C-BREAK-2, T-FMT-7: 4 of a 7-point match; the winner at 7, the result recorded once
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    penalise(client, day, table["match_id"], table["player_a"], 2)
    decided = penalise(client, day, table["match_id"], table["player_a"], 2)
    assert (decided["match_status"], decided["score_a"], decided["score_b"]) == ("finished", 0, 7)
    state = match_state(client, table["match_id"])
    assert (state["status"], state["winner"], state["score"]) == ("finished", "b", {"a": 0, "b": 7})
    row = next(
        r for r in client.get(day.url("/matches")).json() if r["match_id"] == table["match_id"]
    )
    assert (row["status"], row["winner"], row["score"]) == (
        "decided",
        table["player_b"],
        {"a": 0, "b": 7},
    )
    by_player = {r["player_id"]: r for r in standings(client, day)}
    assert (by_player[table["player_b"]]["wins"], by_player[table["player_b"]]["points"]) == (1, 7)
    assert by_player[table["player_a"]]["penalty_points"] == 4
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    assert [e["data"]["source"] for e in stream if e["type"] == "ResultRecorded"] == ["match"]


def test_an_excluded_player_loses_the_open_match_at_its_length_and_is_not_paired_again(
    client: Client, clock: MovableClock
) -> None:
    # rules C-EXCL-1, R-EXCL-1, T-FMT-7
    day = start_tournament(client, clock, 6)
    table = day.rounds[0]["pairings"][0]
    response = client.post(
        day.url("/exclusions"),
        json={"player_id": table["player_a"], "reason": "unsportsmanlike conduct"},
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    assert response.json()["forfeits"] == [table["match_id"]]
    row = next(
        r for r in client.get(day.url("/matches")).json() if r["match_id"] == table["match_id"]
    )
    assert (row["winner"], row["score"]) == (table["player_b"], {"a": 0, "b": 7})
    for other in day.rounds[0]["pairings"][1:]:
        report(client, day, other)
    second = pair_next(client, day)
    assert table["player_a"] not in {
        p for t in second["pairings"] for p in (t["player_a"], t["player_b"])
    }
    registrations = client.get(day.url("/registrations"), headers=DIRECTOR).json()
    excluded = next(r for r in registrations if r["player_id"] == table["player_a"])
    assert (excluded["status"], excluded["refund_cents"]) == ("excluded", None)


def test_a_banned_player_cannot_register_for_the_seasons_next_tournament(
    client: Client, clock: MovableClock
) -> None:
    # rule C-EXCL-1: the ban is an event of the season, with the director and the reason
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    first = schedule(client, season_id=season["id"], date="2026-04-18")
    registered = client.post(
        f"/api/v1/tournaments/{first['id']}/registrations", json=person(1), headers=DIRECTOR
    ).json()
    ban = client.post(
        f"/api/v1/seasons/{season['id']}/bans",
        json={
            "player_id": registered["player_id"],
            "reason": "third exclusion",
            "revoke_points": True,
        },
        headers=DIRECTOR,
    )
    assert ban.status_code == 201, ban.text
    assert ban.json()["until"] == "2027-02-28"
    second = schedule(client, season_id=season["id"], date="2026-10-10", name="Herbstturnier")
    url = f"/api/v1/tournaments/{second['id']}/registrations"
    refused = client.post(url, json=person(1), headers=DIRECTOR)
    assert refused.status_code == 403
    problem = refused.json()
    assert problem["type"].endswith("/banned")
    assert problem["until"] == "2027-02-28"
    assert "spieler1@example.org" not in refused.text
    # a stranger's request learns nothing: the same answer as for anyone; the ban is told to
    # whoever follows the link in the mail to the address (rule P-MAIL-1)
    asked, anyone = client.post(url, json=person(1)), client.post(url, json=person(2))
    assert (asked.status_code, asked.json()) == (anyone.status_code, anyone.json())
    token = confirmation_token(client.app, "spieler1@example.org")
    confirmed = client.post("/api/v1/registrations/confirm", json={"token": token})
    assert confirmed.status_code == 403
    assert confirmed.json()["type"].endswith("/banned")
    stream = client.get(f"/api/v1/audit/streams/{season['id']}", headers=DIRECTOR).json()
    [banned] = [e for e in stream if e["type"] == "PlayerBanned"]
    assert (banned["actor"], banned["data"]["reason"]) == ("director", "third exclusion")
    again = client.post(
        f"/api/v1/seasons/{season['id']}/bans",
        json={"player_id": registered["player_id"], "reason": "again"},
        headers=DIRECTOR,
    )
    assert again.status_code == 409


def test_nobody_is_on_a_break_before_the_next_match_is_paired(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-1: the break is between two matches; waiting for the pairing is not late
    day = start_tournament(client, clock, 4)
    for table in day.rounds[0]["pairings"]:
        play_through_api(client, day, table, winner="a")  # the matches' beginnings are recorded
    clock.advance(40 * 60)
    assert client.get(day.url("/breaks"), headers=DIRECTOR).json() == []
    pair_next(client, day)
    clock.advance(12 * 60)
    rows = client.get(day.url("/breaks"), headers=DIRECTOR).json()
    assert {(row["late_minutes"], row["proposed_penalty"]) for row in rows} == {(2, 0)}


def test_a_naive_return_time_is_a_422(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    player = day.rounds[0]["pairings"][0]["player_a"]
    response = client.post(
        day.url(f"/breaks/{player}/return-time"),
        json={"until": "2026-04-18T23:59:59"},
        headers=DIRECTOR,
    )
    assert response.status_code == 422


def test_the_scheduler_flags_a_break_that_runs_over_once(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-1: the scheduler flags over-long breaks for the director
    day = start_tournament(client, clock, 4)
    for table in day.rounds[0]["pairings"]:
        play_through_api(client, day, table, winner="b")  # the matches' beginnings are recorded
    pair_next(client, day)
    services = client.app.state.services
    jobs = [j for j in services.jobs.list_jobs() if j.kind == "flag_break"]
    assert [(j.target, j.status) for j in jobs] == [(UUID(day.id), "pending")]
    assert services.jobs.run_due(clock.now()) == []  # nobody is late yet
    clock.advance(11 * 60)
    [run] = services.jobs.run_due(clock.now())
    assert run.effect == "BreakOverrunFlagged x4"
    assert all(b["flagged"] for b in client.get(day.url("/breaks"), headers=DIRECTOR).json())
    assert services.jobs.run_due(clock.now()) == []  # flagged once
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    flags = [e for e in stream if e["type"] == "BreakOverrunFlagged"]
    assert len(flags) == 4
    assert {e["actor"] for e in flags} == {"scheduler"}


def breaks_now(client: Client, day: Day) -> list[dict[str, Any]]:
    response = client.get(day.url("/breaks"), headers=DIRECTOR)
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()
    return rows


def flags(client: Client, day: Day) -> list[dict[str, Any]]:
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    return [e for e in stream if e["type"] == "BreakOverrunFlagged"]


def both_players_report(client: Client, day: Day, table: dict[str, Any]) -> None:
    for player in (table["player_a"], table["player_b"]):
        player_report(client, day, player, table, table["player_a"], 2)


@pytest.mark.parametrize("recorded_by", ["players' reports", "the director"])
def test_a_small_field_playing_at_the_board_is_never_flagged_late(
    client: Client, clock: MovableClock, recorded_by: str
) -> None:
    # rules C-BREAK-1, C-BREAK-2: a venue that records only results (the players' reports or
    # the director's entry) records the next match's beginning with its pairing: the round's
    # call to the tables. Nobody is late by records that show nothing late, and no penalty
    # point is proposed to anyone.
    day = start_tournament(client, clock, 8)
    services = client.app.state.services
    for number in range(1, 4):
        clock.advance(10 * 60)  # the players sit down and play at their boards
        assert services.jobs.run_due(clock.now()) == []
        assert breaks_now(client, day) == []
        clock.advance(35 * 60)
        assert services.jobs.run_due(clock.now()) == []
        for table in day.rounds[number - 1]["pairings"]:
            if recorded_by == "the director":
                report(client, day, table)
            else:
                both_players_report(client, day, table)
            clock.advance(2 * 60)
        assert breaks_now(client, day) == []
        pair_next(client, day)
    assert flags(client, day) == []


def test_a_table_or_the_whole_round_is_marked_present_in_one_action(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-1: a venue recording its matches waits for each table's opening roll; the
    # director who sees a table (or the whole room) seated ends those breaks with one action,
    # and only the players still away are proposed penalty points (C-BREAK-2)
    day = start_tournament(client, clock, 8)
    for table in day.rounds[0]["pairings"]:
        play_through_api(client, day, table, winner="a")
    second = pair_next(client, day)
    seated, away, *others = second["pairings"]
    clock.advance(3 * 60)

    marked = client.post(
        day.url("/breaks/present"), json={"table": seated["table"]}, headers=DIRECTOR
    )

    assert marked.status_code == 200, marked.text
    assert marked.json() == {"present": [seated["player_a"], seated["player_b"]]}
    clock.advance(13 * 60)  # 16 minutes after the pairing: 6 late
    late = {row["player_id"]: row["proposed_penalty"] for row in breaks_now(client, day)}
    players_of = [(t["player_a"], t["player_b"]) for t in (away, *others)]
    assert late == {player: 1 for pair in players_of for player in pair}

    everyone = client.post(day.url("/breaks/present"), json={}, headers=DIRECTOR)

    assert everyone.status_code == 200, everyone.text
    assert set(everyone.json()["present"]) == set(day.players)
    clock.advance(10 * 60)  # the lateness stays what it was when they were seen back
    rows = breaks_now(client, day)
    assert {row["player_id"] for row in rows} == set(late)
    assert {(row["late_minutes"], row["proposed_penalty"]) for row in rows} == {(6, 1)}
    events = [
        e["data"]["player_id"]
        for e in client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
        if e["type"] == "PlayerMarkedPresent"
    ]
    assert len(events) == 2 + 8


def test_marking_present_needs_a_player_or_a_table_of_the_round_not_both(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    both = {"player_id": table["player_a"], "table": table["table"]}
    refused = client.post(day.url("/breaks/present"), json=both, headers=DIRECTOR)
    assert refused.status_code == 422
    missing = client.post(day.url("/breaks/present"), json={"table": 99}, headers=DIRECTOR)
    assert missing.status_code == 404
    assert "no table 99" in missing.json()["detail"]
    anonymous = client.post(day.url("/breaks/present"), json={})
    assert anonymous.status_code == 401
    stream = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    assert [e for e in stream if e["type"] == "PlayerMarkedPresent"] == []


def test_at_a_board_venue_only_a_player_away_by_an_agreed_time_is_watched(
    client: Client, clock: MovableClock
) -> None:
    # rules C-BREAK-1, C-BREAK-3: at a venue that records only results, the pairing calls the
    # players to their boards; a player who left the venue is back when the director sees them
    # (or, lacking that, by the agreed time: a report shows they came back, not when)
    day = start_tournament(client, clock, 4)
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    watched, other = pair_next(client, day)["pairings"]
    away = watched["player_a"]
    until = (clock.now().replace(microsecond=0) + timedelta(minutes=15)).isoformat()
    agreed = client.post(
        day.url(f"/breaks/{away}/return-time"), json={"until": until}, headers=DIRECTOR
    )
    assert agreed.status_code == 204
    clock.advance(25 * 60)
    [row] = breaks_now(client, day)
    assert (row["player_id"], row["late_minutes"], row["proposed_penalty"]) == (away, 10, 2)
    [run] = client.app.state.services.jobs.run_due(clock.now())
    assert run.effect == "BreakOverrunFlagged x1"
    assert [e["data"]["player_id"] for e in flags(client, day)] == [away]

    player_report(client, day, watched["player_b"], watched, watched["player_b"], 1)

    assert breaks_now(client, day) == []
    assert other["player_a"] not in {e["data"]["player_id"] for e in flags(client, day)}
