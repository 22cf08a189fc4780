"""The round page shows an open match's score as the wallboard does: the match's own score,
penalty points included (rule C-BREAK-2), next to its status. Browser check:
tests/browser/test_pages_words_and_scores.py."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import signed_in
from tests.api.test_console_rounds import round_page, row_of
from tests.api.test_pages import page
from tests.api.test_tournament_day import Day, start_tournament
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def live_score(html: str, match_id: str) -> tuple[int, int] | None:
    """The score a row of the round page shows for its open match, or None."""
    found = re.search(
        r'class="live-score" data-score-a="(\d+)" data-score-b="(\d+)">\1:\2<',
        row_of(html, match_id),
    )
    return (int(found.group(1)), int(found.group(2))) if found else None


def wallboard_score(client: Client, day: Day, match_id: str) -> tuple[int, int]:
    row = row_of(page(client, f"/pages/tournaments/{day.id}/wallboard"), match_id)
    found = re.search(r'<td class="score">(\d+) : (\d+) ', row)
    assert found is not None
    return int(found.group(1)), int(found.group(2))


def play_a_game(client: Client, day: Day, table: dict[str, Any]) -> None:
    """Side a opens, plays, and side b resigns a single game: 1:0."""
    url = f"/api/v1/matches/{table['match_id']}"
    tokens = {side: day.players[table[f"player_{side}"]]["player_token"] for side in "ab"}

    def send(side: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = client.post(
            f"{url}/{path}", json=body, headers={"Authorization": f"Bearer {tokens[side]}"}
        )
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    state = send("a", "rolls", {"dice": [6, 5]})
    send("a", "plays", {"play": state["legal_plays"][0]["play"]})
    send("b", "resignations", {"level": "single"})
    send("a", "resignations/accept", {})


def penalise(client: Client, day: Day, table: dict[str, Any], points: int) -> None:
    # rule C-BREAK-2: the penalty points go to the opponent's score
    answer = client.post(
        day.url("/penalties"),
        json={
            "player_id": table["player_a"],
            "match_id": table["match_id"],
            "points": points,
            "reason": "came back late from the break",
        },
        headers=DIRECTOR,
    )
    assert answer.status_code == 201, answer.text


def test_a_match_in_play_shows_its_score_on_the_round_page_as_on_the_wallboard(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    played, waiting = (t for t in day.rounds[0]["pairings"] if t["player_b"])
    play_a_game(client, day, played)
    html = round_page(client, day, 1)
    assert live_score(html, played["match_id"]) == (1, 0)
    assert live_score(html, played["match_id"]) == wallboard_score(client, day, played["match_id"])
    assert "wird gespielt" in row_of(html, played["match_id"])
    assert live_score(html, waiting["match_id"]) is None  # not begun, no points: nothing to show


def test_penalty_points_show_on_the_round_page_as_on_the_wallboard(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = next(t for t in day.rounds[0]["pairings"] if t["player_b"])
    penalise(client, day, table, 2)
    html = round_page(client, day, 1)
    assert live_score(html, table["match_id"]) == (0, 2)
    assert wallboard_score(client, day, table["match_id"]) == (0, 2)
    play_a_game(client, day, table)
    assert live_score(round_page(client, day, 1), table["match_id"]) == (1, 2)
    assert wallboard_score(client, day, table["match_id"]) == (1, 2)


def test_a_decided_match_shows_its_result_and_no_live_score(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = next(t for t in day.rounds[0]["pairings"] if t["player_b"])
    play_a_game(client, day, table)
    length = table["match_length"]
    answer = client.post(
        day.url("/results"),
        json={
            "match_id": table["match_id"],
            "winner": table["player_a"],
            "points_a": length,
            "points_b": 3,
        },
        headers=DIRECTOR,
    )
    assert answer.status_code == 201, answer.text
    row = row_of(round_page(client, day, 1), table["match_id"])
    assert f"entschieden: {length}:3" in row
    assert "live-score" not in row
