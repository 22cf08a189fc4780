"""The opening roll of a variant game (rule V-OPEN-1), as far as the pure rules go: who starts,
and whether the opening dice are the first play."""

from __future__ import annotations

from typing import Literal, NamedTuple

from domain.backgammon.plays import Dice, validate_dice
from domain.variants.board import Variant


class Opening(NamedTuple):
    """``starter`` is None on a tie (both roll again). ``first_roll`` is the roll the starter
    plays, or None when the starter rolls both dice again."""

    starter: Literal["a", "b"] | None
    first_roll: Dice | None


def opening(variant: Variant, die_a: int, die_b: int) -> Opening:
    """rule V-OPEN-1: each player rolls one die, ties re-roll, the higher starts. Tavla keeps
    G-OPEN-1 (the two opening dice are the first play, never a double); in Portes, Plakoto,
    Fevga and Nardi the starter rolls both dice again, so the first play can be a double."""
    validate_dice((die_a, die_b))
    if die_a == die_b:
        return Opening(None, None)
    starter: Literal["a", "b"] = "a" if die_a > die_b else "b"
    if variant is Variant.TAVLA:
        own, other = (die_a, die_b) if starter == "a" else (die_b, die_a)
        return Opening(starter, (own, other))
    return Opening(starter, None)
