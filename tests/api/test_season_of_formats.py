"""A season of one tournament of each format, played to the end over REST: a Swiss with the
knockout of the best four, a round robin and an elimination with a first-round consolation.
The season ranking equals a count of the rules made here from the results the test itself
entered (R-ATT-1, R-ATT-2, R-MATCH-1, R-BYE-1, R-TIE-1, T-FMT-11, T-FMT-14; issue 22,
"Must show"), and each tournament's CSV and printout show its places.

Every match is won by the stronger player of the two (each tournament has its own order of
strength), so the winner of each tournament is known without asking the service: the
strongest player wins every match they play, the final included."""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_season_ranking import open_day
from tests.api.test_tournaments import CALENDAR, advance_to
from tests.conftest import DIRECTOR

Client = TestClient[Any]
ATTENDANCE = 7  # rule R-ATT-1

SWISS = {
    "format": "swiss",
    "swiss_rounds": 3,
    "match_length": 5,
    "match_lengths": {"semi_final": 7, "final": 9, "third_place": 3},
}
ROUND_ROBIN = {"format": "round_robin", "match_length": 3}
ELIMINATION = {
    "format": "elimination",
    "consolation": "first_round",
    "match_length": 11,
    "match_lengths": {"semi_final": 7, "final": 9, "third_place": 5},
    "consolation_match_length": 1,
}
LENGTHS = {
    "swiss": {"swiss": 5, "semi_final": 7, "final": 9, "third_place": 3},
    "round_robin": {"round_robin": 3},
    "elimination": {"main": 11, "semi_final": 7, "final": 9, "third_place": 5, "consolation": 1},
}
"""The match length of each stage, as the tournaments above were created (T-FMT-8, T-FMT-12)."""


@dataclass
class Played:
    """One tournament as the test ran it: its people by strength, and what it entered."""

    id: str
    format: str
    strength: list[str]
    """Player ids, strongest first: of two players the earlier one wins."""
    checked_in: set[str]
    left_early: set[str] = field(default_factory=set)
    won: list[tuple[str, str]] = field(default_factory=list)
    """(winner, stage) of every result the test entered."""
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def url(self, path: str = "") -> str:
        return f"/api/v1/tournaments/{self.id}{path}"


def play_day(
    client: Client,
    clock: MovableClock,
    season_id: str,
    date: str,
    people: list[int],
    terms: dict[str, Any],
    check_in: datetime,
    leaves_in_round: tuple[int, int] | None = None,
) -> Played:
    """Registers ``people`` (strongest first), checks them in, starts and enters every result
    until the tournament is completed. ``leaves_in_round``: (round, index into ``people``) of a
    player who leaves early at the start of that round, before its results."""
    tournament_id, registered = open_day(client, season_id, date, people, **terms)
    by_number = dict(zip(people, registered, strict=True))
    advance_to(client, clock, check_in)
    for registration in registered.values():
        client.post(
            f"/api/v1/tournaments/{tournament_id}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        ).raise_for_status()
    day = Played(
        id=tournament_id,
        format=terms["format"],
        strength=[by_number[number] for number in people],
        checked_in=set(registered),
    )
    started = client.post(day.url("/start"), headers=DIRECTOR)
    assert started.status_code == 200, started.text
    day.rounds.append(started.json()["round"])
    while True:
        number = len(day.rounds)
        if leaves_in_round and leaves_in_round[0] == number:
            leaving = day.strength[leaves_in_round[1]]
            client.post(
                day.url("/withdrawals"),
                json={"player_id": leaving, "reason": "Zug", "left_early": True},
                headers=DIRECTOR,
            ).raise_for_status()
            day.left_early.add(leaving)
        decided = {
            row["match_id"]
            for row in client.get(day.url("/matches")).json()
            if row["status"] == "decided"
        }
        for table in day.rounds[-1]["pairings"]:
            if table["match_id"] is not None and table["match_id"] not in decided:
                enter_stronger_wins(client, day, table)
        if client.get(day.url()).json()["status"] == "completed":
            return day
        paired = client.post(day.url("/rounds"), headers=DIRECTOR)
        assert paired.status_code == 201, paired.text
        day.rounds.append(paired.json())


def enter_stronger_wins(client: Client, day: Played, table: dict[str, Any]) -> None:
    # rule T-FMT-8, T-FMT-12: every stage is played at the length the tournament set for it
    length = LENGTHS[day.format][table["stage"]]
    assert table["match_length"] == length, table
    a, b = table["player_a"], table["player_b"]
    a_wins = day.strength.index(a) < day.strength.index(b)
    loser_points = (day.strength.index(a) + day.strength.index(b)) % length
    body = {
        "match_id": table["match_id"],
        "winner": a if a_wins else b,
        "points_a": length if a_wins else loser_points,
        "points_b": loser_points if a_wins else length,
    }
    response = client.post(day.url("/results"), json=body, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    day.won.append((body["winner"], table["stage"]))


def expected_ranking(days: list[Played]) -> dict[str, dict[str, int]]:
    """Each player's row, counted from the rules and from what the test entered only."""
    rows: dict[str, Counter[str]] = {}
    for day in days:
        for player in day.checked_in:
            row = rows.setdefault(player, Counter())
            row["tournaments_played"] += 1
            if player not in day.left_early:  # rule R-ATT-1; R-ATT-2: leaving early takes them
                row["attendance_points"] += ATTENDANCE
        # rule R-MATCH-1, T-FMT-14: every won match scores its length, main, 3rd place or
        # consolation; R-BYE-1: byes, rests and unplayed matches were never entered: 0
        for winner, stage in day.won:
            rows[winner]["match_points"] += LENGTHS[day.format][stage]
        # rule R-TIE-1, T-FMT-14: the strongest player won every match, the final included
        rows[day.strength[0]]["tournament_wins"] += 1
    return {
        player: {
            "points": row["attendance_points"] + row["match_points"],
            "attendance_points": row["attendance_points"],
            "match_points": row["match_points"],
            "tournament_wins": row["tournament_wins"],
            "tournaments_played": row["tournaments_played"],
        }
        for player, row in rows.items()
    }


def test_a_season_of_one_tournament_of_each_format_ranks_every_won_match(
    client: Client, clock: MovableClock
) -> None:
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    # seven players: a Swiss bye every round; 1 is the strongest
    swiss = play_day(
        client,
        clock,
        season["id"],
        "2026-04-18",
        [1, 2, 3, 4, 5, 6, 7],
        SWISS,
        datetime(2026, 4, 18, 10, 30, tzinfo=UTC),
    )
    # five players: one rest each; 9 is the strongest; 3 leaves early in round 3, so their
    # remaining matches are unplayed wins (rule T-FMT-11, T-FMT-7)
    round_robin = play_day(
        client,
        clock,
        season["id"],
        "2026-10-10",
        [9, 2, 10, 1, 3],
        ROUND_ROBIN,
        datetime(2026, 10, 10, 10, 30, tzinfo=UTC),
        leaves_in_round=(3, 4),
    )
    # seven players: seed 1's main bye and a consolation bye; 11 is the strongest
    elimination = play_day(
        client,
        clock,
        season["id"],
        "2026-12-12",
        [11, 1, 4, 12, 2, 13, 9],
        ELIMINATION,
        datetime(2026, 12, 12, 11, 30, tzinfo=UTC),
    )
    days = [swiss, round_robin, elimination]

    # the three days played what their formats promise
    assert {t["stage"] for r in swiss.rounds for t in r["pairings"]} == set(LENGTHS["swiss"])
    assert any(t["player_b"] is None for t in swiss.rounds[0]["pairings"])  # a Swiss bye
    rests = [t for r in round_robin.rounds for t in r["pairings"] if t["player_b"] is None]
    assert len(round_robin.rounds) == 5
    assert len(rests) == 5
    leaver = next(iter(round_robin.left_early))
    unplayed = [
        row
        for row in client.get(round_robin.url("/matches")).json()
        if leaver in (row["player_a"], row["player_b"]) and not row["played"]
    ]
    assert unplayed, "the leaver's remaining matches are decided without being played"
    assert all(row["winner"] != leaver for row in unplayed)
    stages = Counter(stage for _, stage in elimination.won)
    assert stages == {"main": 3, "semi_final": 2, "final": 1, "third_place": 1, "consolation": 2}
    assert client.get(elimination.url()).json()["consolation_played"] == "first_round"

    expected = expected_ranking(days)
    ranking = client.get(f"/api/v1/seasons/{season['id']}/ranking").json()
    shown = {
        row["player_id"]: {key: row[key] for key in expected[row["player_id"]]} for row in ranking
    }
    assert shown == expected
    order = [
        (-row["points"], -row["tournament_wins"], row["tournaments_played"])
        for row in (expected[r["player_id"]] for r in ranking)
    ]
    assert order == sorted(order)  # rule R-TIE-1
    assert ranking[0]["rank"] == 1
    for row in ranking:  # every row explained adds up to its points
        explained = client.get(f"/api/v1/seasons/{season['id']}/ranking/{row['player_id']}")
        assert sum(e["points"] for e in explained.json()["entries"]) == row["points"]

    # the ranking's CSV holds the same rows (API.md: tables answer text/csv)
    sheet = as_csv(client, f"/api/v1/seasons/{season['id']}/ranking")
    assert [(r["player_id"], int(r["points"])) for r in sheet] == [
        (r["player_id"], r["points"]) for r in ranking
    ]
    for day in days:
        the_csv_and_printout_show_the_places(client, day)


def as_csv(client: Client, url: str) -> list[dict[str, str]]:
    response = client.get(url, headers={"Accept": "text/csv"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.text)))


def the_csv_and_printout_show_the_places(client: Client, day: Played) -> None:
    places = client.get(day.url("/places")).json()
    assert [p["place"] for p in places] == list(range(1, len(day.checked_in) + 1))
    assert places[0]["player_id"] == day.strength[0]  # rule T-FMT-4, T-FMT-11, T-FMT-14
    sheet = as_csv(client, day.url("/standings"))
    assert {r["player_id"]: int(r["place"]) for r in sheet} == {
        p["player_id"]: p["place"] for p in places
    }
    printout = client.get(f"/pages/tournaments/{day.id}/print/standings")
    assert printout.status_code == 200
    in_print = [printout.text.find(f"<td>{p['place']}</td><td>{p['display_name']}") for p in places]
    assert -1 not in in_print, day.format
    assert in_print == sorted(in_print)
    # rule T-FMT-10: the printout speaks of the tournament's own format
    assert ("Schweizer" in printout.text) == (day.format == "swiss")
    page = client.get(f"/pages/tournaments/{day.id}/standings").text
    assert ("Schweizer" in page) == ("Buchholz" in page) == (day.format == "swiss")
    last_round = client.get(f"/pages/tournaments/{day.id}/print/pairings?by=table").text
    for stage in ("main", "consolation", "round_robin"):  # each stage named in German
        assert f"<td>{stage}</td>" not in last_round
    assert ("<td>Trostrunde</td>" in last_round) == (day.format == "elimination")
