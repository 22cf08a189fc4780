"""A match as of its latest event: the ``Match`` aggregate, the values it holds and what it
answers (its events apply in ``domain.match.evolution``)."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar
from uuid import UUID

import msgspec

from domain.backgammon import (
    APP_RULES,
    TOURNAMENT_RULES,
    GameResult,
    Play,
    Position,
    RulesOptions,
)
from domain.backgammon.cache import cached_legal_notations, cached_legal_plays
from domain.backgammon.match_id import (
    MAX_SCORE,
    CubeOwner,
    GameState,
    MatchState,
)
from domain.backgammon.position import STARTING_SIDE
from domain.backgammon.position import Side as Checkers
from domain.clock import PRESETS, ClockPreset, ClockPresetName, MatchClock, with_overtime
from domain.events import PSEUDONYM, Aggregate, Personal
from domain.match.errors import PenaltyNotFoundError
from domain.match.events import (
    DiceMode,
    GameResultName,
    LatestRoll,
    Level,
    MatchVariant,
    Phase,
    RulesName,
    SeatedPlayers,
    Side,
    TavliFormat,
    TournamentPairing,
    other,
)
from domain.variants import Variant, VariantBoard, VariantPlay, cached_variant_legal_plays


class Penalty(msgspec.Struct, frozen=True, kw_only=True):
    """Penalty points against a side as they stand now (0 once waived)."""

    id: UUID
    side: Side
    points: int


class FinishedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game as ``games`` lists it: ``winner`` None and 0 points for a draw."""

    game: int
    variant: MatchVariant
    """The game's board: portes, plakoto or fevga in a Tavli match."""
    winner: Side | None
    result: GameResultName | None
    """None for a draw (V-PLAKOTO-8), shown as ``draw``."""
    points: int


TAVLI_CYCLE = (Variant.PORTES, Variant.PLAKOTO, Variant.FEVGA)
"""rule V-TAVLI-MATCH-1: the games of a Tavli match, in this order, round and round."""


class Match(Aggregate, frozen=True, kw_only=True):
    """A match as of its latest event."""

    personal: ClassVar[tuple[Personal, ...]] = (
        Personal("pairing.player_a_id", {"player_a": PSEUDONYM}),
        Personal("pairing.player_b_id", {"player_b": PSEUDONYM}),
        Personal("seated.player_a_id", {"player_a": PSEUDONYM}),
        Personal("seated.player_b_id", {"player_b": PSEUDONYM}),
    )
    """As ``MatchStarted``: a snapshot of a tournament's match names its two persons."""

    player_a: str
    player_b: str
    match_length: int
    """0: a money session (rule G-CUBE-3), played until a director closes it."""
    dice_mode: DiceMode
    clock_preset: ClockPresetName
    clock_overtime_seconds: int = 0
    """rule G-CLOCK-1, USBGF option: one overtime per side after its first expiry."""
    rules: RulesName
    jacoby: bool
    beavers: bool
    token_hash_a: str
    token_hash_b: str
    seed_commitment: str | None
    sealed_seed: str | None
    revealed_seed: str | None = None
    tournament_id: str | None = None
    pairing: TournamentPairing | None = None
    seated: SeatedPlayers | None = None
    """The registered persons of an ad hoc match of a tournament (see ``MatchStarted``)."""
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
    penalties: tuple[Penalty, ...] = ()
    began_at: datetime | None = None
    """The first opening roll: both players were at the table (rule C-BREAK-1)."""
    voided: bool = False
    """The tournament took back the pairing: closed without a result."""
    latest_roll: LatestRoll | None = None
    """The latest roll while nothing has been played from it (rule G-DICE-2 may void it)."""
    reroll_due: bool = False
    """The latest roll was voided: its roller rolls again, without a new cube decision."""
    clock: MatchClock
    flagged_since: datetime | None = None
    """The clock period (its start) that the scheduler flagged as run out, if any."""
    variant: MatchVariant = "backgammon"
    tavli_format: TavliFormat = "points"
    game_starter: Side | None = None
    """Who started the game in progress (a drawn Plakoto is replayed by the same side)."""
    cube_enabled: bool = True
    """rule V-CUBE-1: off in a variant match unless asked for."""
    variant_a: tuple[int, ...] = ()
    """A variant game's board: side a's 25 counts in its own numbering (V-BOARD-1)."""
    variant_b: tuple[int, ...] = ()
    pinned_a: tuple[int, ...] = ()
    """Plakoto: side a's points (own numbering) where its checker is pinned."""
    pinned_b: tuple[int, ...] = ()
    games: tuple[FinishedGame, ...] = ()
    """The finished games, in order."""

    @property
    def game_variant(self) -> Variant | None:
        """The board of the game in progress: the match's variant, or in a Tavli match the next
        of the cycle after the games decided (a drawn Plakoto is replayed as Plakoto); None in
        backgammon."""
        if self.variant == "backgammon":
            return None
        if self.variant == "tavli":
            decided = sum(game.winner is not None for game in self.games)
            return TAVLI_CYCLE[decided % len(TAVLI_CYCLE)]
        return Variant(self.variant)

    @property
    def variant_board(self) -> VariantBoard | None:
        """The variant board seen from the side on roll (side a before the opening), each side
        in its own numbering (V-BOARD-1)."""
        variant = self.game_variant
        if variant is None:
            return None
        mine, theirs = (self.variant_a, self.variant_b)
        pins_mine, pins_theirs = (self.pinned_a, self.pinned_b)
        if self.on_roll == "b":
            mine, theirs, pins_mine, pins_theirs = theirs, mine, pins_theirs, pins_mine
        return VariantBoard.trusted(variant, mine, theirs, pins_mine, pins_theirs)

    def variant_plays(self) -> tuple[VariantPlay, ...]:
        """The legal plays of the dice rolled in a variant game (rule V-MAX-1)."""
        board = self.variant_board
        if board is None or self.phase != "move" or self.dice is None:
            return ()
        return cached_variant_legal_plays(board, self.dice)

    @property
    def is_over(self) -> bool:
        return self.phase == "match_over"

    def penalty(self, penalty_id: UUID) -> Penalty:
        for penalty in self.penalties:
            if penalty.id == penalty_id:
                return penalty
        raise PenaltyNotFoundError(f"match {self.id} has no penalty {penalty_id}")

    def penalty_points_against(self, side: Side) -> int:
        """The penalty points ``side`` has been given, now counting (rule C-BREAK-2)."""
        return sum(p.points for p in self.penalties if p.side == side)

    @property
    def has_begun(self) -> bool:
        """A die was cast: the first game's opening roll is behind it."""
        return self.game > 1 or self.phase != "opening"

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
        preset = PRESETS[self.clock_preset]
        if not self.clock_overtime_seconds:  # the usual case: no lookup of the variant
            return preset
        return with_overtime(preset, self.clock_overtime_seconds)

    def score(self, side: Side) -> int:
        return self.score_a if side == "a" else self.score_b

    def board(self, side: Side) -> Checkers:
        return self.board_a if side == "a" else self.board_b

    def player(self, side: Side) -> str:
        return self.player_a if side == "a" else self.player_b

    @property
    def player_ids(self) -> tuple[UUID, UUID] | None:
        """The registered persons playing sides a and b: a tournament's match (its pairing, or
        seated ad hoc); None for a match between typed-in names."""
        persons = self.pairing or self.seated
        return (persons.player_a_id, persons.player_b_id) if persons is not None else None

    def actor(self, side: Side) -> str:
        """How an event's ``actor`` names the side's player: by player id in a tournament's
        match (a name there is personal data, kept sealed), by the typed-in name otherwise."""
        ids = self.player_ids
        if ids is not None:
            return f"player:{ids[0] if side == 'a' else ids[1]}"
        return f"player:{self.player(side)}"

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
        """The legal plays of the dice rolled (empty outside the move phase and in variants)."""
        dice = self._dice_to_play()
        return () if dice is None else cached_legal_plays(self.position, dice, self.options)

    def play_notations(self) -> tuple[str, ...]:
        """The gnubg notation of each of ``plays()``, in the same order."""
        dice = self._dice_to_play()
        return () if dice is None else cached_legal_notations(self.position, dice, self.options)

    def _dice_to_play(self) -> tuple[int, int] | None:
        """The dice of the backgammon play due now; None outside the move phase and in variants."""
        return self.dice if self.phase == "move" and self.variant == "backgammon" else None

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
        """Remembered per the fields a Match ID is made of: every match view shows one, and
        9 in 10 of the states of play repeat one (the score and the cube change seldom)."""
        fields = (
            self.match_length,
            self.score_a,
            self.score_b,
            self.cube_value,
            self.cube_owner,
            self.on_roll,
            self.turn,
            self.phase,
            self.game,
            self.crawford,
            self.resignation,
            self.dice,
            self.jacoby,
        )
        match_id = _MATCH_IDS.get(fields)
        if match_id is None:
            if len(_MATCH_IDS) >= _MATCH_IDS_KEPT:
                _MATCH_IDS.clear()
            match_id = _MATCH_IDS[fields] = self.match_state().match_id
        return match_id


_MATCH_IDS: dict[tuple[object, ...], str] = {}
_MATCH_IDS_KEPT = 8192


_PLAYER = {"a": 0, "b": 1}
_CUBE_OWNER = {None: CubeOwner.CENTRED, "a": CubeOwner.PLAYER_0, "b": CubeOwner.PLAYER_1}
