"""The match aggregate: every roll, play, cube action, resignation and game result is an event.

A match holds its games; the state is folded from the events by ``evolve`` and commands are pure
functions ``(state, primitives, now) -> events``. Sides are ``"a"`` and ``"b"`` (gnubg's players
0 and 1). Dice arrive as arguments: typed in from a table (``entered``) or derived by the
service from the match's committed seed (``server``, rule G-DICE-1, see ``domain.dice``).
Clocks are arithmetic on the event timestamps (``domain.clock``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Literal, cast
from uuid import UUID

import msgspec

from domain.backgammon import (
    APP_RULES,
    TOURNAMENT_RULES,
    GameResult,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    Play,
    Position,
    RulesOptions,
    validate_dice,
)
from domain.backgammon.cache import cached_format_play, cached_legal_plays, position_from_id
from domain.backgammon.match_id import (
    MAX_CUBE_VALUE,
    MAX_MATCH_LENGTH,
    MAX_SCORE,
    CubeOwner,
    GameState,
    MatchState,
)
from domain.backgammon.notation import NotationError, format_dice, parse_play
from domain.backgammon.position import CHECKERS_PER_SIDE, STARTING_SIDE
from domain.backgammon.position import Side as Checkers
from domain.clock import PRESETS, ClockPreset, ClockPresetName, MatchClock
from domain.dice import seed_commitment
from domain.errors import ConflictError, ForbiddenError, InvalidInputError, NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch

Side = Literal["a", "b"]
Phase = Literal["opening", "roll", "move", "cube", "resignation", "match_over"]
DiceMode = Literal["entered", "server"]
RulesName = Literal["tournament", "app"]
Level = Literal["single", "gammon", "backgammon"]
WinReason = Literal["bear_off", "drop", "resignation", "timeout"]

MAX_PLAY_LENGTH = 64
"""The longest notation a play is read from: a play of four moves with hits is about 30."""
SIDES: tuple[Side, Side] = ("a", "b")
LEVELS: tuple[Level, ...] = ("single", "gammon", "backgammon")


def other(side: Side) -> Side:
    return "b" if side == "a" else "a"


# --- errors ---------------------------------------------------------------------------------


class NotAMatchError(NotFoundError):
    """An id whose events are another aggregate's (a tournament, a season): no such match."""


class NotYourTurnError(ForbiddenError):
    """A side acting when the other side's action is due."""

    type_slug = "not-your-turn"


class WrongPhaseError(ConflictError):
    """A command the match's phase does not allow (a play before the roll, a take with no
    double offered...)."""

    type_slug = "wrong-phase"


class MatchOverError(ConflictError):
    """A command after the match has ended."""

    type_slug = "match-over"


class IllegalPlayRejectedError(ConflictError):
    """rule G-LEGAL-1: an illegal play is never recorded; ``detail`` gives the reason."""

    type_slug = "illegal-play"


class CubeNotAvailableError(ConflictError):
    """A cube action the rules forbid now (Crawford game, cube owned by the opponent...)."""

    type_slug = "cube-not-available"


class ClockNotExpiredError(ConflictError):
    """A timeout claim while the opponent's clock still has time."""

    type_slug = "clock-not-expired"


# --- events ---------------------------------------------------------------------------------


class MatchStarted(DomainEvent, frozen=True, kw_only=True):
    """A match was created: players, length (0 = money session), dice, clock and rules."""

    player_a: str
    player_b: str
    match_length: int
    dice_mode: DiceMode
    clock: ClockPresetName
    rules: RulesName = "tournament"
    jacoby: bool = False
    beavers: bool = False
    token_hash_a: str
    token_hash_b: str
    seed_commitment: str | None = None
    """rule G-DICE-1: SHA-256 of the server dice seed, published at the start."""
    sealed_seed: str | None = None
    """The seed encrypted with the service's dice key: only the service can read it."""
    tournament_id: str | None = None


class GameStarted(DomainEvent, frozen=True, kw_only=True):
    """A game began with the board set up and the cube centred; ``crawford`` marks the
    Crawford game (rule G-CUBE-2)."""

    game: int
    crawford: bool = False
    score_a: int
    score_b: int


class OpeningRollMade(DomainEvent, frozen=True, kw_only=True):
    """rule G-OPEN-1: one die each; a tie (``starter`` None) is rolled again."""

    die_a: int
    die_b: int
    starter: Side | None
    roll_index: int | None = None
    """For server dice: which roll of the seed this was."""


class DiceRolled(DomainEvent, frozen=True, kw_only=True):
    side: Side
    dice: tuple[int, int]
    roll_index: int | None = None


class CheckersPlayed(DomainEvent, frozen=True, kw_only=True):
    """A legal play: its notation, its moves die by die and the Position ID after it (the
    opponent on roll), so that replay needs no move generation."""

    side: Side
    dice: tuple[int, int]
    play: str
    moves: tuple[tuple[int, int, bool], ...]
    """(source, destination, hit) per die; 25 is the bar, 0 off."""
    position_id: str


class TurnPassed(DomainEvent, frozen=True, kw_only=True):
    """rule G-MAX-1: the roll cannot be played at all; the turn passes automatically."""

    side: Side
    dice: tuple[int, int]


class CubeOffered(DomainEvent, frozen=True, kw_only=True):
    side: Side
    value: int
    """The value the cube goes to if taken."""


class CubeTaken(DomainEvent, frozen=True, kw_only=True):
    side: Side
    value: int


class CubeDropped(DomainEvent, frozen=True, kw_only=True):
    side: Side
    value: int
    """The value before the double: what the dropper loses (rule G-CUBE-1)."""


class CubeBeavered(DomainEvent, frozen=True, kw_only=True):
    """rule G-CUBE-3 (money): the doubled side took and at once redoubled, keeping the cube."""

    side: Side
    value: int


class CubeRaccooned(DomainEvent, frozen=True, kw_only=True):
    """rule G-CUBE-3 (money): the doubler answered a beaver by redoubling again."""

    side: Side
    value: int


class ResignationOffered(DomainEvent, frozen=True, kw_only=True):
    side: Side
    level: Level


class ResignationAccepted(DomainEvent, frozen=True, kw_only=True):
    side: Side
    level: Level
    automatic: bool = False
    """rule G-RESIGN-1, preset app: a resignation ends the game without an answer."""


class ResignationRejected(DomainEvent, frozen=True, kw_only=True):
    side: Side
    level: Level


class TimeoutClaimed(DomainEvent, frozen=True, kw_only=True):
    """The clock reading that a claim on time was checked against (G-CLOCK-1, G-CLOCK-2)."""

    side: Side
    flagged: Side
    reserve_ms: int
    """The flagged side's reserve when its move began."""
    used_ms: int
    """Time the flagged side had used in that move when the claim came."""
    outcome: Literal["match", "gammon"]


class GameWon(DomainEvent, frozen=True, kw_only=True):
    """A game ended: result and points (rule G-WIN-1 times the cube), scores after it."""

    game: int
    winner: Side
    result: Level
    reason: WinReason
    cube: int
    points: int
    score_a: int
    score_b: int


class MatchWon(DomainEvent, frozen=True, kw_only=True):
    winner: Side
    score_a: int
    score_b: int
    reason: Literal["score", "timeout"] = "score"


class SessionClosed(DomainEvent, frozen=True, kw_only=True):
    """A money session (no match length) was ended by a director; the running total stands."""

    score_a: int
    score_b: int


class DiceSeedRevealed(DomainEvent, frozen=True, kw_only=True):
    """rule G-DICE-1: the server dice seed, revealed when the match ended (hex)."""

    seed: str


# --- state ----------------------------------------------------------------------------------


class Match(Aggregate, frozen=True, kw_only=True):
    """A match as of its latest event."""

    player_a: str
    player_b: str
    match_length: int
    """0: a money session (rule G-CUBE-3), played until a director closes it."""
    dice_mode: DiceMode
    clock_preset: ClockPresetName
    rules: RulesName
    jacoby: bool
    beavers: bool
    token_hash_a: str
    token_hash_b: str
    seed_commitment: str | None
    sealed_seed: str | None
    revealed_seed: str | None = None
    tournament_id: str | None = None
    started_at: datetime
    updated_at: datetime
    score_a: int = 0
    score_b: int = 0
    game: int = 0
    crawford: bool = False
    """The current game is the Crawford game: no doubling (rule G-CUBE-2)."""
    crawford_played: bool = False
    phase: Phase = "opening"
    on_roll: Side | None = None
    board_a: Checkers = STARTING_SIDE
    """Side a's checkers from its own side (index 24 is the bar)."""
    board_b: Checkers = STARTING_SIDE
    dice: tuple[int, int] | None = None
    opening_roll: tuple[int, int] | None = None
    """The last opening roll (a's die, b's die), also when it was a tie."""
    cube_value: int = 1
    cube_owner: Side | None = None
    offered_value: int | None = None
    raccoon_allowed: bool = False
    resigner: Side | None = None
    resignation: Level | None = None
    resumed_phase: Phase | None = None
    server_rolls: int = 0
    """How many rolls have been derived from the seed (the next roll's index)."""
    previous_loser: Side | None = None
    winner: Side | None = None
    clock: MatchClock

    @property
    def is_over(self) -> bool:
        return self.phase == "match_over"

    @property
    def is_money_session(self) -> bool:
        return self.match_length == 0

    @property
    def post_crawford(self) -> bool:
        return self.crawford_played and not self.crawford

    @property
    def options(self) -> RulesOptions:
        return APP_RULES if self.rules == "app" else TOURNAMENT_RULES

    @property
    def preset(self) -> ClockPreset:
        return PRESETS[self.clock_preset]

    def score(self, side: Side) -> int:
        return self.score_a if side == "a" else self.score_b

    def board(self, side: Side) -> Checkers:
        return self.board_a if side == "a" else self.board_b

    def player(self, side: Side) -> str:
        return self.player_a if side == "a" else self.player_b

    def token_hash(self, side: Side) -> str:
        return self.token_hash_a if side == "a" else self.token_hash_b

    @property
    def position(self) -> Position:
        """The board seen from the side on roll (side a before the opening roll)."""
        side = self.on_roll or "a"
        return Position.trusted(self.board(side), self.board(other(side)))

    @property
    def turn(self) -> Side | None:
        """The side whose action is due (gnubg's ``fTurn``): None at the opening roll and at
        the end."""
        if self.phase in ("roll", "move"):
            return self.on_roll
        if self.phase == "cube":
            return other(self.on_roll) if self.on_roll else None
        if self.phase == "resignation":
            return other(self.resigner) if self.resigner else None
        return None

    @property
    def clock_side(self) -> Side | None:
        """Whose clock runs: the side whose action is due; between games (club preset) the
        loser of the last game, since breaks count against the match time (G-CLOCK-1)."""
        if not self.preset.is_timed:
            return None
        if self.phase == "opening":
            return self.previous_loser if self.preset.runs_between_games else None
        return self.turn

    def plays(self) -> tuple[Play, ...]:
        """The legal plays of the dice rolled (empty outside the move phase)."""
        if self.phase != "move" or self.dice is None:
            return ()
        return cached_legal_plays(self.position, self.dice, self.options)

    def match_state(self) -> MatchState:
        """The state as GNU Backgammon's Match ID fields (sides a, b are players 0, 1)."""
        length = self.match_length
        limit = length if length else MAX_SCORE
        on_roll = self.on_roll or "a"
        turn = self.turn or on_roll
        if self.phase == "match_over":
            game_state = GameState.OVER
        elif self.game == 0:
            game_state = GameState.NONE
        else:
            game_state = GameState.PLAYING
        return MatchState(
            match_length=length,
            score=(min(self.score_a, limit), min(self.score_b, limit)),
            cube_value=self.cube_value,
            cube_owner=_CUBE_OWNER[self.cube_owner],
            player_on_roll=_PLAYER[on_roll],
            turn=_PLAYER[turn],
            crawford=self.crawford,
            game_state=game_state,
            double_offered=self.phase == "cube",
            # gnubg writes a resignation as the points it is worth per cube: 1, 2 or 3.
            resignation=GameResult(self.resignation).multiplier if self.resignation else 0,
            dice=self.dice or (0, 0),
            jacoby=self.jacoby,
        )

    @property
    def match_id(self) -> str:
        return self.match_state().match_id


_PLAYER = {"a": 0, "b": 1}
_CUBE_OWNER = {None: CubeOwner.CENTRED, "a": CubeOwner.PLAYER_0, "b": CubeOwner.PLAYER_1}


# --- evolve ---------------------------------------------------------------------------------


def evolve(state: Match | None, event: DomainEvent) -> Match:
    """The one place where the match's events apply."""
    if state is None:
        if not isinstance(event, MatchStarted):
            raise NotAMatchError(
                f"no match with id {event.originator_id} (its record is not a match's)"
            )
        return _started(event)
    apply = _APPLY.get(type(event))
    if apply is None:
        if not isinstance(state, Match):  # a cached state of another aggregate
            raise NotAMatchError(f"no match with id {event.originator_id}")
        raise TypeError(f"{type(event).__name__} is not an event of a match")
    changed = apply(state, event)
    changed["version"] = event.originator_version
    changed["updated_at"] = event.timestamp
    new = _replace(state, changed)
    running = new.clock_side
    if running != new.clock.running:
        new = _replace(new, {"clock": new.clock.switch(new.preset, running, event.timestamp)})
    return new


def _replace(state: Match, changes: dict[str, Any]) -> Match:
    return msgspec.structs.replace(state, **changes)


def _started(event: MatchStarted) -> Match:
    preset = PRESETS[event.clock]
    return Match(
        id=event.originator_id,
        version=event.originator_version,
        player_a=event.player_a,
        player_b=event.player_b,
        match_length=event.match_length,
        dice_mode=event.dice_mode,
        clock_preset=event.clock,
        rules=event.rules,
        jacoby=event.jacoby,
        beavers=event.beavers,
        token_hash_a=event.token_hash_a,
        token_hash_b=event.token_hash_b,
        seed_commitment=event.seed_commitment,
        sealed_seed=event.sealed_seed,
        tournament_id=event.tournament_id,
        started_at=event.timestamp,
        updated_at=event.timestamp,
        clock=MatchClock.start(preset, event.match_length),
    )


def _game_started(state: Match, event: GameStarted) -> dict[str, Any]:
    return {
        "game": event.game,
        "crawford": event.crawford,
        "crawford_played": state.crawford_played or event.crawford,
        "phase": "opening",
        "on_roll": None,
        "board_a": STARTING_SIDE,
        "board_b": STARTING_SIDE,
        "dice": None,
        "opening_roll": None,
        "cube_value": 1,
        "cube_owner": None,
        "offered_value": None,
        "raccoon_allowed": False,
        "resigner": None,
        "resignation": None,
        "resumed_phase": None,
    }


def _opening_roll_made(state: Match, event: OpeningRollMade) -> dict[str, Any]:
    changes: dict[str, Any] = {"opening_roll": (event.die_a, event.die_b)}
    if event.roll_index is not None:
        changes["server_rolls"] = event.roll_index + 1
    if event.starter is not None:
        own, theirs = (
            (event.die_a, event.die_b) if event.starter == "a" else (event.die_b, event.die_a)
        )
        changes.update(phase="move", on_roll=event.starter, dice=(own, theirs))
    return changes


def _dice_rolled(state: Match, event: DiceRolled) -> dict[str, Any]:
    changes: dict[str, Any] = {"phase": "move", "dice": event.dice, "raccoon_allowed": False}
    if event.roll_index is not None:
        changes["server_rolls"] = event.roll_index + 1
    return changes


def _checkers_played(state: Match, event: CheckersPlayed) -> dict[str, Any]:
    after = position_from_id(event.position_id)  # the opponent is on roll after the play
    mover = event.side
    return {
        f"board_{mover}": after.opponent,
        f"board_{other(mover)}": after.on_roll,
        "phase": "roll",
        "on_roll": other(mover),
        "dice": None,
    }


def _turn_passed(state: Match, event: TurnPassed) -> dict[str, Any]:
    return {"phase": "roll", "on_roll": other(event.side), "dice": None}


def _cube_offered(state: Match, event: CubeOffered) -> dict[str, Any]:
    return {"phase": "cube", "offered_value": event.value, "raccoon_allowed": False}


def _cube_taken(state: Match, event: CubeTaken) -> dict[str, Any]:
    return {
        "phase": "roll",
        "cube_value": event.value,
        "cube_owner": event.side,
        "offered_value": None,
    }


def _cube_dropped(state: Match, event: CubeDropped) -> dict[str, Any]:
    return {"offered_value": None}


def _cube_beavered(state: Match, event: CubeBeavered) -> dict[str, Any]:
    return {
        "phase": "roll",
        "cube_value": event.value,
        "cube_owner": event.side,
        "offered_value": None,
        "raccoon_allowed": True,
    }


def _cube_raccooned(state: Match, event: CubeRaccooned) -> dict[str, Any]:
    return {"cube_value": event.value, "cube_owner": event.side, "raccoon_allowed": False}


def _resignation_offered(state: Match, event: ResignationOffered) -> dict[str, Any]:
    return {
        "phase": "resignation",
        "resigner": event.side,
        "resignation": event.level,
        "resumed_phase": state.phase,
    }


def _resignation_accepted(state: Match, event: ResignationAccepted) -> dict[str, Any]:
    return {}


def _resignation_rejected(state: Match, event: ResignationRejected) -> dict[str, Any]:
    return {
        "phase": state.resumed_phase or "roll",
        "resigner": None,
        "resignation": None,
        "resumed_phase": None,
    }


def _timeout_claimed(state: Match, event: TimeoutClaimed) -> dict[str, Any]:
    return {}


def _game_won(state: Match, event: GameWon) -> dict[str, Any]:
    """The next game's opening is due, unless ``MatchWon`` follows (``_end_game`` decides)."""
    return {
        "score_a": event.score_a,
        "score_b": event.score_b,
        "phase": "opening",
        "previous_loser": other(event.winner),
        "dice": None,
        "offered_value": None,
        "resigner": None,
        "resignation": None,
        "resumed_phase": None,
    }


def _match_won(state: Match, event: MatchWon) -> dict[str, Any]:
    return {"phase": "match_over", "winner": event.winner, "dice": None}


def _session_closed(state: Match, event: SessionClosed) -> dict[str, Any]:
    return {"phase": "match_over", "dice": None}


def _dice_seed_revealed(state: Match, event: DiceSeedRevealed) -> dict[str, Any]:
    return {"revealed_seed": event.seed}


_APPLY: dict[type[DomainEvent], Callable[[Match, Any], dict[str, Any]]] = {
    GameStarted: _game_started,
    OpeningRollMade: _opening_roll_made,
    DiceRolled: _dice_rolled,
    CheckersPlayed: _checkers_played,
    TurnPassed: _turn_passed,
    CubeOffered: _cube_offered,
    CubeTaken: _cube_taken,
    CubeDropped: _cube_dropped,
    CubeBeavered: _cube_beavered,
    CubeRaccooned: _cube_raccooned,
    ResignationOffered: _resignation_offered,
    ResignationAccepted: _resignation_accepted,
    ResignationRejected: _resignation_rejected,
    TimeoutClaimed: _timeout_claimed,
    GameWon: _game_won,
    MatchWon: _match_won,
    SessionClosed: _session_closed,
    DiceSeedRevealed: _dice_seed_revealed,
}


# --- commands -------------------------------------------------------------------------------


def start_match(
    match_id: UUID,
    now: datetime,
    *,
    player_a: str,
    player_b: str,
    match_length: int,
    dice_mode: str,
    clock: str,
    token_hash_a: str,
    token_hash_b: str,
    rules: str = "tournament",
    jacoby: bool = False,
    beavers: bool = False,
    seed_commitment: str | None = None,
    sealed_seed: str | None = None,
    tournament_id: str | None = None,
    actor: str | None = None,
) -> list[DomainEvent]:
    """Create a match and its first game (rules G-CUBE-2, G-CUBE-3, G-CLOCK-1, G-DICE-1)."""
    if not player_a.strip():
        raise InvalidInputError("player_a", "a player needs a name or id")
    if not player_b.strip():
        raise InvalidInputError("player_b", "a player needs a name or id")
    if not 0 <= match_length <= MAX_MATCH_LENGTH:
        raise InvalidInputError(
            "match_length", f"is 1 to {MAX_MATCH_LENGTH} points, or 0 for a money session"
        )
    if dice_mode not in ("entered", "server"):
        raise InvalidInputError("dice", "is 'entered' or 'server'")
    if clock not in PRESETS:
        raise InvalidInputError("clock", f"is one of {', '.join(PRESETS)}")
    if rules not in ("tournament", "app"):
        raise InvalidInputError("rules", "is 'tournament' or 'app'")
    if match_length and (jacoby or beavers):
        field = "jacoby" if jacoby else "beavers"
        raise InvalidInputError(field, "is a money-play option (G-CUBE-3), not for match play")
    if not match_length and PRESETS[clock].reserve_ms_per_point:
        raise InvalidInputError(
            "clock", "the club clock gives time per match point; a money session has no length"
        )
    if dice_mode == "server" and not (seed_commitment and sealed_seed):
        raise InvalidInputError("dice", "server dice need a committed seed")
    batch = EventBatch[DomainEvent](match_id, 0, now, actor)
    batch.add(
        MatchStarted,
        player_a=player_a,
        player_b=player_b,
        match_length=match_length,
        dice_mode=cast(DiceMode, dice_mode),
        clock=cast(ClockPresetName, clock),
        rules=cast(RulesName, rules),
        jacoby=jacoby,
        beavers=beavers,
        token_hash_a=token_hash_a,
        token_hash_b=token_hash_b,
        seed_commitment=seed_commitment if dice_mode == "server" else None,
        sealed_seed=sealed_seed if dice_mode == "server" else None,
        tournament_id=tournament_id,
    )
    batch.add(GameStarted, game=1, crawford=False, score_a=0, score_b=0)
    return batch.events


def roll(
    state: Match,
    side: Side | None,
    dice: Iterable[int],
    now: datetime,
    *,
    actor: str | None = None,
    roll_index: int | None = None,
) -> list[DomainEvent]:
    """Record a roll: the opening roll (one die each, G-OPEN-1) or the side on roll's dice.

    A roll that cannot be played passes the turn at once (G-MAX-1).
    """
    _require_playing(state)
    try:
        die_1, die_2 = validate_dice(dice)
    except InvalidDiceError as error:
        raise InvalidInputError("dice", str(error)) from None
    if state.dice_mode == "server" and roll_index != state.server_rolls:
        raise ConflictError("server dice come from the match's seed, in order")
    index = roll_index if state.dice_mode == "server" else None
    batch = EventBatch[DomainEvent].after(state, now, actor)
    if state.phase == "opening":
        starter: Side | None = None if die_1 == die_2 else ("a" if die_1 > die_2 else "b")
        batch.add(OpeningRollMade, die_a=die_1, die_b=die_2, starter=starter, roll_index=index)
        return batch.events
    if state.phase != "roll":
        raise WrongPhaseError(_phase_problem(state, "roll"))
    mover = _acting(state, side)
    batch.add(DiceRolled, side=mover, dice=(die_1, die_2), roll_index=index)
    if not cached_legal_plays(state.position, (die_1, die_2), state.options):
        batch.add(TurnPassed, side=mover, dice=(die_1, die_2))
    return batch.events


def play(
    state: Match,
    side: Side | None,
    now: datetime,
    *,
    notation: str | None = None,
    position_id: str | None = None,
    actor: str | None = None,
) -> list[DomainEvent]:
    """Record a legal play given in gnubg notation or as the Position ID after it.

    rule G-LEGAL-1: an illegal play is rejected with the reason and nothing is stored.
    """
    _require_playing(state)
    if state.phase != "move" or state.dice is None:
        raise WrongPhaseError(_phase_problem(state, "move"))
    mover = _acting(state, side)
    chosen = _chosen_play(state, notation, position_id)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(
        CheckersPlayed,
        side=mover,
        dice=state.dice,
        play=cached_format_play(chosen),
        moves=tuple((move.source, move.destination, move.hit) for move in chosen.moves),
        position_id=chosen.position_id,
    )
    if chosen.game_result is not None:
        result: Level = chosen.game_result.value
        _end_game(state, batch, mover, result, "bear_off", _points(state, chosen.game_result))
    return batch.events


def _chosen_play(state: Match, notation: str | None, position_id: str | None) -> Play:
    assert state.dice is not None
    plays = state.plays()
    if (notation is None) == (position_id is None):
        raise InvalidInputError("play", "give either 'play' (notation) or 'position_id'")
    if position_id is not None:
        try:
            Position.from_position_id(position_id)
        except InvalidPositionError as error:
            raise InvalidInputError("position_id", str(error)) from None
        for candidate in plays:
            if candidate.position_id == position_id:
                return candidate
        raise IllegalPlayRejectedError(
            f"no legal play of {format_dice(state.dice)} leads to position {position_id} "
            "(G-LEGAL-1)"
        )
    assert notation is not None
    if len(notation) > MAX_PLAY_LENGTH:  # parsing is not free: never read an essay
        raise InvalidInputError("play", f"is at most {MAX_PLAY_LENGTH} characters of notation")
    text = notation.strip()
    for candidate in plays:  # the usual case: the notation the service itself showed
        if cached_format_play(candidate) == text:
            return candidate
    try:
        return parse_play(text, state.position, state.dice, state.options)
    except NotationError as error:
        raise InvalidInputError("play", str(error)) from None
    except IllegalPlayError as error:
        raise IllegalPlayRejectedError(f"illegal play: {error} (G-LEGAL-1)") from None


def double(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-1: before rolling, the side on roll doubles if the cube is centred or its
    own; rule G-CUBE-2: never in the Crawford game."""
    _require_playing(state)
    if state.phase != "roll":
        raise WrongPhaseError(_phase_problem(state, "double"))
    doubler = _acting(state, side)
    if state.crawford:
        raise CubeNotAvailableError(
            "no doubling in the Crawford game (G-CUBE-2): the cube returns after this game"
        )
    if state.cube_owner == other(doubler):
        raise CubeNotAvailableError(
            f"side {other(doubler)} owns the cube: only the owner may redouble (G-CUBE-1)"
        )
    value = _redoubled(state.cube_value)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeOffered, side=doubler, value=value)
    return batch.events


def take(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-1: the doubled side takes, owns the cube, and the value doubles."""
    taker = _cube_responder(state, side, "take")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeTaken, side=taker, value=state.offered_value)
    return batch.events


def drop(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-1: a drop loses the game at the value before the double, no gammons."""
    dropper = _cube_responder(state, side, "drop")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeDropped, side=dropper, value=state.cube_value)
    _end_game(state, batch, other(dropper), "single", "drop", state.cube_value)
    return batch.events


def beaver(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-3 (money sessions with beavers): take and redouble at once, keeping the
    cube."""
    beaverer = _cube_responder(state, side, "beaver")
    if not (state.is_money_session and state.beavers):
        raise CubeNotAvailableError("beavers are a money-play option this match does not use")
    assert state.offered_value is not None
    value = _redoubled(state.offered_value)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeBeavered, side=beaverer, value=value)
    return batch.events


def raccoon(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-3: right after a beaver, the doubler may redouble again, keeping the cube."""
    _require_playing(state)
    if not state.raccoon_allowed or state.phase != "roll":
        raise WrongPhaseError("a raccoon answers a beaver, before the doubler rolls")
    raccooner = _acting(state, side)
    value = _redoubled(state.cube_value)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeRaccooned, side=raccooner, value=value)
    return batch.events


def offer_resignation(
    state: Match,
    side: Side,
    level: str | None,
    now: datetime,
    *,
    actor: str | None = None,
) -> list[DomainEvent]:
    """rule G-RESIGN-1: offer a single, gammon or backgammon.

    Preset app: the level follows from the board (gammon if the resigner bore off nothing,
    single otherwise) and the game ends at once.
    """
    _require_playing(state)
    if state.phase not in ("roll", "move"):
        raise WrongPhaseError(_phase_problem(state, "resign"))
    if state.rules == "app":
        borne_off = CHECKERS_PER_SIDE - sum(state.board(side))
        fixed: Level = "single" if borne_off else "gammon"
        if level is not None and level != fixed:
            raise InvalidInputError(
                "level",
                f"under the app rules a resignation is a {fixed} here (G-RESIGN-1: gammon "
                "if the resigner bore off nothing, single otherwise)",
            )
        batch = EventBatch[DomainEvent].after(state, now, actor)
        batch.add(ResignationOffered, side=side, level=fixed)
        batch.add(ResignationAccepted, side=other(side), level=fixed, automatic=True)
        _end_game(state, batch, other(side), fixed, "resignation", _level_points(state, fixed))
        return batch.events
    if level not in LEVELS:
        raise InvalidInputError("level", "is 'single', 'gammon' or 'backgammon'")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(ResignationOffered, side=side, level=level)
    return batch.events


def accept_resignation(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """The resignation's level times the cube goes to the accepting side (G-RESIGN-1)."""
    accepter = _resignation_responder(state, side)
    assert state.resignation is not None
    level = state.resignation
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(ResignationAccepted, side=accepter, level=level)
    _end_game(state, batch, accepter, level, "resignation", _level_points(state, level))
    return batch.events


def reject_resignation(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """Play goes on where the offer interrupted it."""
    rejecter = _resignation_responder(state, side)
    assert state.resignation is not None
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(ResignationRejected, side=rejecter, level=state.resignation)
    return batch.events


def claim_timeout(
    state: Match, side: Side, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """Claim a win on time, checked against the clock at ``now`` (G-CLOCK-1, G-CLOCK-2).

    Club preset: the side out of time loses the match. App and online30: the game is won as
    a gammon, times the cube (in a money session with the Jacoby rule, a single while the cube
    is centred, G-CUBE-3).
    """
    _require_playing(state)
    preset = state.preset
    if not preset.is_timed:
        raise ConflictError("this match is played without a clock")
    flagged = state.clock.running
    if flagged is None or flagged == side:
        raise ClockNotExpiredError(
            f"side {side} can claim only while the opponent's clock runs"
            if flagged is None
            else f"side {side}'s own clock is running: only the opponent can claim"
        )
    reserve = state.clock.reserve(flagged)
    used = state.clock.elapsed(now)
    if not preset.is_expired(reserve, used):
        left = (preset.limit(reserve) - used) / 1000
        raise ClockNotExpiredError(f"side {flagged} still has {left:.1f} s on the clock")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(
        TimeoutClaimed,
        side=side,
        flagged=flagged,
        reserve_ms=reserve,
        used_ms=used,
        outcome=preset.timeout_outcome,
    )
    if preset.timeout_outcome == "match":
        batch.add(
            MatchWon, winner=side, score_a=state.score_a, score_b=state.score_b, reason="timeout"
        )
    else:
        _end_game(state, batch, side, "gammon", "timeout", _level_points(state, "gammon"))
    return batch.events


def close_session(state: Match, now: datetime, *, actor: str | None = None) -> list[DomainEvent]:
    """End a money session; its running total stands (rule G-CUBE-3, seed 003)."""
    _require_playing(state)
    if not state.is_money_session:
        raise ConflictError("a match ends when a side reaches the match length, not on request")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(SessionClosed, score_a=state.score_a, score_b=state.score_b)
    return batch.events


def reveal_seed(
    state: Match, seed: bytes, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-DICE-1: publish the server dice seed once the match is over."""
    if state.dice_mode != "server" or state.seed_commitment is None:
        raise ConflictError("this match uses entered dice: there is no seed")
    if not state.is_over:
        raise ConflictError("the seed is revealed only when the match has ended")
    if state.revealed_seed is not None:
        raise ConflictError("the seed has been revealed already")
    if seed_commitment(seed) != state.seed_commitment:
        raise ConflictError("this seed does not match the commitment")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(DiceSeedRevealed, seed=seed.hex())
    return batch.events


# --- rules helpers --------------------------------------------------------------------------


def _end_game(
    state: Match,
    batch: EventBatch[DomainEvent],
    winner: Side,
    result: Level,
    reason: WinReason,
    points: int,
) -> None:
    """rule G-WIN-1 and G-CUBE-2: score the game, then end the match or start the next game
    (the Crawford game when a side has just reached match length - 1)."""
    score_a = state.score_a + (points if winner == "a" else 0)
    score_b = state.score_b + (points if winner == "b" else 0)
    batch.add(
        GameWon,
        game=state.game,
        winner=winner,
        result=result,
        reason=reason,
        cube=state.cube_value,
        points=points,
        score_a=score_a,
        score_b=score_b,
    )
    length = state.match_length
    if length and max(score_a, score_b) >= length:
        batch.add(MatchWon, winner=winner, score_a=score_a, score_b=score_b)
        return
    crawford = (
        bool(length)
        and not state.crawford_played
        and (score_a == length - 1 or score_b == length - 1)
    )
    batch.add(GameStarted, game=state.game + 1, crawford=crawford, score_a=score_a, score_b=score_b)


def _points(state: Match, result: GameResult) -> int:
    """rule G-WIN-1 times the cube; rule G-CUBE-3 Jacoby: gammons count only once the cube
    was turned."""
    multiplier = result.multiplier
    if state.jacoby and state.cube_value == 1:
        multiplier = 1
    return multiplier * state.cube_value


def _level_points(state: Match, level: Level) -> int:
    return _points(state, GameResult(level))


def _require_playing(state: Match) -> None:
    if state.is_over:
        raise MatchOverError("the match is over: nothing more can be recorded")


def _acting(state: Match, side: Side | None) -> Side:
    """The side whose action is due; another side gets a 403."""
    due = state.turn
    assert due is not None
    if side is not None and side != due:
        raise NotYourTurnError(f"it is side {due}'s turn, not side {side}'s")
    return due


def _cube_responder(state: Match, side: Side | None, action: str) -> Side:
    _require_playing(state)
    if state.phase != "cube" or state.offered_value is None:
        raise WrongPhaseError(f"cannot {action}: no double has been offered")
    return _acting(state, side)


def _resignation_responder(state: Match, side: Side | None) -> Side:
    _require_playing(state)
    if state.phase != "resignation" or state.resignation is None:
        raise WrongPhaseError("no resignation has been offered")
    return _acting(state, side)


def _phase_problem(state: Match, action: str) -> str:
    due = {
        "opening": "the opening roll is due (one die each)",
        "roll": f"side {state.on_roll} is to double or roll",
        "move": f"side {state.on_roll} has rolled and must play",
        "cube": f"side {state.turn} must answer the double (take or drop)",
        "resignation": f"side {state.turn} must answer the resignation",
        "match_over": "the match is over",
    }[state.phase]
    return f"cannot {action} now: {due}"


def _redoubled(value: int) -> int:
    """The cube's next value (G-CUBE-1), within what a Match ID can hold."""
    if value * 2 > MAX_CUBE_VALUE:
        raise CubeNotAvailableError(f"the cube goes no higher than {MAX_CUBE_VALUE}")
    return value * 2
