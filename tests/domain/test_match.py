"""The match aggregate: given events, when a command, then events or an error."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

import domain.match
from domain.backgammon import Position
from domain.backgammon.match_id import MatchState
from domain.errors import ConflictError, ForbiddenError, InvalidInputError, NotFoundError
from domain.events import DomainEvent, fold
from domain.match import (
    CheckersPlayed,
    ClockNotExpiredError,
    CubeBeavered,
    CubeNotAvailableError,
    CubeOffered,
    CubeRaccooned,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    IllegalPlayRejectedError,
    Match,
    MatchOverError,
    MatchStarted,
    MatchWon,
    NotAMatchError,
    NotYourTurnError,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Side,
    TimeoutClaimed,
    TurnPassed,
    WrongPhaseError,
    accept_resignation,
    beaver,
    claim_timeout,
    double,
    drop,
    evolve,
    offer_resignation,
    other,
    play,
    raccoon,
    reject_resignation,
    roll,
    start_match,
    take,
)
from domain.people.tokens import token_hash

T0 = datetime(2026, 4, 18, 13, 0, tzinfo=UTC)
MATCH = UUID(int=7)
EMPTY = (0,) * 25


def board(**points: int) -> tuple[int, ...]:
    """A side's checkers: ``p6=5`` puts five on its 6-point, ``bar=1`` one on the bar."""
    side = [0] * 25
    for name, count in points.items():
        side[24 if name == "bar" else int(name[1:]) - 1] = count
    return tuple(side)


class Table:
    """A match being played: the events so far and the time on the wall."""

    def __init__(self, **options: Any) -> None:
        fields: dict[str, Any] = {
            "player_a": "anna",
            "player_b": "ben",
            "match_length": 7,
            "dice_mode": "entered",
            "clock": "none",
            "token_hash_a": token_hash("token-a"),
            "token_hash_b": token_hash("token-b"),
        }
        fields.update(options)
        self.now = T0
        self.events: list[DomainEvent] = start_match(MATCH, self.now, **fields)

    @property
    def state(self) -> Match:
        state = fold(evolve, None, self.events)
        assert state is not None
        return state

    def do(self, command: Any, **arguments: Any) -> list[DomainEvent]:
        """Run a command at the current time and keep its events."""
        new: list[DomainEvent] = command(self.state, now=self.now, **arguments)
        self.events += new
        return new

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def opening(self, die_a: int = 3, die_b: int = 1) -> None:
        self.do(roll, side=None, dice=(die_a, die_b))

    def reach(self, on_roll: Side, mine: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        """Given the game has reached this board (``on_roll``'s checkers, the other side's)
        with ``on_roll`` to roll: recorded as the other side's play that led there."""
        mover = other(on_roll)
        state = self.state
        event = CheckersPlayed(
            originator_id=MATCH,
            originator_version=state.version + 1,
            timestamp=self.now,
            play="given",
            side=mover,
            dice=(1, 1),
            moves=(),
            position_id=Position(on_roll=mine, opponent=theirs).position_id,
        )
        self.events.append(event)


def types(events: list[DomainEvent]) -> list[str]:
    return [type(event).__name__ for event in events]


# --- start and opening roll -----------------------------------------------------------------


def test_starting_a_match_records_the_settings_and_the_first_game() -> None:
    table = Table(clock="club", match_length=5)

    started, first_game = table.events
    assert isinstance(started, MatchStarted)
    assert (started.player_a, started.match_length, started.clock) == ("anna", 5, "club")
    assert isinstance(first_game, GameStarted)
    assert (first_game.game, first_game.crawford) == (1, False)
    state = table.state
    assert (state.phase, state.score_a, state.score_b, state.cube_value) == ("opening", 0, 0, 1)
    assert state.clock.reserve_a_ms == 5 * 120_000  # rule G-CLOCK-1: 2 minutes per point


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("match_length", -1),
        ("match_length", 65),
        ("dice_mode", "loaded"),
        ("clock", "hourglass"),
        ("jacoby", True),  # rule G-CUBE-3: not in match play
        ("beavers", True),
    ],
)
def test_a_match_with_impossible_settings_is_rejected_naming_the_field(
    field: str, value: object
) -> None:
    with pytest.raises(InvalidInputError) as error:
        Table(**{field: value})
    assert error.value.field in {field, "dice", "clock"}


def test_a_money_session_cannot_use_the_club_clock_that_counts_match_points() -> None:
    with pytest.raises(InvalidInputError, match="money session"):
        Table(match_length=0, clock="club")


def test_an_opening_tie_is_recorded_and_the_opening_roll_is_due_again() -> None:
    table = Table()

    events = table.do(roll, side="a", dice=(4, 4))

    assert isinstance(events[0], OpeningRollMade)
    assert events[0].starter is None  # rule G-OPEN-1: ties are rolled again
    assert (table.state.phase, table.state.opening_roll) == ("opening", (4, 4))


def test_the_higher_opening_die_starts_and_plays_both_numbers() -> None:
    table = Table()

    events = table.do(roll, side=None, dice=(2, 6))

    assert isinstance(events[0], OpeningRollMade)
    assert events[0].starter == "b"
    state = table.state
    assert (state.phase, state.on_roll, state.dice, state.turn) == ("move", "b", (6, 2), "b")
    assert len(state.plays()) > 0


# --- rolls and plays ------------------------------------------------------------------------


def test_a_legal_play_is_recorded_with_its_notation_moves_and_position_after() -> None:
    table = Table()
    table.opening(3, 1)

    events = table.do(play, side="a", notation="8/5 6/5")

    (played,) = events
    assert isinstance(played, CheckersPlayed)
    assert played.play == "8/5 6/5"
    assert sorted(played.moves) == [(6, 5, False), (8, 5, False)]
    after = Position.from_position_id(played.position_id)
    assert after.opponent[4] == 2  # a's 5-point made, seen with b on roll
    state = table.state
    assert (state.phase, state.on_roll, state.dice) == ("roll", "b", None)
    assert state.board_a[4] == 2


def test_a_play_can_be_given_as_the_position_id_after_it() -> None:
    table = Table()
    table.opening(3, 1)
    target = next(p for p in table.state.plays() if p.moves and p.moves[0].source == 8)

    (played,) = table.do(play, side="a", position_id=target.position_id)

    assert isinstance(played, CheckersPlayed)
    assert played.position_id == target.position_id


def test_a_command_and_its_replay_leave_no_state_behind_in_the_match_module() -> None:
    """ARCH: the domain keeps no hidden process state; a play is applied from its event alone."""
    table = Table()
    table.opening(3, 1)
    module = vars(domain.match)
    containers = {
        name: copy.copy(value)
        for name, value in module.items()
        if isinstance(value, dict | list | set | bytearray)
    }

    (played,) = table.do(play, side="a", notation="8/5 6/5")
    after_command = {name: copy.copy(module[name]) for name in containers}
    replayed = fold(evolve, None, table.events)

    assert after_command == containers
    assert {name: module[name] for name in containers} == containers
    assert isinstance(played, CheckersPlayed)
    assert replayed is not None
    assert replayed.position == Position.from_position_id(played.position_id)  # b on roll


def test_an_illegal_play_is_rejected_with_the_reason_and_nothing_is_recorded() -> None:
    table = Table()
    table.opening(3, 1)
    before = list(table.events)

    with pytest.raises(IllegalPlayRejectedError, match="G-LEGAL-1"):
        table.do(play, side="a", notation="24/18")
    with pytest.raises(IllegalPlayRejectedError, match="no legal play of 3-1"):
        table.do(play, side="a", position_id=Position.starting().position_id)
    assert table.events == before


def test_malformed_notation_is_invalid_input_naming_the_play_field() -> None:
    table = Table()
    table.opening(3, 1)

    with pytest.raises(InvalidInputError) as error:
        table.do(play, side="a", notation="eight to five")

    assert error.value.field == "play"


def test_notation_longer_than_any_play_is_refused_before_it_is_read() -> None:
    table = Table()
    table.opening(3, 1)

    with pytest.raises(InvalidInputError) as error:
        table.do(play, side="a", notation="8/5 6/5 " * 9)
    assert error.value.field == "play"
    assert "64 characters" in error.value.message
    assert len(table.events) == 3


def test_only_the_side_on_roll_may_play_or_roll() -> None:
    table = Table()
    table.opening(3, 1)

    with pytest.raises(NotYourTurnError, match="side a's turn"):
        table.do(play, side="b", notation="8/5 6/5")
    table.do(play, side="a", notation="8/5 6/5")
    with pytest.raises(NotYourTurnError):
        table.do(roll, side="a", dice=(6, 6))


def test_a_play_before_the_roll_is_out_of_turn() -> None:
    table = Table()
    table.opening(3, 1)
    table.do(play, side="a", notation="8/5 6/5")

    with pytest.raises(WrongPhaseError, match="side b is to double or roll"):
        table.do(play, side="b", notation="24/18")


def test_a_roll_that_cannot_be_played_passes_the_turn_automatically() -> None:
    table = Table()
    table.opening(3, 1)
    # Side a has a checker on the bar; side b's home board is closed (rule G-BAR-1).
    table.reach("a", board(bar=1, p6=14), board(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3))

    events = table.do(roll, side="a", dice=(6, 5))

    assert types(events) == ["DiceRolled", "TurnPassed"]  # rule G-MAX-1
    assert isinstance(events[1], TurnPassed)
    assert (table.state.phase, table.state.on_roll) == ("roll", "b")


# --- the cube ------------------------------------------------------------------------------


def started_game(table: Table) -> None:
    """Opening 3-1 by a, b to roll."""
    table.opening(3, 1)
    table.do(play, side="a", notation="8/5 6/5")


def test_a_double_before_rolling_then_a_take_doubles_the_cube_for_the_taker() -> None:
    table = Table()
    started_game(table)

    offered = table.do(double, side="b")
    assert isinstance(offered[0], CubeOffered)
    assert offered[0].value == 2
    assert (table.state.phase, table.state.turn) == ("cube", "a")
    taken = table.do(take, side="a")

    assert isinstance(taken[0], CubeTaken)
    state = table.state
    assert (state.cube_value, state.cube_owner, state.phase, state.turn) == (2, "a", "roll", "b")


def test_the_cube_owner_redoubles_to_four() -> None:
    table = Table()
    started_game(table)
    table.do(double, side="b")
    table.do(take, side="a")
    table.do(roll, side="b", dice=(6, 5))
    table.do(play, side="b", notation="24/13")

    offered = table.do(double, side="a")
    assert isinstance(offered[0], CubeOffered)
    assert offered[0].value == 4  # rule G-CUBE-1: redoubles 4, 8, 16, ...


def test_the_side_on_roll_cannot_double_a_cube_its_opponent_owns() -> None:
    table = Table()
    started_game(table)
    table.do(double, side="b")
    table.do(take, side="a")
    table.do(roll, side="b", dice=(6, 5))
    table.do(play, side="b", notation="24/13")
    table.do(roll, side="a", dice=(2, 1))
    table.do(play, side="a", notation="13/11 6/5")

    with pytest.raises(CubeNotAvailableError, match="owns the cube"):
        table.do(double, side="b")


def test_a_drop_ends_the_game_at_the_value_before_the_double() -> None:
    table = Table()
    started_game(table)
    table.do(double, side="b")

    events = table.do(drop, side="a")

    assert types(events) == ["CubeDropped", "GameWon", "GameStarted"]
    won = events[1]
    assert isinstance(won, GameWon)
    assert (won.winner, won.points, won.reason, won.result) == ("b", 1, "drop", "single")
    assert (table.state.score_b, table.state.game, table.state.phase) == (1, 2, "opening")


def test_a_take_or_drop_without_a_double_offered_is_a_conflict() -> None:
    table = Table()
    started_game(table)

    with pytest.raises(WrongPhaseError, match="no double has been offered"):
        table.do(take, side="a")
    with pytest.raises(WrongPhaseError, match="no double has been offered"):
        table.do(drop, side="a")


def test_a_double_after_rolling_is_out_of_turn() -> None:
    table = Table()
    table.opening(3, 1)

    with pytest.raises(WrongPhaseError, match="must play"):
        table.do(double, side="a")


def crawford_table(length: int = 3) -> Table:
    """Side b reaches length - 1 by a resigned gammon in game 1."""
    table = Table(match_length=length)
    started_game(table)
    table.do(offer_resignation, side="a", level="gammon")
    table.do(accept_resignation, side="b")
    return table


def test_the_game_after_a_side_reaches_match_length_minus_one_is_the_crawford_game() -> None:
    assert crawford_table(length=5).state.crawford is False  # 2 points of 5: not yet
    table = crawford_table()

    last = table.events[-1]
    assert isinstance(last, GameStarted)
    assert (last.game, last.crawford, last.score_b) == (2, True, 2)
    assert table.state.match_state().crawford is True


def test_no_doubling_in_the_crawford_game() -> None:
    table = crawford_table()
    table.opening(3, 1)
    table.do(play, side="a", notation="8/5 6/5")

    with pytest.raises(CubeNotAvailableError, match="Crawford"):
        table.do(double, side="b")


def test_post_crawford_games_use_the_cube_again() -> None:
    table = crawford_table(length=3)
    table.opening(3, 1)
    table.do(play, side="a", notation="8/5 6/5")
    table.do(offer_resignation, side="b", level="single")
    events = table.do(accept_resignation, side="a")
    assert isinstance(events[-1], GameStarted)
    assert events[-1].crawford is False  # rule G-CUBE-2: one Crawford game only
    state = table.state
    assert (state.post_crawford, state.score_a, state.score_b) == (True, 1, 2)
    table.opening(3, 1)
    table.do(play, side="a", notation="8/5 6/5")

    assert types(table.do(double, side="b")) == ["CubeOffered"]


# --- game results ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "result", "points"),
    [
        (board(p6=14), "single", 2),  # the loser bore off one checker
        (board(p6=15), "gammon", 4),  # none borne off
        (board(p6=14, p24=1), "backgammon", 6),  # none, and one in the winner's home board
        (board(p6=14, bar=1), "backgammon", 6),  # none, and one on the bar
    ],
)
def test_bearing_off_the_last_checker_scores_single_gammon_or_backgammon_times_the_cube(
    loser: tuple[int, ...], result: str, points: int
) -> None:
    table = Table()
    started_game(table)
    table.do(double, side="b")
    table.do(take, side="a")
    table.reach("a", board(p2=1), loser)

    table.do(roll, side="a", dice=(6, 5))
    events = table.do(play, side="a", notation="2/off")

    assert types(events) == ["CheckersPlayed", "GameWon", "GameStarted"]
    won = events[1]
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.cube, won.points) == ("a", result, 2, points)


def test_reaching_the_match_length_wins_the_match_and_excess_points_do_not_matter() -> None:
    table = Table(match_length=1)
    started_game(table)
    table.reach("a", board(p1=1), board(p6=15))
    table.do(roll, side="a", dice=(2, 1))

    events = table.do(play, side="a", notation="1/off")

    assert types(events) == ["CheckersPlayed", "GameWon", "MatchWon"]
    won = events[2]
    assert isinstance(won, MatchWon)
    assert (won.winner, won.score_a, won.score_b) == ("a", 2, 0)
    state = table.state
    assert (state.phase, state.winner, state.is_over) == ("match_over", "a", True)
    assert MatchState.from_match_id(state.match_id).score == (1, 0)  # gnubg caps at the length


def test_the_match_ends_with_match_won_not_with_the_game_that_reached_the_length() -> None:
    # rule G-CUBE-2: the game is scored by GameWon; the match is decided once, by MatchWon
    table = Table(match_length=1)
    started_game(table)
    table.reach("a", board(p1=1), board(p6=15))
    table.do(roll, side="a", dice=(2, 1))
    table.do(play, side="a", notation="1/off")

    at_game_won = fold(evolve, None, table.events[:-1])

    assert isinstance(table.events[-2], GameWon)
    assert at_game_won is not None
    assert (at_game_won.phase, at_game_won.is_over, at_game_won.score_a) == ("opening", False, 2)
    assert table.state.is_over


def test_a_cube_goes_no_higher_than_a_match_id_can_hold() -> None:
    table = Table()
    started_game(table)
    taken = CubeTaken(
        originator_id=MATCH,
        originator_version=table.state.version + 1,
        timestamp=T0,
        side="b",
        value=1 << 15,
    )
    table.events.append(taken)

    with pytest.raises(CubeNotAvailableError, match="no higher than 32768"):
        table.do(double, side="b")


def test_nothing_can_be_recorded_after_the_match_is_over() -> None:
    table = Table(match_length=1)
    started_game(table)
    table.do(offer_resignation, side="b", level="single")
    table.do(accept_resignation, side="a")

    attempts: list[tuple[Any, dict[str, Any]]] = [
        (roll, {"side": None, "dice": (3, 1)}),
        (play, {"side": "a", "notation": "8/5 6/5"}),
        (double, {"side": "a"}),
        (offer_resignation, {"side": "a", "level": "single"}),
    ]
    for command, arguments in attempts:
        with pytest.raises(MatchOverError):
            table.do(command, **arguments)


# --- resignations ---------------------------------------------------------------------------


def test_an_accepted_resignation_scores_its_level_times_the_cube() -> None:
    table = Table()
    started_game(table)
    table.do(double, side="b")
    table.do(take, side="a")

    offered = table.do(offer_resignation, side="b", level="gammon")
    assert isinstance(offered[0], ResignationOffered)
    assert (table.state.phase, table.state.turn) == ("resignation", "a")
    events = table.do(accept_resignation, side="a")

    assert types(events) == ["ResignationAccepted", "GameWon", "GameStarted"]
    won = events[1]
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.points, won.reason) == ("a", "gammon", 4, "resignation")


def test_a_rejected_resignation_resumes_play_where_it_stopped() -> None:
    table = Table()
    table.opening(3, 1)
    table.do(offer_resignation, side="b", level="single")

    with pytest.raises(NotYourTurnError):
        table.do(reject_resignation, side="b")  # the resigner cannot answer its own offer
    events = table.do(reject_resignation, side="a")

    assert isinstance(events[0], ResignationRejected)
    state = table.state
    assert (state.phase, state.on_roll, state.dice, state.resignation) == (
        "move",
        "a",
        (3, 1),
        None,
    )


def test_a_resignation_needs_a_level_under_the_tournament_rules() -> None:
    table = Table()
    table.opening(3, 1)

    with pytest.raises(InvalidInputError) as error:
        table.do(offer_resignation, side="a", level=None)
    assert error.value.field == "level"


def test_app_rules_resign_a_gammon_when_nothing_is_borne_off_and_end_the_game_at_once() -> None:
    table = Table(rules="app")
    table.opening(3, 1)

    with pytest.raises(InvalidInputError, match="gammon"):
        table.do(offer_resignation, side="a", level="single")
    events = table.do(offer_resignation, side="a", level=None)

    assert types(events) == [
        "ResignationOffered",
        "ResignationAccepted",
        "GameWon",
        "GameStarted",
    ]
    accepted, won = events[1], events[2]
    assert isinstance(accepted, ResignationAccepted)
    assert accepted.automatic is True
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.points) == ("b", "gammon", 2)


def test_app_rules_resign_a_single_once_a_checker_is_borne_off() -> None:
    table = Table(rules="app")
    table.opening(3, 1)
    table.reach("a", board(p1=3), board(p6=14))

    events = table.do(offer_resignation, side="b", level=None)

    won = events[2]
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.points) == ("a", "single", 1)


# --- money play -----------------------------------------------------------------------------


def test_jacoby_rule_counts_a_gammon_as_single_while_the_cube_is_centred() -> None:
    table = Table(match_length=0, jacoby=True)
    started_game(table)
    table.reach("a", board(p1=1), board(p6=15))
    table.do(roll, side="a", dice=(2, 1))

    events = table.do(play, side="a", notation="1/off")

    won = events[1]
    assert isinstance(won, GameWon)
    assert (won.result, won.points) == ("gammon", 1)  # rule G-CUBE-3
    assert isinstance(events[2], GameStarted)  # a money session goes on


def test_a_beaver_takes_and_redoubles_and_a_raccoon_redoubles_again() -> None:
    table = Table(match_length=0, beavers=True)
    started_game(table)
    table.do(double, side="b")

    beavered = table.do(beaver, side="a")
    assert isinstance(beavered[0], CubeBeavered)
    assert (table.state.cube_value, table.state.cube_owner, table.state.turn) == (4, "a", "b")
    raccooned = table.do(raccoon, side="b")

    assert isinstance(raccooned[0], CubeRaccooned)
    assert (table.state.cube_value, table.state.cube_owner) == (8, "b")
    table.do(roll, side="b", dice=(6, 5))
    with pytest.raises(WrongPhaseError):
        table.do(raccoon, side="b")


def test_beavers_are_refused_in_match_play() -> None:
    table = Table()
    started_game(table)
    table.do(double, side="b")

    with pytest.raises(CubeNotAvailableError, match="money-play"):
        table.do(beaver, side="a")


# --- clocks ---------------------------------------------------------------------------------


def test_the_side_on_roll_runs_its_clock_from_the_event_that_gave_it_the_turn() -> None:
    table = Table(clock="club")
    table.opening(3, 1)
    assert (table.state.clock.running, table.state.clock.since) == ("a", T0)
    table.wait(30)

    table.do(play, side="a", notation="8/5 6/5")

    clock = table.state.clock
    assert clock.reserve_a_ms == 7 * 120_000 - 18_000  # 30 s used, 12 s Bronstein delay back
    assert (clock.running, clock.since) == ("b", T0 + timedelta(seconds=30))


def test_a_timeout_claim_before_the_flag_falls_is_rejected_with_the_time_left() -> None:
    table = Table(clock="online30")
    table.opening(3, 1)
    table.wait(29)

    with pytest.raises(ClockNotExpiredError, match=r"1\.0 s"):
        table.do(claim_timeout, side="b")
    with pytest.raises(ClockNotExpiredError, match="own clock"):
        table.do(claim_timeout, side="a")


def test_in_the_club_preset_running_out_of_time_loses_the_match() -> None:
    table = Table(clock="club", match_length=1)
    table.opening(3, 1)
    table.wait(120)  # rule G-CLOCK-1: 2 minutes for a 1-point match, Bronstein

    events = table.do(claim_timeout, side="b")

    assert types(events) == ["TimeoutClaimed", "MatchWon"]
    claimed, won = events
    assert isinstance(claimed, TimeoutClaimed)
    assert (claimed.flagged, claimed.reserve_ms, claimed.used_ms) == ("a", 120_000, 120_000)
    assert isinstance(won, MatchWon)
    assert (won.winner, won.reason) == ("b", "timeout")


def test_in_the_app_preset_the_opponent_claims_a_gammon_when_the_reserve_is_used_up() -> None:
    table = Table(clock="app")
    table.opening(3, 1)
    table.wait(11 + 90)  # rule G-CLOCK-2: 11 s per move, then 1:30 reserve

    events = table.do(claim_timeout, side="b")

    won = events[1]
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.points, won.reason) == ("b", "gammon", 2, "timeout")


def test_the_app_reserve_lasts_the_whole_match_and_is_not_refilled_for_the_next_game() -> None:
    # rule G-CLOCK-2: "11 s per move, then a 1:30 reserve per player"
    table = Table(clock="app")
    table.opening(3, 1)
    table.wait(41)  # 11 s for the move, then 30 s of side a's reserve
    table.do(play, side="a", notation="8/5 6/5")
    table.do(double, side="b")

    table.do(drop, side="a")

    state = table.state
    assert state.game == 2
    assert (state.clock.reserve_a_ms, state.clock.reserve_b_ms) == (60_000, 90_000)


def test_a_timeout_gammon_counts_single_under_jacoby_while_the_cube_is_centred() -> None:
    # rules G-CLOCK-2 and G-CUBE-3: a game won on time scores as any other gammon
    table = Table(clock="app", match_length=0, jacoby=True)
    table.opening(3, 1)
    table.wait(102)

    events = table.do(claim_timeout, side="b")

    won = next(event for event in events if isinstance(event, GameWon))
    assert (won.result, won.reason, won.cube, won.points) == ("gammon", "timeout", 1, 1)
    assert (table.state.score_a, table.state.score_b) == (0, 1)


def test_a_match_without_a_clock_has_nothing_to_claim() -> None:
    table = Table(clock="none")
    table.opening(3, 1)

    with pytest.raises(ConflictError, match="without a clock"):
        table.do(claim_timeout, side="b")


def test_between_games_the_club_clock_of_the_last_games_loser_runs() -> None:
    table = Table(clock="club")
    started_game(table)
    table.do(double, side="b")
    table.wait(5)
    table.do(drop, side="a")
    assert table.state.clock.running == "a"  # rule G-CLOCK-1: breaks count as match time
    table.wait(60)

    table.opening(2, 5)  # side b starts: side a's clock stops after 65 s

    clock = table.state.clock
    assert (clock.reserve_a_ms, clock.running) == (7 * 120_000 - 65_000 + 12_000, "b")


# --- server dice, replay, Match ID ----------------------------------------------------------


def test_server_dice_must_come_from_the_seed_in_order() -> None:
    table = Table(dice_mode="server", seed_commitment="c" * 64, sealed_seed="d" * 64)

    with pytest.raises(ConflictError, match="in order"):
        table.do(roll, side=None, dice=(3, 1), roll_index=5)
    events = table.do(roll, side=None, dice=(3, 1), roll_index=0)

    assert isinstance(events[0], OpeningRollMade)
    assert events[0].roll_index == 0
    assert table.state.server_rolls == 1


def test_dice_outside_one_to_six_are_invalid_input() -> None:
    table = Table()

    with pytest.raises(InvalidInputError) as error:
        table.do(roll, side=None, dice=(0, 7))
    assert error.value.field == "dice"
    with pytest.raises(InvalidInputError, match="dice: a roll is two dice, got 3"):
        table.do(roll, side=None, dice=(1, 2, 3))


def test_replaying_any_prefix_of_the_events_gives_the_state_as_it_was() -> None:
    table = Table(clock="club")
    started_game(table)
    states = [fold(evolve, None, table.events[:n]) for n in range(1, len(table.events) + 1)]
    table.do(double, side="b")
    table.do(take, side="a")
    table.do(roll, side="b", dice=(6, 4))

    for n, state in enumerate(states, start=1):
        assert fold(evolve, None, table.events[:n]) == state
    last = table.events[-1]
    assert isinstance(last, DiceRolled)
    assert table.state.version == last.originator_version == len(table.events)


def test_the_match_id_carries_cube_score_turn_and_dice_as_gnubg_reads_them() -> None:
    table = Table(match_length=5)
    started_game(table)
    table.do(double, side="b")

    decoded = MatchState.from_match_id(table.state.match_id)

    assert decoded.match_length == 5
    assert (decoded.player_on_roll, decoded.turn, decoded.double_offered) == (1, 0, True)
    assert decoded.cube_value == 1
    events = table.do(take, side="a")
    assert isinstance(events[0], CubeTaken)
    taken = MatchState.from_match_id(table.state.match_id)
    assert (taken.cube_value, taken.cube_owner.value, taken.turn) == (2, 0, 1)


class SomethingElseHappened(DomainEvent, frozen=True, kw_only=True):
    """An event of another aggregate."""


def test_a_stream_that_does_not_start_with_match_started_is_no_match() -> None:
    other_stream = SomethingElseHappened(originator_id=MATCH, originator_version=1, timestamp=T0)

    with pytest.raises(NotAMatchError, match="no match with id"):
        evolve(None, other_stream)
    assert issubclass(NotAMatchError, NotFoundError)


def test_an_event_no_match_knows_is_a_type_error_naming_its_type() -> None:
    table = Table()
    stray = SomethingElseHappened(originator_id=MATCH, originator_version=3, timestamp=T0)

    with pytest.raises(TypeError, match="SomethingElseHappened is not an event of a match"):
        evolve(table.state, stray)


def test_forbidden_and_conflict_errors_are_the_domain_categories() -> None:
    assert issubclass(NotYourTurnError, ForbiddenError)
    assert issubclass(IllegalPlayRejectedError, ConflictError)
