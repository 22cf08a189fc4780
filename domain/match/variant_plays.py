"""Which legal play of a variant game a player means: by notation or by the board after it
(API.md "Matches and tournaments: variants")."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from typing import NamedTuple

from domain.backgammon import Position
from domain.backgammon.notation import format_dice
from domain.errors import InvalidInputError
from domain.match.errors import IllegalPlayRejectedError
from domain.match.events import MAX_PLAY_LENGTH
from domain.match.state import Match
from domain.variants import (
    BAR,
    OFF,
    InvalidVariantBoardError,
    Variant,
    VariantBoard,
    VariantPlay,
)

_STEP = re.compile(r"^(bar|\d{1,2})((?:/(?:off|\d{1,2})\*?)+)(?:\((\d)\))?$")
_POINT_ID_VARIANTS = frozenset({Variant.PORTES, Variant.TAVLA})


class GivenBoard(NamedTuple):
    """The board after a play as a client sends it (the opponent on roll, each side in its
    own numbering); checked against the game's variant."""

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]
    pinned: tuple[tuple[int, ...], tuple[int, ...]] | None = None


def chosen_variant_play(
    state: Match,
    notation: str | None,
    position_id: str | None,
    given: GivenBoard | None,
) -> VariantPlay:
    """The legal play named by ``notation`` (single-die steps in any playable order, or the
    combined forms ``24/18/13`` and ``13/7(2)``) or by ``board``; ``position_id`` only in
    Portes and Tavla. rule G-LEGAL-1: anything else is refused and nothing is stored."""
    variant = state.game_variant
    assert variant is not None
    assert state.dice is not None
    plays = state.variant_plays()
    if sum(value is not None for value in (notation, position_id, given)) != 1:
        raise InvalidInputError("play", "give one of 'play' (notation), 'board' or 'position_id'")
    dice = format_dice(state.dice)
    if position_id is not None:
        if variant not in _POINT_ID_VARIANTS:
            raise InvalidInputError(
                "position_id", f"a {variant} board has no Position ID: send 'play' or 'board'"
            )
        for candidate in plays:
            if _core_position_id(candidate) == position_id:
                return candidate
        raise IllegalPlayRejectedError(
            f"no legal play of {dice} leads to position {position_id} (G-LEGAL-1)"
        )
    if given is not None:
        board = _board(variant, given)
        for candidate in plays:
            if candidate.board == board:
                return candidate
        raise IllegalPlayRejectedError(
            f"no legal play of {dice} leads to this board (V-MAX-1, G-LEGAL-1)"
        )
    assert notation is not None
    if len(notation) > MAX_PLAY_LENGTH:
        raise InvalidInputError("play", f"is at most {MAX_PLAY_LENGTH} characters of notation")
    text = " ".join(notation.split())
    for candidate in plays:  # the usual case: the notation the service itself showed
        if candidate.notation == text:
            return candidate
    wanted = _moves(text)
    matching = [candidate for candidate in plays if _same_moves(candidate, wanted)]
    if len({candidate.board for candidate in matching}) == 1:
        return matching[0]
    if not plays:
        raise IllegalPlayRejectedError(f"{dice} cannot be played here (V-MAX-1)")
    shown = "; ".join(sorted(candidate.notation for candidate in plays)[:6])
    raise IllegalPlayRejectedError(
        f"illegal play: '{text}' is not a legal play of {dice} (V-MAX-1, G-LEGAL-1); legal "
        f"plays are, for example: {shown}"
    )


def _board(variant: Variant, given: GivenBoard) -> VariantBoard:
    """The given board in the game's variant, checked as the analysis endpoint checks it."""
    if given.pinned is not None and variant is not Variant.PLAKOTO:
        raise InvalidInputError("board.pinned", f"only plakoto pins checkers, not {variant}")
    pinned_on_roll, pinned_opponent = given.pinned or ((), ())
    try:
        return VariantBoard(
            variant,
            given.on_roll,
            given.opponent,
            tuple(sorted(pinned_on_roll)),
            tuple(sorted(pinned_opponent)),
        )
    except InvalidVariantBoardError as error:
        raise InvalidInputError(error.field, str(error)) from None


def _moves(text: str) -> Counter[tuple[int, int]]:
    """The notation as (from, to) hops, without hit marks: ``24/18/13`` is two hops and
    ``13/7(2)`` the same hop twice."""
    hops: Counter[tuple[int, int]] = Counter()
    if not text:
        raise InvalidInputError("play", "is empty: name the steps, as '24/18 13/9'")
    for token in text.split(" "):
        found = _STEP.match(token)
        if found is None:
            raise InvalidInputError(
                "play", f"cannot read '{token}': steps read 'from/to', 'bar/to' or 'from/off'"
            )
        points = [found.group(1), *found.group(2).replace("*", "").split("/")[1:]]
        numbers = [BAR if p == "bar" else OFF if p == "off" else int(p) for p in points]
        times = int(found.group(3) or 1)
        for source, target in itertools.pairwise(numbers):
            hops[(source, target)] += times
    return hops


def _same_moves(play: VariantPlay, wanted: Counter[tuple[int, int]]) -> bool:
    """The play's steps, merged where one checker moves on (24/18 18/13 is 24/13), equal the
    hops given, either step by step or merged."""
    steps = Counter((step.source, step.destination) for step in play.steps)
    if steps == wanted:
        return True
    return _merged(steps) == _merged(wanted)


def _merged(hops: Counter[tuple[int, int]]) -> Counter[tuple[int, int]]:
    """Chains of hops joined where a hop ends where another starts (one checker moving on)."""
    pending = list(hops.elements())
    changed = True
    while changed:
        changed = False
        for i, (source, middle) in enumerate(pending):
            for j, (start, target) in enumerate(pending):
                if i != j and start == middle and middle not in (BAR, OFF):
                    joined = (source, target)
                    pending = [hop for k, hop in enumerate(pending) if k not in (i, j)]
                    pending.append(joined)
                    changed = True
                    break
            if changed:
                break
    return Counter(pending)


def _core_position_id(play: VariantPlay) -> str:
    after = play.board
    return Position.trusted(
        (*after.on_roll[1:], after.on_roll[0]), (*after.opponent[1:], after.opponent[0])
    ).position_id
