"""The match's vocabulary (sides, phases, levels) and its events: every roll, play, cube
action, resignation, time claim and result."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, Literal
from uuid import UUID

import msgspec

from domain.clock import ClockPresetName
from domain.events import PSEUDONYM, DomainEvent, Personal

Side = Literal["a", "b"]
Phase = Literal["opening", "roll", "move", "cube", "resignation", "match_over"]
DiceMode = Literal["entered", "server"]
RulesName = Literal["tournament", "app"]
Level = Literal["single", "gammon", "backgammon"]
WinReason = Literal["bear_off", "drop", "resignation", "timeout", "mother"]
MatchVariant = Literal["backgammon", "portes", "plakoto", "fevga", "tavla", "nardi", "tavli"]
"""rule V-MATCH-VARIANT-1: ``tavli`` is the cycle of V-TAVLI-MATCH-1, the others one board."""
GameResultName = Literal["single", "gammon", "backgammon", "mother"]
"""How a game was won: G-WIN-1's levels, and in Plakoto the mother (V-PLAKOTO-7)."""
TavliFormat = Literal["points", "best_of_three"]

MAX_PLAY_LENGTH = 64
"""The longest notation a play is read from: a play of four moves with hits is about 30."""
SIDES: tuple[Side, Side] = ("a", "b")
LEVELS: tuple[Level, ...] = ("single", "gammon", "backgammon")


def other(side: Side) -> Side:
    return "b" if side == "a" else "a"


class TournamentPairing(msgspec.Struct, frozen=True, kw_only=True):
    """Where a tournament's pairing put the match, and whose registration plays each side."""

    round: int
    table: int
    stage: str
    player_a_id: UUID
    player_b_id: UUID


class SeatedPlayers(msgspec.Struct, frozen=True, kw_only=True):
    """The persons who play an ad hoc match (no pairing): two registered persons of a
    tournament, or two players of the rating list (rule R-RATE-7). Its names are theirs,
    sealed under their keys like a pairing's."""

    player_a_id: UUID
    player_b_id: UUID


class LatestRoll(msgspec.Struct, frozen=True, kw_only=True):
    """The latest roll while it may still be voided (rule G-DICE-2): nothing played from it."""

    version: int
    """The version of the roll's event."""
    side: Side | None
    """The side that rolled; None for the opening roll."""
    dice: tuple[int, int]
    passed: bool = False
    """The roll could not be played and passed the turn (G-MAX-1); the opponent has done
    nothing since."""
    void_asked_by: Side | None = None
    """A player asked to void it and waits for the opponent to ask too."""


class MatchStarted(DomainEvent, frozen=True, kw_only=True):
    """A match was created: players, length (0 = money session), dice, clock and rules."""

    player_a: str
    player_b: str
    match_length: int
    dice_mode: DiceMode
    clock: ClockPresetName
    clock_overtime_seconds: int = 0
    """rule G-CLOCK-1, USBGF option: one overtime of 60 or 120 s after the first expiry."""
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
    pairing: TournamentPairing | None = None
    """Set for a match started by a tournament's pairing (rule T-FMT-2, T-FMT-4)."""
    seated: SeatedPlayers | None = None
    """Set for an ad hoc match a director started between two players of a running
    tournament (None in events recorded before it existed: their names were stored plain),
    or the players of the club's rating list an ad hoc match names (rule R-RATE-7)."""
    rated: bool = True
    """rule R-RATE-5: False for a friendly, which the rating list leaves out (a match between
    typed-in names without ``seated`` is never rated: it names no player)."""
    variant: MatchVariant = "backgammon"
    """rule V-MATCH-VARIANT-1; events recorded before variants existed read as backgammon."""
    cube: bool = True
    """rule V-CUBE-1: the doubling cube is in play (the default in backgammon only)."""
    tavli_format: TavliFormat = "points"
    """rule V-TAVLI-MATCH-1: a Tavli match to ``match_length`` points, or best of three."""

    personal: ClassVar[tuple[Personal, ...]] = (
        Personal("pairing.player_a_id", {"player_a": PSEUDONYM}),
        Personal("pairing.player_b_id", {"player_b": PSEUDONYM}),
        Personal("seated.player_a_id", {"player_a": PSEUDONYM}),
        Personal("seated.player_b_id", {"player_b": PSEUDONYM}),
    )
    """A tournament's match names its two registered persons (by its pairing, or seated ad
    hoc); an ad hoc match between typed-in names names nobody."""


class GameStarted(DomainEvent, frozen=True, kw_only=True):
    """A game began with the board set up and the cube centred; ``crawford`` marks the
    Crawford game (rule G-CUBE-2)."""

    game: int
    crawford: bool = False
    score_a: int
    score_b: int
    starter: Side | None = None
    """rule V-TAVLI-MATCH-1: a later Tavli game has no opening roll; this side rolls first."""


class OpeningRollMade(DomainEvent, frozen=True, kw_only=True):
    """rule G-OPEN-1: one die each; a tie (``starter`` None) is rolled again."""

    die_a: int
    die_b: int
    starter: Side | None
    roll_index: int | None = None
    """For server dice: which roll of the seed this was."""
    entered_by: Side | None = None
    """Entered dice: the side whose token entered both dice (one board, one roll); None for
    the director or the server."""


class DiceRolled(DomainEvent, frozen=True, kw_only=True):
    side: Side
    dice: tuple[int, int]
    roll_index: int | None = None
    entered_by: Side | None = None
    """Entered dice: the side whose token entered them (either side may, at one board); None
    for the director or the server."""


class RollVoidRequested(DomainEvent, frozen=True, kw_only=True):
    """rule G-DICE-2: a player asks to void the latest roll (a die off the board, cocked, on a
    checker); the opponent's request too voids it (``RollVoided``)."""

    side: Side
    """The side that asks."""
    roll_version: int
    """The version of the roll's event."""
    reason: str


class RollVoided(DomainEvent, frozen=True, kw_only=True):
    """rule G-DICE-2: the latest roll does not count and is rolled again. Its event stays in
    the stream; this one says it was voided, why and on whose word."""

    roll_version: int
    """The version of the voided roll's event (``DiceRolled`` or ``OpeningRollMade``)."""
    side: Side | None
    """The side that rolled; None for an opening roll (one die each)."""
    dice: tuple[int, int]
    """The voided dice: the roller's, or side a's and side b's opening dice."""
    reason: str
    by: Literal["director", "players"]
    """A director's decision, or both players asking."""


class CheckerPlay(DomainEvent, frozen=True, kw_only=True):
    """What every legal play records, on any board: the side, its dice, the play's notation
    and its moves die by die. The base of ``CheckersPlayed`` and ``VariantCheckersPlayed``,
    never recorded itself."""

    side: Side
    dice: tuple[int, int]
    play: str
    moves: tuple[tuple[int, int, bool], ...]
    """(source, destination, hit) per die in the mover's numbering; 25 is the bar, 0 off."""


class CheckersPlayed(CheckerPlay, frozen=True, kw_only=True):
    """A legal play and the Position ID after it (the opponent on roll), so that replay needs
    no move generation."""

    position_id: str


class VariantCheckersPlayed(CheckerPlay, frozen=True, kw_only=True):
    """A legal play in a variant game (rules V-*) and the board after it, with the opponent
    on roll and each side in its own numbering (V-BOARD-1), so that replay needs no move
    generation."""

    on_roll: tuple[int, ...]
    """The opponent's 25 counts after the play (index 0 the bar)."""
    opponent: tuple[int, ...]
    """The mover's 25 counts after the play."""
    pinned_on_roll: tuple[int, ...] = ()
    """Plakoto: the opponent's points (own numbering) where its checker is pinned."""
    pinned_opponent: tuple[int, ...] = ()
    """Plakoto: the mover's points (own numbering) where its checker is pinned."""


class GameDrawn(DomainEvent, frozen=True, kw_only=True):
    """rule V-PLAKOTO-8: both mothers pinned; the game scores nothing."""

    game: int
    score_a: int
    score_b: int


class TurnPassed(DomainEvent, frozen=True, kw_only=True):
    """rule G-MAX-1: the roll cannot be played at all; the turn passes automatically."""

    side: Side
    dice: tuple[int, int]


class CubeAction(DomainEvent, frozen=True, kw_only=True):
    """A side's action with the cube and the cube value it names (rules G-CUBE-1, G-CUBE-3):
    the base of the five cube events, never recorded itself."""

    side: Side
    value: int


class CubeOffered(CubeAction, frozen=True, kw_only=True):
    """``value``: the value the cube goes to if taken."""


class CubeTaken(CubeAction, frozen=True, kw_only=True):
    """``value``: the cube's new value, owned by the taker."""


class CubeDropped(CubeAction, frozen=True, kw_only=True):
    """``value``: the value before the double, what the dropper loses (rule G-CUBE-1)."""


class CubeBeavered(CubeAction, frozen=True, kw_only=True):
    """rule G-CUBE-3 (money): the doubled side took and at once redoubled, keeping the cube."""


class CubeRaccooned(CubeAction, frozen=True, kw_only=True):
    """rule G-CUBE-3 (money): the doubler answered a beaver by redoubling again."""


class ResignationAction(DomainEvent, frozen=True, kw_only=True):
    """A side offers, accepts or rejects a resignation at ``level`` (rule G-RESIGN-1): the
    base of the three resignation events, never recorded itself."""

    side: Side
    level: Level


class ResignationOffered(ResignationAction, frozen=True, kw_only=True):
    """``side`` resigns at ``level``; the opponent accepts or rejects it."""


class ResignationAccepted(ResignationAction, frozen=True, kw_only=True):
    """``side`` accepts the opponent's resignation: the game ends at ``level``."""

    automatic: bool = False
    """rule G-RESIGN-1, preset app: a resignation ends the game without an answer."""


class ResignationRejected(ResignationAction, frozen=True, kw_only=True):
    """``side`` rejects the opponent's resignation: play goes on."""


class TimeoutClaimed(DomainEvent, frozen=True, kw_only=True):
    """The clock reading that a claim on time was checked against (G-CLOCK-1, G-CLOCK-2)."""

    side: Side
    flagged: Side
    reserve_ms: int
    """The flagged side's reserve when its move began."""
    used_ms: int
    """Time the flagged side had used in that move when the claim came."""
    outcome: Literal["match", "gammon"]
    overtime_ms: int = 0
    """The USBGF overtime (G-CLOCK-1) the flagged side still had at the move's start, now
    spent: it ran out at ``reserve_ms + overtime_ms``."""


class ClockFlagged(DomainEvent, frozen=True, kw_only=True):
    """The scheduler saw a side's time run out (G-CLOCK-1, G-CLOCK-2): the opponent may claim.

    Recorded once per expiry: ``since`` names the period of the flagged side's clock."""

    flagged: Side
    since: datetime
    """When the flagged side's clock started: the period that ran out."""
    reserve_ms: int
    used_ms: int
    overtime_ms: int = 0
    """The USBGF overtime (G-CLOCK-1) it still had at the period's start, now spent."""


class GameWon(DomainEvent, frozen=True, kw_only=True):
    """A game ended: result and points (rule G-WIN-1 times the cube), scores after it."""

    game: int
    winner: Side
    result: GameResultName
    reason: WinReason
    cube: int
    points: int
    score_a: int
    score_b: int


class MatchWon(DomainEvent, frozen=True, kw_only=True):
    """The match is decided; a match decided early shows the winner at the match length
    (rule T-FMT-7)."""

    winner: Side
    score_a: int
    score_b: int
    reason: Literal["score", "timeout", "forfeit", "penalty", "reported"] = "score"
    """``reported``: the tournament recorded the result from the board (rule T-FMT-6)."""


class PenaltyAwarded(DomainEvent, frozen=True, kw_only=True):
    """The director penalised ``side``: the points go to the opponent's score (rule C-BREAK-2)."""

    penalty_id: UUID
    side: Side
    points: int
    reason: str


class PenaltyChanged(DomainEvent, frozen=True, kw_only=True):
    """A later decision on a penalty: adjusted to ``points``, or waived (0 points)."""

    penalty_id: UUID
    points: int
    reason: str


class SessionClosed(DomainEvent, frozen=True, kw_only=True):
    """A money session (no match length) was ended by a director; the running total stands."""

    score_a: int
    score_b: int


class MatchVoided(DomainEvent, frozen=True, kw_only=True):
    """The tournament took back the match's pairing (a repaired or unpaired round): the match is
    closed without a result and counts for nobody."""

    reason: str = ""


class DiceSeedRevealed(DomainEvent, frozen=True, kw_only=True):
    """rule G-DICE-1: the server dice seed, revealed when the match ended (hex)."""

    seed: str
