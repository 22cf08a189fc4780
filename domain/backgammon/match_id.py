"""GNU Backgammon's Match ID: the cube, score, dice and turn of a match as 12 characters."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from enum import IntEnum

MATCH_ID_LENGTH = 12
MAX_MATCH_LENGTH = 64
"""gnubg's MAXSCORE: it refuses a Match ID of a longer match."""
MAX_CUBE_VALUE = 1 << 15
"""The key holds log2 of the cube in 4 bits."""
MAX_SCORE = (1 << 15) - 1
"""Scores have 15 bits; a money session's running total can use all of them."""

_KEY_BYTES = 9
_USED_BITS = 67
_ALPHABET = re.compile(r"[A-Za-z0-9+/]*")


class InvalidMatchIdError(ValueError):
    """A Match ID, or a match state, that GNU Backgammon would not accept."""


class GameState(IntEnum):
    """Where the current game stands (gnubg's ``gamestate``)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class CubeOwner(IntEnum):
    """Who may double next; the values are the key's two bits (gnubg writes -1 as 11)."""

    PLAYER_0 = 0
    PLAYER_1 = 1
    CENTRED = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """Everything a Match ID records; players are 0 and 1, as in gnubg."""

    match_length: int
    """0 is a money session."""
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: CubeOwner = CubeOwner.CENTRED
    player_on_roll: int = 0
    """The player on roll, or who rolled the dice shown."""
    turn: int = 0
    """The player who must decide next: after a double or a resignation, the other one."""
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: int = 0
    """rule G-RESIGN-1: 0 none offered, 1 single, 2 gammon, 3 backgammon."""
    dice: tuple[int, int] = (0, 0)
    """(0, 0) before the roll; stored larger first, as gnubg writes them."""
    jacoby: bool = False
    """rule G-CUBE-3: the Jacoby rule is on for this money session."""

    def __post_init__(self) -> None:
        _validate(self)
        high, low = max(self.dice), min(self.dice)
        object.__setattr__(self, "dice", (high, low))

    @classmethod
    def from_match_id(cls, match_id: str) -> MatchState:
        """Decode a Match ID; raises ``InvalidMatchIdError`` where gnubg would refuse it."""
        try:
            return _decode(_key_from_match_id(match_id))
        except InvalidMatchIdError as error:
            raise InvalidMatchIdError(f"Match ID {match_id!r}: {error}") from None

    @property
    def match_id(self) -> str:
        """The 12-character Match ID gnubg shows for this state."""
        values = (
            self.cube_value.bit_length() - 1,
            self.cube_owner,
            self.player_on_roll,
            self.crawford,
            self.game_state,
            self.turn,
            self.double_offered,
            self.resignation,
            *self.dice,
            self.match_length,
            *self.score,
            not self.jacoby,  # gnubg stores "no Jacoby" so that old IDs (bit 66 = 0) mean on
        )
        key = sum(int(value) << start for value, (start, _) in zip(values, _LAYOUT, strict=True))
        return base64.b64encode(key.to_bytes(_KEY_BYTES, "little")).decode("ascii")

    @property
    def is_money_session(self) -> bool:
        """No match length: points are counted, not played to."""
        return self.match_length == 0


# (first bit, width) of each field in the key, little-endian from bit 0 (gnubg's matchid.c).
_LAYOUT = (
    (0, 4),  # log2 of the cube value
    (4, 2),  # cube owner
    (6, 1),  # player on roll
    (7, 1),  # Crawford game
    (8, 3),  # game state
    (11, 1),  # turn
    (12, 1),  # double offered
    (13, 2),  # resignation offered
    (15, 3),  # first die
    (18, 3),  # second die
    (21, 15),  # match length
    (36, 15),  # score of player 0
    (51, 15),  # score of player 1
    (66, 1),  # Jacoby rule off
)


_CUBE_OWNER_BITS = frozenset(owner.value for owner in CubeOwner)
_GAME_STATES = frozenset(state.value for state in GameState)


def _key_from_match_id(match_id: str) -> int:
    if not isinstance(match_id, str) or len(match_id) != MATCH_ID_LENGTH:
        length = len(match_id) if isinstance(match_id, str) else "no string"
        raise InvalidMatchIdError(f"a Match ID has {MATCH_ID_LENGTH} characters, got {length}")
    if not _ALPHABET.fullmatch(match_id):
        raise InvalidMatchIdError("a Match ID uses only the characters A-Z, a-z, 0-9, + and /")
    return int.from_bytes(base64.b64decode(match_id), "little")


def _decode(key: int) -> MatchState:
    (
        log_cube,
        owner,
        on_roll,
        crawford,
        state,
        turn,
        doubled,
        resignation,
        die_1,
        die_2,
        length,
        score_0,
        score_1,
        no_jacoby,
    ) = ((key >> start) & ((1 << width) - 1) for start, width in _LAYOUT)
    # gnubg never writes these; refusing them keeps one ID per state.
    if key >> _USED_BITS:
        raise InvalidMatchIdError(f"bits {_USED_BITS} to 71 are unused and must be 0")
    if owner not in _CUBE_OWNER_BITS:
        raise InvalidMatchIdError("cube owner bits 10 mean nobody (00, 01 or 11 for centred)")
    if state not in _GAME_STATES:
        raise InvalidMatchIdError(f"game state {state} is not one of 0 to 4")
    return MatchState(
        match_length=length,
        score=(score_0, score_1),
        cube_value=1 << log_cube,
        cube_owner=CubeOwner(owner),
        player_on_roll=on_roll,
        turn=turn,
        crawford=bool(crawford),
        game_state=GameState(state),
        double_offered=bool(doubled),
        resignation=resignation,
        dice=(die_1, die_2),
        jacoby=not no_jacoby,
    )


def _validate(state: MatchState) -> None:
    cube = state.cube_value
    if not _is_int(cube) or not 1 <= cube <= MAX_CUBE_VALUE or cube & (cube - 1):
        raise InvalidMatchIdError(f"cube value {cube!r} is not a power of 2 from 1 to 32768")
    if not isinstance(state.cube_owner, CubeOwner):
        raise InvalidMatchIdError(f"cube owner {state.cube_owner!r} is not a CubeOwner")
    if not isinstance(state.game_state, GameState):
        raise InvalidMatchIdError(f"game state {state.game_state!r} is not a GameState")
    for name, player in (("player_on_roll", state.player_on_roll), ("turn", state.turn)):
        if not _is_int(player) or player not in (0, 1):
            raise InvalidMatchIdError(f"{name} is player 0 or 1, got {player!r}")
    flags = (
        ("crawford", state.crawford),
        ("double_offered", state.double_offered),
        ("jacoby", state.jacoby),
    )
    for name, flag in flags:
        if not isinstance(flag, bool):
            raise InvalidMatchIdError(f"{name} is True or False, got {flag!r}")
    if not _is_int(state.resignation) or not 0 <= state.resignation <= 3:
        raise InvalidMatchIdError(
            f"resignation is 0 (none), 1, 2 or 3 (single to backgammon), got {state.resignation!r}"
        )
    _validate_dice(state.dice)
    _validate_score(state)


def _validate_dice(dice: tuple[int, int]) -> None:
    if not isinstance(dice, tuple) or len(dice) != 2:
        raise InvalidMatchIdError(f"dice are two values, got {dice!r}")
    if not all(_is_int(die) and 0 <= die <= 6 for die in dice):
        raise InvalidMatchIdError(f"dice {dice!r}: each die is 0 (not rolled) or 1 to 6")
    if (dice[0] == 0) != (dice[1] == 0):
        raise InvalidMatchIdError(f"dice {dice!r}: both dice are rolled, or neither")


def _validate_score(state: MatchState) -> None:
    length = state.match_length
    if not _is_int(length) or not 0 <= length <= MAX_MATCH_LENGTH:
        raise InvalidMatchIdError(
            f"match length {length!r} is not 0 (money) to {MAX_MATCH_LENGTH}, gnubg's longest"
        )
    score = state.score
    if not isinstance(score, tuple) or len(score) != 2:
        raise InvalidMatchIdError(f"a score is two values, got {score!r}")
    for player, points in enumerate(score):
        if not _is_int(points) or not 0 <= points <= MAX_SCORE:
            raise InvalidMatchIdError(
                f"score of player {player} is {points!r}, not 0 to {MAX_SCORE}"
            )
        # rule G-CUBE-2: a match ends on reaching its length, so gnubg writes at most the
        # length itself (at the end of the match) and refuses more.
        if length and points > length:
            raise InvalidMatchIdError(
                f"score of player {player} is {points}, more than the match length {length}"
            )
    # rule G-CUBE-2, G-CUBE-3: the Crawford rule is a match rule.
    if not length and state.crawford:
        raise InvalidMatchIdError("a money session (match length 0) has no Crawford game")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
