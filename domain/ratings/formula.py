"""The FIBS rating formula (rules R-RATE-2, R-RATE-3): pure arithmetic on unrounded floats.

Everything a rated match changes is computed here, and every number that went into it is
returned with it, so that a player can recompute their own line of the list by hand.
"""

from __future__ import annotations

import math

import msgspec

START_RATING = 1800.0
"""rule R-RATE-2: a new player's rating (the club's default start rating)."""
FULL_BOOST_EXPERIENCE = 400
"""rule R-RATE-3: from this experience on the newcomer boost is 1 (no boost)."""


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """A player's place in the list before a match: rating (unrounded) and experience."""

    rating: float
    experience: int


class RatedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """What one rated match did, with every number that went into it (rule R-RATE-1)."""

    length: int
    p: float
    """The probability, by the ratings before the match, that the loser would have won."""
    k_winner: float
    k_loser: float
    winner_change: float
    """Positive: the winner's gain."""
    loser_change: float
    """Negative: the loser's loss."""


def upset_probability(rating_difference: float, length: int) -> float:
    """rule R-RATE-2: the chance that the player rated ``rating_difference`` lower wins a match
    of ``length`` (FIBS: 1 / (10^(D·√N/2000) + 1); the "batting average" table)."""
    return 1.0 / (math.pow(10.0, rating_difference * math.sqrt(length) / 2000.0) + 1.0)


def boost(experience: int, *, newcomer_boost: bool) -> float:
    """rule R-RATE-3: a player's K = max(1, 5 − E/100) with the newcomer boost, else 1."""
    if not newcomer_boost:
        return 1.0
    return max(1.0, 5.0 - experience / 100.0)


def rate(winner: Standing, loser: Standing, length: int, *, newcomer_boost: bool) -> RatedMatch:
    """rules R-RATE-2, R-RATE-3: the winner gains 4·K_W·√N·P, the loser loses 4·K_L·√N·P."""
    if length < 1:
        raise ValueError(f"a rated match has a length of 1 or more, not {length}")
    p = upset_probability(winner.rating - loser.rating, length)
    k_winner = boost(winner.experience, newcomer_boost=newcomer_boost)
    k_loser = boost(loser.experience, newcomer_boost=newcomer_boost)
    stake = 4.0 * math.sqrt(length) * p
    return RatedMatch(
        length=length,
        p=p,
        k_winner=k_winner,
        k_loser=k_loser,
        winner_change=k_winner * stake,
        loser_change=-k_loser * stake,
    )


def after(standing: Standing, change: float, length: int) -> Standing:
    """The standing after a rated match of ``length``: both players gain N experience."""
    return Standing(rating=standing.rating + change, experience=standing.experience + length)
