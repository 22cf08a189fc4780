"""A complete 7-point match played over REST with entered dice, the same every time.

Game 1: side a doubles, side b takes, side a wins a gammon by bearing off (4 points).
Game 2: side b doubles, side a drops (b: 1).
Game 3: side b doubles, a takes; b offers a gammon, a rejects; b resigns a single (a: 6).
Game 4: the Crawford game: both doubles are refused with 409; a resigns (b: 2).
Game 5: post-Crawford, side b doubles and a drops (b: 3).
Game 6: side b resigns a single: side a wins the match 7-3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from litestar.testing import TestClient

from domain.backgammon import Position, pip_count
from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN

DIRECTOR = {"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}"}
SECONDS_PER_ACTION = 4

# Side a's rolls in game 1 after its 6-5 opening; side b rolls 2-1 every time.
GAME_1_DICE_A = [
    (3, 3), (5, 4), (6, 4), (6, 4), (6, 6), (5, 5), (6, 6), (6, 4), (5, 4), (5, 5),
    (3, 3), (4, 4), (4, 4), (5, 4), (5, 5), (6, 6), (6, 5), (3, 3), (6, 5), (5, 4),
]  # fmt: skip
GAME_1_DICE_B = (2, 1)


def racing_choice(item: dict[str, Any]) -> tuple[Any, ...]:
    """Side a races home: no hits, fewest checkers outside its home board."""
    after = Position.from_position_id(item["position_id"])  # side b on roll after the play
    mine = after.opponent
    return (after.on_roll[24], sum(mine[6:25]), pip_count(mine), item["play"])


def escaping_choice(item: dict[str, Any]) -> tuple[Any, ...]:
    """Side b hits nothing and moves its back checkers out of side a's home board first."""
    after = Position.from_position_id(item["position_id"])  # side a on roll after the play
    mine = after.opponent
    back = mine[18:25]
    weighted = sum(index * count for index, count in enumerate(back))
    return (after.on_roll[24], sum(back), weighted, item["play"])


@dataclass
class PlayedMatch:
    id: str
    tokens: dict[str, str]
    responses: list[dict[str, Any]] = field(default_factory=list)
    """The body of every successful command, in order."""
    refusals: list[dict[str, Any]] = field(default_factory=list)
    """The problem details of the commands refused on purpose (the Crawford doubles)."""

    @property
    def final(self) -> dict[str, Any]:
        return self.responses[-1]


class Driver:
    """Sends commands as the players, each a few seconds after the last."""

    def __init__(self, client: TestClient[Any], clock: MovableClock) -> None:
        self.client = client
        self.clock = clock
        response = client.post(
            "/api/v1/matches",
            json={
                "player_a": "Anna Maier",
                "player_b": "Ben",
                "match_length": 7,
                "dice": "entered",
                "clock": "club",
            },
            headers=DIRECTOR,
        )
        assert response.status_code == 201, response.text
        body = response.json()
        self.match = PlayedMatch(id=body["id"], tokens=body["player_tokens"])
        self.state: dict[str, Any] = body["match"]

    def headers(self, side: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.match.tokens[side]}"}

    def send(self, side: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        self.clock.advance(SECONDS_PER_ACTION)
        response = self.client.post(
            f"/api/v1/matches/{self.match.id}/{path}", json=body, headers=self.headers(side)
        )
        assert response.status_code == 200, response.text
        self.state = response.json()
        self.match.responses.append(self.state)
        return self.state

    def refuse(self, side: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        self.clock.advance(SECONDS_PER_ACTION)
        response = self.client.post(
            f"/api/v1/matches/{self.match.id}/{path}", json=body, headers=self.headers(side)
        )
        assert response.status_code == 409, response.text
        problem: dict[str, Any] = response.json()
        self.match.refusals.append(problem)
        return problem

    def opening(self, die_a: int, die_b: int) -> None:
        self.send("a", "rolls", {"dice": [die_a, die_b]})

    def roll(self, dice: tuple[int, int]) -> None:
        self.send(self.state["turn"], "rolls", {"dice": list(dice)})

    def play_first(self) -> None:
        """The side on roll plays the first legal play listed."""
        self.send(self.state["turn"], "plays", {"play": self.state["legal_plays"][0]["play"]})

    def cube(self, side: str, action: str) -> None:
        self.send(side, "cube", {"action": action})


def play_seven_point_match(client: TestClient[Any], clock: MovableClock) -> PlayedMatch:
    table = Driver(client, clock)

    # Game 1: an opening tie, a double and a take, a gammon by bearing off.
    table.opening(4, 4)
    table.opening(6, 5)
    a_rolls = iter(GAME_1_DICE_A)
    a_turns = 0
    while table.state["game"] == 1:
        if table.state["phase"] == "move":
            choice = racing_choice if table.state["turn"] == "a" else escaping_choice
            best = min(table.state["legal_plays"], key=choice)
            table.send(table.state["turn"], "plays", {"play": best["play"]})
        elif table.state["turn"] == "a":
            a_turns += 1
            if a_turns == 1:
                table.cube("a", "double")
                table.cube("b", "take")
            table.roll(next(a_rolls))
        else:
            table.roll(GAME_1_DICE_B)

    # Game 2: side b doubles, side a drops.
    table.opening(2, 5)
    table.play_first()
    table.roll((3, 1))
    table.play_first()
    table.cube("b", "double")
    table.cube("a", "drop")

    # Game 3: a take, a rejected gammon resignation, an accepted single at cube 2.
    table.opening(6, 1)
    table.play_first()
    table.cube("b", "double")
    table.cube("a", "take")
    table.roll((6, 4))
    table.play_first()
    table.roll((5, 3))
    table.play_first()
    table.send("b", "resignations", {"level": "gammon"})
    table.send("a", "resignations/reject", {})
    table.send("b", "resignations", {"level": "single"})
    table.send("a", "resignations/accept", {})

    # Game 4: the Crawford game. No doubling for either side.
    table.opening(1, 3)
    table.play_first()
    table.refuse("a", "cube", {"action": "double"})
    table.roll((4, 2))
    table.play_first()
    table.refuse("b", "cube", {"action": "double"})
    table.roll((6, 3))
    table.play_first()
    table.send("a", "resignations", {"level": "single"})
    table.send("b", "resignations/accept", {})

    # Game 5: post-Crawford, the cube is back.
    table.opening(3, 5)
    table.play_first()
    table.roll((6, 6))
    table.play_first()
    table.cube("b", "double")
    table.cube("a", "drop")

    # Game 6: side b resigns; side a reaches 7.
    table.opening(5, 1)
    table.play_first()
    table.roll((4, 3))
    table.play_first()
    table.send("b", "resignations", {"level": "single"})
    table.send("a", "resignations/accept", {})
    return table.match
