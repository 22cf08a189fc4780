"""A player excluded from the tournament (rule C-EXCL-1) who still reports the match they were
excluded from is told so: over REST with their player token, and at the table page with the
session opened before the exclusion (in German, and in English with ``?lang=en``). Not the
misleading "only the two players of a match report it": they were one of the two."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_refusals_in_german import refusal
from tests.api.test_table_page import form_of, hidden, pairing, signed_in, table_page, token_of
from tests.api.test_tournament_day import Day, start_tournament
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def excluded(client: Client, day: Day, player_id: str) -> None:
    answer = client.post(
        day.url("/exclusions"),
        json={"player_id": player_id, "reason": "unsportsmanlike conduct"},
        headers=DIRECTOR,
    )
    assert answer.status_code == 201, answer.text


def withdrawn(client: Client, day: Day, player_id: str) -> None:
    answer = client.post(
        day.url("/withdrawals"),
        json={"player_id": player_id, "reason": "train home", "left_early": True},
        headers=DIRECTOR,
    )
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize(
    ("leaves", "detail"),
    [
        (
            excluded,
            "the player is excluded from this tournament (C-EXCL-1): their reports no longer count",
        ),
        (withdrawn, "the player has withdrawn from this tournament: their reports no longer count"),
    ],
)
def test_a_report_over_rest_of_a_player_who_left_says_so(
    client: Client, clock: MovableClock, leaves: Callable[[Client, Day, str], None], detail: str
) -> None:
    # rule C-EXCL-1
    day = start_tournament(client, clock, 4)
    table = pairing(day, 1)
    leaves(client, day, table["player_a"])
    answer = client.post(
        day.url("/reports"),
        json={
            "match_id": table["match_id"],
            "winner": table["player_a"],
            "points_a": table["match_length"],
            "points_b": 0,
        },
        headers={"Authorization": f"Bearer {token_of(day, table['player_a'])}"},
    )
    assert answer.status_code == 403
    assert answer.json()["detail"] == detail


def test_an_excluded_players_report_at_the_table_says_they_are_excluded_in_german_and_english(
    client: Client, clock: MovableClock
) -> None:
    # rule C-EXCL-1: the session opened before the exclusion; the page still shows its form
    day = start_tournament(client, clock, 4)
    table = pairing(day, 1)
    signed_in(client, day, table["player_a"])
    form = form_of(table_page(client, day, 1), "report")
    assert form is not None
    excluded(client, day, table["player_a"])
    sent = {**hidden(form), "winner": table["player_a"], "points_a": table["match_length"]}
    sent["points_b"] = "0"
    url = f"/pages/tournaments/{day.id}/tables/1/report"
    german = client.post(url, data=sent, follow_redirects=False)
    assert german.status_code == 403
    assert refusal(german.text) == (
        "Du bist von diesem Turnier ausgeschlossen (Regel C-EXCL-1): deine Meldungen zählen "
        "nicht mehr."
    )
    english = client.post(url + "?lang=en", data=sent, follow_redirects=False)
    assert english.status_code == 403
    assert refusal(english.text) == (
        "the player is excluded from this tournament (C-EXCL-1): their reports no longer count"
    )
    assert not re.search(r"only the two players", german.text + english.text)
