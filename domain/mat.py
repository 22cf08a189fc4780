"""A recorded match as a ``.mat`` text file (Jellyfish format) that GNU Backgammon imports.

Written the way gnubg's own ``export match mat`` writes it, and read back by its importer
(``import.c``: ``ImportGame``, ``ParseMatMove``):

- `` N point match`` (0 for a money session), then per game `` Game n`` and the score line
  ``name_a : score   name_b : score`` with the scores at the start of the game, penalty points
  included (rule C-BREAK-2; see ``_Game.score``);
- numbered lines with side a's action in the left column (28 characters) and side b's in the
  right; an action is a roll and its moves die by die (``52: 13/8 24/22*``, the bar 25, off 0,
  nothing after the colon when the roll cannot be played), `` Doubles => 4``, `` Takes``,
  `` Drops``, `` Beavers => 8``, `` Raccoons => 16``;
- ``Wins n point(s)`` in the winner's column ends a game; gnubg reads a game that ends neither
  by bearing off nor by a drop as a resignation worth those points. A match lost on time (club
  clock, G-CLOCK-1) ends its game so: the winner wins the points still missing to the length
  (gnubg counts a resignation as at most a backgammon, so its own score may stay short).

Opening-roll ties, rejected resignations and clock readings have no place in the format and
are left out; the event stream keeps them, as it keeps the game a money session was closed in
before anyone moved in it. So are voided rolls (rule G-DICE-2): a roll is written only with
the play made from it, and a voided roll that passed the turn (rule G-MAX-1) takes its empty
line with it; gnubg reads the file as if the roll had never been cast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import tzinfo
from uuid import UUID

from domain.events import DomainEvent
from domain.match import (
    CheckersPlayed,
    CubeAction,
    CubeBeavered,
    CubeDropped,
    CubeOffered,
    CubeRaccooned,
    CubeTaken,
    GameStarted,
    GameWon,
    MatchStarted,
    MatchWon,
    PenaltyAwarded,
    PenaltyChanged,
    RollVoided,
    Side,
    TurnPassed,
    other,
)

LEFT_WIDTH = 28
"""Width of side a's column after the move number (gnubg writes ``"%-27s "``)."""
NAME_BYTES = 31
"""gnubg keeps at most 31 bytes of a name (``MAX_NAME_LEN`` - 1)."""
_NAME_BREAKS = re.compile(r":|,(?=\s*\+?\d)")
"""What gnubg's importer reads as the end of a name in the score line: the colon before the
score, and a comma before a number (a rating, as GridGammon writes it)."""
_CUBE_ACTIONS: Mapping[type[CubeAction], str] = {
    CubeOffered: " Doubles => {value}",
    CubeTaken: " Takes",
    CubeDropped: " Drops",
    CubeBeavered: " Beavers => {value}",
    CubeRaccooned: " Raccoons => {value}",
}
"""Each cube action as gnubg writes it in its side's column, with the cube value it names."""


def mat_name(name: str) -> str:
    """The player's name as gnubg's importer reads it back from the score line: spaces and
    letters beyond ASCII as they are, without colons or a comma before a number (read as the
    end of the name), cut to ``NAME_BYTES`` bytes of UTF-8 at a character's end."""
    words = " ".join(_NAME_BREAKS.sub(" ", name).split())
    cut = words.encode(errors="replace")[:NAME_BYTES].decode(errors="ignore").rstrip()
    return cut or "player"


def _roll(dice: tuple[int, int]) -> str:
    return f"{max(dice)}{min(dice)}:"


def _moves(moves: Iterable[tuple[int, int, bool]]) -> str:
    return " ".join(f"{source}/{target}{'*' if hit else ''}" for source, target, hit in moves)


class _Game:
    """The numbered lines of one game, filled column by column."""

    def __init__(
        self, number: int, names: tuple[str, str], score: tuple[int, int], length: int
    ) -> None:
        self.number = number
        self.names = names
        self.started_at = score
        self.penalty_points = [0, 0]
        self.length = length
        self.lines: list[str] = []
        self.left: str | None = None
        self.count = 0

    def add_penalty_points(self, side: str, points: int) -> None:
        """rule C-BREAK-2: penalty points for ``side`` (negative: a penalty waived or lowered)
        awarded before or while this game was played."""
        self.penalty_points[0 if side == "a" else 1] += points

    @property
    def score(self) -> tuple[int, int]:
        """The score the game is played at, as its header gives it: the score at its start
        with the penalty points awarded before its first roll or during it (rule C-BREAK-2:
        they count in the match score). The format has no score change within a game, and
        gnubg counts a match's score from the last game's header and its result, so that is
        where they count; the header's notes say when they were awarded. Below the match
        length: gnubg skips a game whose header shows the match won, so a match decided by
        penalty points ends with a result line for the rest (see ``format_mat``)."""
        a = self.started_at[0] + self.penalty_points[0]
        b = self.started_at[1] + self.penalty_points[1]
        if self.length:
            a, b = min(a, self.length - 1), min(b, self.length - 1)
        return a, b

    @property
    def header(self) -> list[str]:
        (name_a, name_b), (score_a, score_b) = self.names, self.score
        # at least one space before side b's name: the importer reads side a's score up to it
        return [f" Game {self.number}", f"{f' {name_a} : {score_a}':<31} {name_b} : {score_b}"]

    def action(self, side: str, text: str) -> None:
        if side == "a":
            self.flush()
            self.left = text
            return
        self.count += 1
        left = self.left or ""
        if len(left) >= LEFT_WIDTH:
            left += " "  # the importer needs a separator before the right column
        self.lines.append(f"{self.count:3d}) {left:<{LEFT_WIDTH}}{text}")
        self.left = None

    def flush(self) -> None:
        if self.left is not None:
            self.count += 1
            # Padded as gnubg pads it: its importer misreads a short line ("  3)  Drops").
            self.lines.append(f"{self.count:3d}) {self.left:<{LEFT_WIDTH}}")
            self.left = None

    @property
    def is_empty(self) -> bool:
        """Nothing recorded yet (a money session closed right after a game ended)."""
        return not self.lines and self.left is None

    def wins(self, side: str, points: int, *, match: bool) -> None:
        self.flush()
        text = f"Wins {points} point{'s' if points != 1 else ''}"
        if match:
            text += " and the match"
        indent = 6 if side == "a" else 5 + LEFT_WIDTH + 1
        self.lines.append(" " * indent + text)


def format_mat(events: Iterable[DomainEvent], zone: tzinfo) -> str:
    """The match recorded by ``events`` (in version order) as a ``.mat`` file; its date is the
    club's local date in ``zone`` (rule CAL-3)."""
    out: list[str] = []
    name_a = name_b = "player"
    length = 0
    game: _Game | None = None
    pending_win: GameWon | None = None

    def close_game(won: MatchWon | None = None) -> None:
        nonlocal game, pending_win
        if game is not None:
            if pending_win is not None:
                game.wins(pending_win.winner, pending_win.points, match=won is not None)
            elif won is not None:
                # decided early (rule T-FMT-7): the rest of the match goes to the winner
                missing = length - game.score[0 if won.winner == "a" else 1]
                game.wins(won.winner, max(missing, 1), match=True)
            game.flush()
            if not game.is_empty:
                out.extend([*game.header, *game.lines, ""])
        game, pending_win = None, None

    notes: list[str] = []
    penalties: dict[UUID, tuple[Side, int]] = {}  # each penalty's side and points as they stand
    recorded = list(events)
    # rule G-DICE-2: a voided roll is not written; one that passed the turn left a pass line
    voided = {event.roll_version for event in recorded if isinstance(event, RollVoided)}
    for event in recorded:
        # rule C-BREAK-2: penalty points go to the opponent's score, from the header of the
        # game they were awarded in (``_Game.score``); noted in the file's tags, which gnubg
        # keeps as the match's comment
        if isinstance(event, PenaltyAwarded | PenaltyChanged):
            if isinstance(event, PenaltyAwarded):
                side, change, verb = event.side, event.points, "awarded"
            else:
                side, before = penalties[event.penalty_id]
                change, verb = event.points - before, "changed to"
            penalties[event.penalty_id] = (side, event.points)
            if game is not None:
                game.add_penalty_points(other(side), change)
            notes.append(_penalty_note(verb, event.points, side, name_a, name_b))
            continue
        if isinstance(event, MatchStarted):
            name_a, name_b = mat_name(event.player_a), mat_name(event.player_b)
            length = event.match_length
            day = event.timestamp.astimezone(zone).strftime("%Y.%m.%d")
            out.extend(
                [
                    '; [Site "bgtd"]',
                    f'; [Player 1 "{name_a}"]',
                    f'; [Player 2 "{name_b}"]',
                    f'; [EventDate "{day}"]',
                    "",
                    f" {length} point match",
                    "",
                ]
            )
        elif isinstance(event, GameStarted):
            close_game()
            game = _Game(event.game, (name_a, name_b), (event.score_a, event.score_b), length)
        elif game is None:
            continue
        elif isinstance(event, CheckersPlayed):
            game.action(event.side, f"{_roll(event.dice)} {_moves(event.moves)}")
        elif isinstance(event, TurnPassed):
            if event.originator_version - 1 not in voided:  # its roll is the event before
                game.action(event.side, _roll(event.dice))
        elif isinstance(event, CubeAction):
            game.action(event.side, _CUBE_ACTIONS[type(event)].format(value=event.value))
        elif isinstance(event, GameWon):
            pending_win = event
        elif isinstance(event, MatchWon):
            close_game(event)
    close_game()
    if notes:
        header_end = out.index("")  # the blank line after the header's tags
        out[header_end:header_end] = notes
    return "\n".join(out) + "\n"


def _penalty_note(verb: str, points: int, side: str, name_a: str, name_b: str) -> str:
    penalised, opponent = (name_a, name_b) if side == "a" else (name_b, name_a)
    return f'; [Note "Penalty on {penalised} {verb} {points} point(s) for {opponent}"]'
