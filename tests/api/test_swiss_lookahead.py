"""The Swiss lookahead over REST: every Swiss round says whether the remaining Swiss rounds can
still be paired without a rematch (rule T-FMT-9; API.md "Formats", GET /rounds/{n})."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import pair_next, report, start_tournament

Client = TestClient[Any]


@pytest.mark.parametrize("players", [6, 7])
def test_a_small_field_plays_the_most_swiss_rounds_without_a_rematch_and_each_is_completable(
    client: Client, clock: MovableClock, players: int
) -> None:
    # rule T-FMT-9: a Swiss phase within T-FMT-1's cap starts with a completion and keeps one
    day = start_tournament(client, clock, players, swiss_rounds=players - 1)
    while True:
        for table in day.rounds[-1]["pairings"]:
            if table["player_b"]:
                report(client, day, table)
        if len(day.rounds) == day.swiss_rounds:
            break
        pair_next(client, day)
    swiss = [client.get(day.url(f"/rounds/{n}")).json() for n in range(1, day.swiss_rounds + 1)]
    assert [shown["completable"] for shown in swiss] == [True] * day.swiss_rounds
    assert [paired["completable"] for paired in day.rounds] == [True] * day.swiss_rounds
    pairs = [
        frozenset((t["player_a"], t["player_b"]))
        for shown in swiss
        for t in shown["pairings"]
        if t["player_b"]
    ]
    assert len(pairs) == len(set(pairs))
    byes = [t["player_a"] for shown in swiss for t in shown["pairings"] if not t["player_b"]]
    assert len(byes) == len(set(byes))


def test_a_knockout_round_has_no_completable(client: Client, clock: MovableClock) -> None:
    # API.md: `completable` is for Swiss rounds only, else null
    day = start_tournament(client, clock, 4, swiss_rounds=1)
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    semis = pair_next(client, day)
    assert semis["stage"] == "knockout"
    assert semis["completable"] is None
    assert client.get(day.url("/rounds/1")).json()["completable"] is True
