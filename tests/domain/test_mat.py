"""The .mat export of recorded events: result lines, empty games, the club's local date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

from domain import match as rules
from domain.events import DomainEvent, fold
from domain.mat import LEFT_WIDTH, format_mat
from domain.tokens import token_hash

BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2026, 4, 18, 13, 0, tzinfo=UTC)


class Recorder:
    """A match recorded command by command at a given time."""

    def __init__(self, start: datetime = T0, **options: Any) -> None:
        fields: dict[str, Any] = {
            "player_a": "anna",
            "player_b": "ben",
            "match_length": 5,
            "dice_mode": "entered",
            "clock": "none",
            "token_hash_a": token_hash("a"),
            "token_hash_b": token_hash("b"),
            **options,
        }
        self.now = start
        self.events: list[DomainEvent] = rules.start_match(UUID(int=1), start, **fields)

    def do(self, command: Any, *arguments: Any, **keywords: Any) -> None:
        state = fold(rules.evolve, None, self.events)
        self.events += command(state, *arguments, **keywords)

    def game_one_dropped_by_a(self) -> None:
        """Side a opens 3-1 and plays; b doubles, a drops: b wins 1 point."""
        self.do(rules.roll, None, (3, 1), self.now)
        self.do(rules.play, "a", self.now, notation="8/5 6/5")
        self.do(rules.double, "b", self.now)
        self.do(rules.drop, "a", self.now)


def test_a_match_lost_on_the_club_clock_ends_with_the_winners_result_line() -> None:
    # rule G-CLOCK-1: the side whose reserve runs out loses the match
    table = Recorder(clock="club")
    table.game_one_dropped_by_a()
    table.do(rules.roll, None, (5, 2), table.now)
    table.do(rules.play, "a", table.now, notation="13/8 13/11")
    flag_falls = table.now + timedelta(minutes=10, seconds=1)  # b's 5 x 2 minutes

    table.do(rules.claim_timeout, "a", flag_falls)

    games = format_mat(table.events, BERLIN).split(" Game ")[1:]
    assert len(games) == 2
    last_line = games[1].rstrip("\n").splitlines()[-1]
    assert last_line == " " * 6 + "Wins 5 points and the match"  # side a's column, 5 - 0


def test_the_winner_of_a_match_lost_on_time_in_side_bs_column() -> None:
    table = Recorder(clock="club", match_length=3)
    table.game_one_dropped_by_a()
    table.do(rules.roll, None, (5, 2), table.now)

    table.do(rules.claim_timeout, "b", table.now + timedelta(minutes=6, seconds=1))

    text = format_mat(table.events, BERLIN)
    assert text.rstrip("\n").endswith(" " * (6 + LEFT_WIDTH) + "Wins 2 points and the match")


def test_a_closed_money_session_has_no_empty_game_at_the_end() -> None:
    table = Recorder(match_length=0)
    table.game_one_dropped_by_a()

    table.do(rules.close_session, table.now)

    text = format_mat(table.events, BERLIN)
    assert [line for line in text.splitlines() if line.startswith(" Game ")] == [" Game 1"]
    assert text.rstrip("\n").endswith("Wins 1 point")


def test_the_event_date_is_the_clubs_local_date() -> None:
    # rule CAL-3: 22:30 UTC on 18 April is 00:30 on 19 April in Berlin (summer time)
    table = Recorder(start=datetime(2026, 4, 18, 22, 30, tzinfo=UTC))

    text = format_mat(table.events, BERLIN)

    assert '; [EventDate "2026.04.19"]' in text
    assert '; [EventDate "2026.04.18"]' in format_mat(table.events, UTC)
