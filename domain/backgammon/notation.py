"""GNU Backgammon's move notation: a play as gnubg writes it, and text read back into a play.

Points are numbered from the mover's side, as in ``plays.py``: 1..24, ``bar`` (25) and ``off``
(0). gnubg (``FormatMove`` in ``drawboard.c``) writes a play like this, checked against
gnubg 1.07's ``hint`` output and game records:

- one part per checker, ``source/destination``: ``24/18 13/8``, ``bar/22``, ``6/off``;
- a checker that moves with more than one die shows only where it started and ended
  (``24/13``), unless it hit on the way: then every point where it hit is written with its
  ``*`` (``24/18*/13``, ``bar/22*/16``); a hit where a checker ends is marked too (``13/7*``),
  once per point even when more checkers land there (``13/7*(2)``, ``8/2* 6/2``);
- identical parts are written once with their count: ``13/7(2) 8/2(2)``;
- parts in decreasing order of source point, then of destination point;
- the empty play (no legal move, rule G-MAX-1) is the empty string: gnubg's ``hint`` says
  "There are no legal moves." and its game record "cannot move", but the notation itself is
  empty, as in its match files (``66:`` with nothing after it).

``parse_play`` reads that notation and its common variants (``24/18 18/13``, ``25/22``,
``6/0``, ``Bar``/``OFF``, missing ``*``) and returns the one legal play it describes, rule
G-LEGAL-1: anything else is rejected with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from domain.backgammon.plays import (
    BAR_POINT,
    OFF,
    TOURNAMENT_RULES,
    Dice,
    IllegalPlayError,
    Move,
    Play,
    RulesOptions,
    legal_plays,
    validate_dice,
)
from domain.backgammon.position import BAR, Position, Side


class NotationError(ValueError):
    """Text that is not move notation; the message names the offending token."""


class AmbiguousPlayError(NotationError):
    """Notation that fits more than one legal play; the message lists them."""


# --- formatting -----------------------------------------------------------------------------


POINT_NAMES = ("off", *(str(point) for point in range(1, BAR_POINT)), "bar")
"""A point's name in the notation, by its number: ``off`` (0), ``1`` .. ``24``, ``bar`` (25)."""


def format_play(play: Play | Iterable[Move]) -> str:
    """The play in GNU Backgammon's notation; the empty play formats as ``""``."""
    moves = play.moves if isinstance(play, Play) else tuple(play)
    # Points that held an opposing blot before the play: the moves that landed there first hit.
    blots = {destination for _, destination, hit in moves if hit}
    # by source, then destination, descending (moves alike but for the hit give equal chains)
    chains: list[list[int] | None] = [
        [source, destination] for source, destination, _ in sorted(moves, reverse=True)
    ]
    # Join a checker's moves: a later move that starts where a chain ends continues it (gnubg
    # joins in this greedy order, so ``8/4 6/4`` rather than ``8/6 6/4(2)``); the point in
    # between stays only where the checker hit.
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            follow_up = chains[j]
            if follow_up is None or chain[-1] != follow_up[0]:
                continue
            if chain[-1] in blots:
                chain.append(follow_up[1])
            else:
                chain[-1] = follow_up[1]
            chains[j] = None
    counts: dict[tuple[int, ...], int] = {}  # a plain dict: Counter costs a third of the time
    for chain in chains:
        if chain is not None:
            path = tuple(chain)
            counts[path] = counts.get(path, 0) + 1
    marked: set[int] = set()
    parts = []
    for path, count in counts.items():  # insertion order is gnubg's order
        source, *hit_on_the_way, destination = path
        text = POINT_NAMES[source]
        for point in hit_on_the_way:
            text += f"/{POINT_NAMES[point]}*"
            marked.add(point)
        text += "/" + POINT_NAMES[destination]
        if destination in blots and destination not in marked:
            text += "*"
            marked.add(destination)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


# --- reading --------------------------------------------------------------------------------

_TOKEN = re.compile(r"(\d+)|([A-Za-z]+)|(\(\s*\d+\s*\))|(\S)")
_WORDS = {"bar": BAR_POINT, "off": OFF}
_MOST_CHECKERS_MOVED = 4


@dataclass(frozen=True, slots=True)
class _Part:
    """One written part: a checker's points from source to destination, maybe repeated."""

    text: str
    points: tuple[int, ...]
    marked: frozenset[int]
    count: int

    @property
    def segments(self) -> list[tuple[int, int]]:
        legs = list(zip(self.points, self.points[1:], strict=False))
        return legs * self.count


@dataclass(slots=True)
class _PartReader:
    """Reads ``point ('/' point '*'?)+ ('(' count ')')?`` parts, separated by spaces or commas."""

    text: str
    parts: list[_Part]
    points: list[int]
    marked: set[int]
    start: int = 0
    slash: bool = False
    """The last token was a '/': a point must follow."""

    def error(self, token: str, column: int, problem: str) -> NotationError:
        return NotationError(f"{self.text!r}: {token!r} at column {column + 1} {problem}")

    def point(self, point: int, column: int) -> None:
        if self.points and not self.slash:
            self.close(column)
        if not self.points:
            self.start = column
        self.points.append(point)
        self.slash = False

    def close(self, end: int, count: int = 1) -> None:
        written = self.text[self.start : end].strip()
        if self.slash:
            raise NotationError(f"{self.text!r}: {written!r} ends with '/', a point must follow")
        if len(self.points) < 2:
            raise NotationError(f"{self.text!r}: {written!r} is not a move (write source/target)")
        part = _Part(written, tuple(self.points), frozenset(self.marked), count)
        _check_part(self.text, part)
        self.parts.append(part)
        self.points.clear()
        self.marked.clear()


def _read_parts(text: str) -> list[_Part]:
    """Split notation into parts; raises NotationError naming the first wrong token."""
    reader = _PartReader(text, [], [], set())
    for match in _TOKEN.finditer(text):
        token, column = match.group(), match.start()
        number, word, count, other = match.groups()
        if number is not None:
            if len(number.lstrip("0")) > 2 or int(number) > BAR_POINT:
                raise reader.error(token, column, "is not a point (0-25, bar or off)")
            reader.point(int(number), column)
        elif word is not None:
            if word.lower() not in _WORDS:
                raise reader.error(token, column, "is not a point (1-24, bar or off)")
            reader.point(_WORDS[word.lower()], column)
        elif count is not None:
            if len(reader.points) < 2 or reader.slash:
                raise reader.error(token, column, "follows no move")
            times = int(count[1:-1]) if len(count) < 10 else 0
            if not 1 <= times <= _MOST_CHECKERS_MOVED:
                raise reader.error(token, column, "is not a count of 1 to 4 checkers")
            reader.close(match.end(), times)
        elif other == "/":
            if not reader.points or reader.slash:
                raise reader.error(token, column, "follows no point")
            reader.slash = True
        elif other == "*":
            if len(reader.points) < 2 or reader.slash:
                raise reader.error(token, column, "marks a hit but follows no target point")
            reader.marked.add(reader.points[-1])
        elif other == ",":
            if reader.points:
                reader.close(column)
        else:
            raise reader.error(token, column, "is not part of move notation")
    if reader.points or reader.slash:
        reader.close(len(text))
    return reader.parts


def _check_part(text: str, part: _Part) -> None:
    source, *rest = part.points
    if source == OFF:
        raise NotationError(f"{text!r}: {part.text!r} starts from off; a move starts on the board")
    if BAR_POINT in rest:
        raise NotationError(f"{text!r}: {part.text!r} moves onto the bar; only hits go there")
    if OFF in rest[:-1]:
        raise NotationError(f"{text!r}: {part.text!r} goes on after bearing off")
    if OFF in part.marked:
        raise NotationError(f"{text!r}: {part.text!r} marks a hit off the board")


def parse_play(
    text: str,
    position: Position,
    dice: Iterable[int],
    options: RulesOptions = TOURNAMENT_RULES,
) -> Play:
    """The one legal play that ``text`` describes (rule G-LEGAL-1).

    The text is matched by where its checkers end up. A checker written with more than one die
    (``24/13`` with 6-5) may take either route; following gnubg, a route that hits on a point
    the text leaves out is only chosen when no route without such a hit is legal (``24/13``
    is the quiet route when ``24/18*/13`` also exists). Raises ``NotationError`` for text that
    is not notation, ``AmbiguousPlayError`` when it fits several plays, and
    ``IllegalPlayError`` with a reason when it fits none.
    """
    rolled = validate_dice(dice)
    parts = _read_parts(text)
    plays = legal_plays(position, rolled, options)
    context = f"{' '.join(part.text for part in parts) or 'no move'} with {format_dice(rolled)}"
    if not parts:
        if plays:
            raise IllegalPlayError(f"{context}: the roll can be played, so it must be (G-MAX-1)")
        return Play((), Position.trusted(position.opponent, position.on_roll))
    if not plays:
        raise IllegalPlayError(f"{context}: no checker can move, the turn passes (G-MAX-1)")
    return _Reading(position, rolled, options, parts, context).resolve(plays)


def format_dice(dice: Dice) -> str:
    """A roll as the messages write it: ``6-2``."""
    return f"{dice[0]}-{dice[1]}"


@dataclass(frozen=True, slots=True)
class _Route:
    """One way to play the text's segments die by die: the dice used and the points hit."""

    dice: tuple[int, ...]
    hits: frozenset[int]
    overshoots: tuple[tuple[int, int], ...]
    """Bear-offs with a die larger than the point: (source, die)."""
    blocked: frozenset[int]
    """Points it would land on that the opponent holds: such a route cannot be played."""


class _Reading:
    """The checker movements a text describes, checked against the position and the dice."""

    def __init__(
        self,
        position: Position,
        dice: Dice,
        options: RulesOptions,
        parts: list[_Part],
        context: str,
    ) -> None:
        self.position = position
        self.dice = dice
        self.parts = parts
        self.context = context
        self.options = options
        self.segments = [segment for part in parts for segment in part.segments]
        self.written = {point for part in parts for point in part.points[1:] if point != OFF}

    def fail(self, reason: str) -> IllegalPlayError:
        return IllegalPlayError(f"{self.context}: {reason}")

    def opposing(self, point: int) -> int:
        """Opposing checkers on the mover's ``point`` (1..24)."""
        return self.position.opponent[24 - point]

    def resolve(self, plays: tuple[Play, ...]) -> Play:
        for source, destination in self.segments:
            if destination >= source:
                raise self.fail(
                    f"{POINT_NAMES[source]}/{POINT_NAMES[destination]} does not move toward "
                    "home: checkers move from higher to lower points"
                )
        mover = self.mover_after()
        for part in self.parts:
            for point in sorted(part.marked, reverse=True):
                if self.opposing(point) != 1:
                    raise self.fail(f"'*' on {point}, but there is no blot on {point} to hit")
        every_route = list(self.routes())
        routes = [route for route in every_route if not route.blocked]
        by_position = {play.position: play for play in plays}
        quiet = {self.after(mover, route) for route in routes if route.hits <= self.written}
        found = [by_position[after] for after in quiet if after in by_position]
        if not found:
            candidates = {self.after(mover, route) for route in routes}
            found = [by_position[after] for after in candidates if after in by_position]
        if len(found) == 1:
            return found[0]
        if found:
            listed = " or ".join(sorted(format_play(play) for play in found))
            raise AmbiguousPlayError(f"{self.context} is ambiguous: {listed}")
        raise self.fail(self.reason(mover, every_route, plays))

    def mover_after(self) -> Side:
        """The mover's side after the segments, whichever route each checker takes."""
        side = list(self.position.on_roll)
        for source, destination in self.segments:
            side[source - 1] -= 1
            if destination != OFF:
                side[destination - 1] += 1
        for index, count in enumerate(side):
            if count < 0:
                point = "the bar" if index == BAR else str(index + 1)
                there = self.position.on_roll[index]
                raise self.fail(
                    f"moves {there - count} checkers from {point}, which holds {there}"
                    if there
                    else f"there is no checker on {point} to move"
                )
        return tuple(side)

    def after(self, mover: Side, route: _Route) -> Position:
        theirs = list(self.position.opponent)
        for point in route.hits:
            theirs[24 - point] = 0
        theirs[BAR] += len(route.hits)
        return Position.trusted(tuple(theirs), mover)

    def routes(self) -> Iterator[_Route]:
        """Every way to play the segments with the dice, each die used once at most."""

        def extend(index: int, left: tuple[int, ...], route: _Route) -> Iterator[_Route]:
            if index == len(self.segments):
                yield route
                return
            source, destination = self.segments[index]
            for used, rest in _dice_sequences(left):
                steps = _steps(source, destination, used)
                if steps is None:
                    continue
                landings = [target for _, target, _ in steps if target != OFF]
                blocked = {point for point in landings if self.opposing(point) >= 2}
                hits = {point for point in landings if self.opposing(point) == 1}
                overshoots = tuple(
                    (start, die) for start, target, die in steps if target == OFF and die > start
                )
                yield from extend(
                    index + 1,
                    rest,
                    _Route(
                        route.dice + used,
                        route.hits | hits,
                        route.overshoots + overshoots,
                        route.blocked | blocked,
                    ),
                )

        return extend(0, _pool(self.dice), _Route((), frozenset(), (), frozenset()))

    def reason(self, mover: Side, every_route: list[_Route], plays: tuple[Play, ...]) -> str:
        """The most specific reason, cheaply found, why no legal play fits the text."""
        start = self.position.on_roll
        entering = sum(1 for source, _ in self.segments if source == BAR_POINT)
        if entering < start[BAR] and any(source != BAR_POINT for source, _ in self.segments):
            return "a checker on the bar must enter before any other checker moves (G-BAR-1)"
        bears_off = any(destination == OFF for _, destination in self.segments)
        if bears_off and any(mover[6:]):
            return "no bearing off while a checker is outside the home board (G-OFF-1)"
        if not every_route:
            for source, destination in self.segments:
                if not _is_move_of(source, destination, self.dice):
                    move = f"{POINT_NAMES[source]}/{POINT_NAMES[destination]}"
                    return f"{move} is not a move of {format_dice(self.dice)}"
            return f"more moves than {format_dice(self.dice)} allows"
        routes = [route for route in every_route if not route.blocked]
        if not routes:
            blocked = sorted(set().union(*(route.blocked for route in every_route)))
            if len(blocked) == 1:
                return f"point {blocked[0]} is blocked (G-MOVE-2)"
            listed = ", ".join(map(str, blocked[:-1])) + f" and {blocked[-1]}"
            return f"points {listed} are blocked (G-MOVE-2)"
        # rule G-OFF-1: a checker still on a higher point was there when the die bore off.
        wasteful = [
            [(source, die) for source, die in route.overshoots if any(mover[source:6])]
            for route in routes
        ]
        clean = [route for route, waste in zip(routes, wasteful, strict=True) if not waste]
        if not clean:
            source, die = wasteful[0][0]
            return (
                f"a {die} bears off from {source} only with no checker on a higher point (G-OFF-1)"
            )
        high, low = max(self.dice), min(self.dice)
        needed = len(plays[0].moves)
        if max(len(route.dice) for route in clean) < needed:
            if high != low:
                return "both dice must be played (G-MAX-1)"
            if needed == 4:
                return f"all four {high}s must be played (G-MAX-1)"
            return f"{needed} of the four {high}s can be played, so they must be (G-MAX-1)"
        if needed == 1 and high != low and all(route.dice == (low,) for route in clean):
            return f"only one die can be played, so it must be the larger, {high} (G-MAX-1)"
        if self.options.minimise_bear_off_waste:
            plain = {play.position for play in legal_plays(self.position, self.dice)}
            if any(self.after(mover, route) in plain for route in clean):
                return "another play bears off wasting fewer pips (G-OFF-2)"
        return f"not a legal play of {format_dice(self.dice)}"


def _dice_sequences(pool: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each distinct non-empty ordered choice of dice from the pool, with the dice left over."""
    seen: set[int] = set()
    for index, die in enumerate(pool):
        if die in seen:
            continue
        seen.add(die)
        rest = pool[:index] + pool[index + 1 :]
        yield (die,), rest
        for more, left in _dice_sequences(rest):
            yield (die, *more), left


def _steps(
    source: int, destination: int, dice: tuple[int, ...]
) -> list[tuple[int, int, int]] | None:
    """The single-die steps (source, target, die) from source to destination, if they fit."""
    steps = []
    point = source
    for number, die in enumerate(dice, start=1):
        target = point - die
        last = number == len(dice)
        if target <= OFF and not (last and destination == OFF):
            return None
        if target < destination and destination != OFF:
            return None
        steps.append((point, max(target, OFF), die))
        point = max(target, OFF)
    return steps if point == destination else None


def _is_move_of(source: int, destination: int, dice: Dice) -> bool:
    return any(_steps(source, destination, used) for used, _ in _dice_sequences(_pool(dice)))


def _pool(dice: Dice) -> tuple[int, ...]:
    """The dice to play, larger first: doubles four times (rule G-MOVE-1)."""
    high, low = max(dice), min(dice)
    return (high,) * 4 if high == low else (high, low)
