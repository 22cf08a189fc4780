"""A match as text for the terminal (``bgtd replay``): its story and a gnubg-like ASCII board."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, tzinfo
from uuid import UUID

from api.schemas import DirectorActor, stream_events
from domain.backgammon.position import Side as Checkers
from domain.events import DomainEvent
from domain.match import Match, Side

CHECKERS = 15
ROWS = 5
"""Checkers drawn per point; a taller stack shows its count in the last row."""
TOP = tuple(range(13, 25))
BOTTOM = tuple(range(12, 0, -1))


def story(
    events: Iterable[DomainEvent],
    zone: tzinfo,
    *,
    players: Mapping[str, str] | None = None,
    director_names: Mapping[UUID, str] | None = None,
) -> list[str]:
    """One line per event: version, local time, who, type and its facts.

    Who is told by name: ``players`` names the actors of the match's sides (``player_names``),
    ``director_names`` the named directors; any other actor as the event records it.
    """
    lines = []
    for event in stream_events(events, director_names):
        facts = " ".join(f"{key}={_fact(value)}" for key, value in event.data.items())
        when = event.timestamp.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")
        actor = event.actor
        if isinstance(actor, DirectorActor):
            actor = actor.name
        elif actor is not None:
            actor = (players or {}).get(actor, actor)
        lines.append(f"{event.version:>4} {when} {actor or '-':<16} {event.type} {facts}")
    return lines


def player_names(state: Match) -> dict[str, str]:
    """The actors of the match's two sides (``player:<id>`` in a tournament's match) by the
    names the match shows: the pseudonym once a player's data is erased."""
    sides: tuple[Side, Side] = ("a", "b")
    return {state.actor(side): state.player(side) for side in sides}


def board(state: Match, at: datetime) -> list[str]:
    """The board from side a's side (X = side a, O = side b), with score, cube, dice, clocks
    and the gnubg Position ID and Match ID."""
    points = {p: _point(state.board_a, state.board_b, p) for p in range(1, 25)}
    border = (
        " +"
        + "-".join(f"{p:>2}" for p in TOP[:6])
        + "-----"
        + "-".join(f"{p:>2}" for p in TOP[6:])
        + "-+"
    )
    lines = [
        f" O: {state.player_b}  score {state.score_b}"
        + ("  (on roll)" if state.on_roll == "b" else ""),
        border,
    ]
    for row in range(ROWS):
        lines.append(_row(points, TOP, row, state.board_b[24], "O"))
    lines.append(" |" + " " * 18 + "|BAR|" + " " * 18 + "|")
    for row in reversed(range(ROWS)):
        lines.append(_row(points, BOTTOM, row, state.board_a[24], "X"))
    lines.append(
        " +" + "-".join(f"{p:>2}" for p in BOTTOM[:6]) + "-----"
        + "-".join(f"{p:>2}" for p in BOTTOM[6:]) + "-+"
    )  # fmt: skip
    lines.append(
        f" X: {state.player_a}  score {state.score_a}"
        + ("  (on roll)" if state.on_roll == "a" else "")
    )
    off_a, off_b = CHECKERS - sum(state.board_a), CHECKERS - sum(state.board_b)
    owner = {"a": "X", "b": "O", None: "centred"}[state.cube_owner]
    dice = "-".join(str(d) for d in state.dice) if state.dice else "none"
    lines.append(
        f" game {state.game}  match to {state.match_length}  phase {state.phase}  "
        f"cube {state.cube_value} ({owner})  dice {dice}  off X {off_a} O {off_b}"
    )
    if state.preset.is_timed:
        readings = []
        for side in ("a", "b"):
            reading = state.clock.read(state.preset, side, at)
            readings.append(
                f"{'X' if side == 'a' else 'O'} {reading.reserve_ms / 1000:.1f} s"
                + (" running" if reading.running else "")
                + (" EXPIRED" if reading.expired else "")
            )
        lines.append(f" clock {state.clock_preset}: " + ", ".join(readings))
    lines.append(f" Position ID: {state.position.position_id}  Match ID: {state.match_id}")
    return lines


def _point(board_a: Checkers, board_b: Checkers, point: int) -> tuple[str, int]:
    """Side a's point ``point``: who holds it and how many (side b counts from its side)."""
    if board_a[point - 1]:
        return "X", board_a[point - 1]
    if board_b[24 - point]:
        return "O", board_b[24 - point]
    return " ", 0


def _row(
    points: dict[int, tuple[str, int]], order: tuple[int, ...], row: int, bar: int, mark: str
) -> str:
    cells = [_cell(*points[p], row) for p in order]
    middle = _cell(mark, bar, row) if bar else "   "
    return " |" + "".join(cells[:6]) + "|" + middle + "|" + "".join(cells[6:]) + "|"


def _cell(mark: str, count: int, row: int) -> str:
    if count > ROWS and row == ROWS - 1:
        return f"{count:>2} "
    return f" {mark} " if row < count else "   "


def _fact(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(_fact(item) for item in value)
    return str(value)
