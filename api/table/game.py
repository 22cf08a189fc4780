"""The match at a table as the table page shows it while it is played move by move: the board
(SVG drawn by the service), the score, whose turn it is, the dice, the cube, the clocks, and
which forms the visitor may send (API.md "Playing at the table").

The forms offered follow the match's phase and the sides the visitor acts for: a player's
session acts for that player's side only; a table's tablet, opened by the director, for both.
Offering a form decides nothing: the use case behind it checks every rule again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from markupsafe import Markup

from api.table.board import BoardPicture, board_svg
from domain.backgammon.cache import cached_format_play
from domain.match import SIDES, Match, Side
from domain.match.errors import RollNotVoidableError
from domain.match.variant_games import FinishedGame
from domain.match.voids import voidable_roll
from domain.variants import Variant

PLAY_ACTIONS = (
    "roll",
    "play",
    "cube",
    "resign",
    "accept-resignation",
    "reject-resignation",
    "void-roll",
)
"""The forms of playing at the table, each the REST command of the same name."""
LEVELS = ("single", "gammon", "backgammon")
VARIANT_LEVELS = ("single", "gammon")
"""rule V-RESIGN-1: no backgammon level in a variant."""
Action = Literal["roll", "play", "double", "take", "drop", "resign", "answer", "void"]


@dataclass(frozen=True, slots=True)
class ClockView:
    side: Side
    reserve_ms: int
    delay_ms: int
    running: bool
    expired: bool

    @property
    def shown(self) -> str:
        """The reserve as ``m:ss`` (the page's script counts it down between events)."""
        seconds = self.reserve_ms // 1000
        return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True, slots=True)
class Game:
    """The match being played at the table, and what the visitor may do in it now."""

    match_id: str
    version: int
    phase: str
    turn: Side | None
    game: int
    crawford: bool
    match_length: int
    score_a: int
    score_b: int
    dice_mode: str
    dice: tuple[int, int] | None
    opening_roll: tuple[int, int] | None
    cube_value: int
    cube_owner: Side | None
    offered: int | None
    resigner: Side | None
    resignation: str | None
    winner: Side | None
    app_rules: bool
    voidable: bool
    """The latest roll may still be voided (G-DICE-2)."""
    void_asked_by: Side | None
    plays: tuple[str, ...]
    clocks: tuple[ClockView, ...]
    board: Markup
    acting: tuple[Side, ...]
    """The sides the visitor acts for: none for the public."""
    variant: str = "backgammon"
    """The match's variant (V-MATCH-VARIANT-1); ``tavli`` is the cycle of three."""
    game_variant: str = "backgammon"
    """The variant of the game in play (portes, plakoto or fevga in a Tavli match)."""
    cube_enabled: bool = True
    """rule V-CUBE-1: no cube, no cube form and no cube text when off."""
    games: tuple[FinishedGame, ...] = ()
    """The finished games with their variants (a Tavli match's cycle)."""

    @property
    def levels(self) -> tuple[str, ...]:
        """The resignation levels offered (V-RESIGN-1 in a variant)."""
        return LEVELS if self.variant == "backgammon" else VARIANT_LEVELS

    @property
    def is_over(self) -> bool:
        return self.phase == "match_over"

    @property
    def entered_dice(self) -> bool:
        return self.dice_mode == "entered"

    def may(self, action: Action, side: Side) -> bool:
        """Whether the page offers ``side``'s form for ``action`` to the visitor now."""
        if side not in self.acting or self.is_over:
            return False
        if action == "roll" and self.phase == "opening":
            # either player may cast the opening roll (one die each); a tablet shows one form
            return side == self.acting[0]
        if action == "void":
            # G-DICE-2: either side asks; the roll is voided when the other side asks too
            return self.voidable and self.void_asked_by != side
        if action == "resign":
            # either side may resign while a game is in play (G-RESIGN-1)
            return self.phase in ("roll", "move")
        due = self.turn == side
        return due and {
            "roll": self.phase == "roll",
            "double": self.phase == "roll" and self._may_double(side),
            "play": self.phase == "move",
            "take": self.phase == "cube",
            "drop": self.phase == "cube",
            "answer": self.phase == "resignation",
        }.get(action, False)

    def _may_double(self, side: Side) -> bool:
        """G-CUBE-1, G-CUBE-2: the cube is centred or the side's own, never in the Crawford
        game."""
        return self.cube_enabled and not self.crawford and self.cube_owner in (None, side)


def game_of(state: Match, now: datetime, acting: tuple[Side, ...], title: str) -> Game:
    """The match ``state`` as the table page shows it at ``now``."""
    preset = state.preset
    clocks: tuple[ClockView, ...] = ()
    if preset.is_timed:
        readings = {side: state.clock.read(preset, side, now) for side in SIDES}
        clocks = tuple(
            ClockView(side, r.reserve_ms, r.delay_ms, r.running, r.expired)
            for side, r in readings.items()
        )
    numbering: Side = state.turn or state.on_roll or "a"
    picture = BoardPicture(
        board_a=state.board_a,
        board_b=state.board_b,
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        dice=state.dice,
        numbering=numbering,
        title=title,
        offered=state.offered_value if state.phase == "cube" else None,
        cube_shown=state.cube_enabled,
    )
    board_variant = state.game_variant
    plays = tuple(cached_format_play(play) for play in state.plays())
    if board_variant is not None and state.variant_a:
        picture = variant_picture(picture, state, board_variant)
        plays = tuple(play.notation for play in state.variant_plays())
    return Game(
        match_id=str(state.id),
        version=state.version,
        phase=state.phase,
        turn=state.turn,
        game=state.game,
        crawford=state.crawford,
        match_length=state.match_length,
        score_a=state.score_a,
        score_b=state.score_b,
        dice_mode=state.dice_mode,
        dice=state.dice,
        opening_roll=state.opening_roll,
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        offered=state.offered_value if state.phase == "cube" else None,
        resigner=state.resigner,
        resignation=state.resignation,
        winner=state.winner,
        app_rules=state.rules == "app",
        voidable=_voidable(state),
        void_asked_by=state.latest_roll.void_asked_by if state.latest_roll else None,
        plays=plays,
        clocks=clocks,
        board=Markup(board_svg(picture)),  # built from numbers and escaped text
        acting=acting,
        variant=state.variant,
        game_variant=board_variant.value if board_variant else "backgammon",
        cube_enabled=state.cube_enabled,
        games=state.games,
    )


def variant_picture(picture: BoardPicture, state: Match, variant: Variant) -> BoardPicture:
    """A variant game's board (rules V-BOARD-1, V-BOARD-2): each side's checkers from its own
    numbering (index 0 its bar), the pins of Plakoto, and each side's way round the board."""

    def drawn(own: tuple[int, ...]) -> list[int]:
        return [*own[1:], own[0]]  # the picture's order: points 1..24, then the bar

    return replace(
        picture,
        board_a=drawn(state.variant_a),
        board_b=drawn(state.variant_b),
        same_direction=variant.same_direction,
        pinned_a=state.pinned_a,
        pinned_b=state.pinned_b,
        directions=True,
    )


def _voidable(state: Match) -> bool:
    try:
        voidable_roll(state)
    except RollNotVoidableError:
        return False
    return True
