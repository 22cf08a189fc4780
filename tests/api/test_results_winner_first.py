"""A reported result reads with the winner's points first, whichever side won: "B gewinnt 7:4",
never "B gewinnt 4:7" (the table page's reports, the round page's disputed reports).
Browser check: tests/browser/test_pages_words_and_scores.py."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import signed_in as director_signed_in
from tests.api.test_console_rounds import round_page, row_of
from tests.api.test_table_page import pairing, report_form, signed_in, table_page
from tests.api.test_tournament_day import start_tournament
from tests.api.test_venue import player_report

Client = TestClient[Any]


def name_of(client: Client, day: Any, player_id: str) -> str:
    standings = client.get(day.url("/standings")).json()
    name: str = next(s["display_name"] for s in standings if s["player_id"] == player_id)
    return name


def test_a_report_that_player_b_won_reads_with_b_s_points_first_on_the_table_page(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    length = table["match_length"]
    b = table["player_b"]
    signed_in(client, day, b)
    assert report_form(client, day, 1, b, 4, length).status_code == 303
    mine = table_page(client, day, 1)
    assert f"Du hast gemeldet: {name_of(client, day, b)} gewinnt {length}:4." in mine
    assert f"gewinnt 4:{length}" not in mine

    signed_in(client, day, table["player_a"])
    theirs = table_page(client, day, 1)
    assert f"hat gemeldet: {name_of(client, day, b)} gewinnt {length}:4." in theirs
    english = client.get(f"/pages/tournaments/{day.id}/tables/1?lang=en").text
    assert f"reported: {name_of(client, day, b)} wins {length}:4." in english


def test_the_round_page_shows_each_disputed_report_with_the_winner_s_points_first(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    director_signed_in(client)
    table = next(t for t in day.rounds[0]["pairings"] if t["player_b"])
    a, b = table["player_a"], table["player_b"]
    length = table["match_length"]
    assert player_report(client, day, a, table, winner=a, loser_points=2).status_code == 202
    assert player_report(client, day, b, table, winner=b, loser_points=4).status_code == 202
    row = row_of(round_page(client, day, 1), table["match_id"])
    reports = dict(
        re.findall(r'<div class="report" data-reported-by="([^"]+)">(.*?)</div>', row, re.DOTALL)
    )
    assert f"{name_of(client, day, a)} gewinnt {length}:2" in reports[a]
    assert f"{name_of(client, day, b)} gewinnt {length}:4" in reports[b]
    english = row_of(round_page(client, day, 1, "?lang=en"), table["match_id"])
    assert f"{name_of(client, day, b)} wins {length}-4" in english
