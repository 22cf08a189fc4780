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

from api.table.board import BoardPicture, CubePicture, board_svg
from domain.match import SIDES, Match, Side
from domain.match.errors import RollNotVoidableError
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

    match: Match
    """The match state as it is: the page reads its phase, turn, score, dice, cube and finished
    games from it."""
    board: Markup
    plays: tuple[str, ...]
    clocks: tuple[ClockView, ...]
    acting: tuple[Side, ...]
    """The sides the visitor acts for: none for the public."""
    voidable: bool
    """The latest roll may still be voided (G-DICE-2)."""

    @property
    def offered(self) -> int | None:
        """A double awaiting its answer: the value the cube would take."""
        return _offered(self.match)

    @property
    def game_variant(self) -> str:
        """The variant of the game in play (portes, plakoto or fevga in a Tavli match)."""
        variant = self.match.game_variant
        return variant.value if variant else "backgammon"

    @property
    def levels(self) -> tuple[str, ...]:
        """The resignation levels offered (V-RESIGN-1 in a variant)."""
        return LEVELS if self.match.variant == "backgammon" else VARIANT_LEVELS

    @property
    def app_rules(self) -> bool:
        return self.match.rules == "app"

    @property
    def entered_dice(self) -> bool:
        return self.match.dice_mode == "entered"

    def may(self, action: Action, side: Side) -> bool:
        """Whether the page offers ``side``'s form for ``action`` to the visitor now."""
        state = self.match
        if side not in self.acting or state.is_over:
            return False
        if action == "roll" and state.phase == "opening":
            # either player may cast the opening roll (one die each); a tablet shows one form
            return side == self.acting[0]
        if action == "void":
            # G-DICE-2: either side asks; the roll is voided when the other side asks too
            latest = state.latest_roll
            return self.voidable and (latest.void_asked_by if latest else None) != side
        if action == "resign":
            # either side may resign while a game is in play (G-RESIGN-1)
            return state.phase in ("roll", "move")
        due = state.turn == side
        return due and {
            "roll": state.phase == "roll",
            "double": state.phase == "roll" and self._may_double(side),
            "play": state.phase == "move",
            "take": state.phase == "cube",
            "drop": state.phase == "cube",
            "answer": state.phase == "resignation",
        }.get(action, False)

    def _may_double(self, side: Side) -> bool:
        """G-CUBE-1, G-CUBE-2: the cube is centred or the side's own, never in the Crawford
        game."""
        state = self.match
        return state.cube_enabled and not state.crawford and state.cube_owner in (None, side)


def game_of(state: Match, now: datetime, acting: tuple[Side, ...], title: str) -> Game:
    """The match ``state`` as the table page shows it at ``now``."""
    picture = BoardPicture(
        board_a=state.board_a,
        board_b=state.board_b,
        cube=_cube(state),
        dice=state.dice,
        numbering=state.turn or state.on_roll or "a",  # the side on turn's, as its plays read
        title=title,
    )
    board_variant = state.game_variant
    plays = state.play_notations()
    if board_variant is not None and state.variant_a:
        picture = variant_picture(picture, state, board_variant)
        plays = tuple(play.notation for play in state.variant_plays())
    return Game(
        match=state,
        board=Markup(board_svg(picture)),  # built from numbers and escaped text
        plays=plays,
        clocks=_clocks(state, now),
        acting=acting,
        voidable=_voidable(state),
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


def _cube(state: Match) -> CubePicture | None:
    """rule V-CUBE-1: no cube on the board of a match played without it."""
    if not state.cube_enabled:
        return None
    return CubePicture(state.cube_value, state.cube_owner, _offered(state))


def _offered(state: Match) -> int | None:
    return state.offered_value if state.phase == "cube" else None


def _clocks(state: Match, now: datetime) -> tuple[ClockView, ...]:
    """Both sides' clocks read at ``now``; none for an untimed match."""
    preset = state.preset
    if not preset.is_timed:
        return ()
    readings = {side: state.clock.read(preset, side, now) for side in SIDES}
    return tuple(
        ClockView(side, r.reserve_ms, r.delay_ms, r.running, r.expired)
        for side, r in readings.items()
    )
