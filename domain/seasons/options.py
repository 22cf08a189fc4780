"""A season's ranking options (rule R-OPT-1): its rules snapshot, fixed at its creation."""

from __future__ import annotations

from typing import Literal, cast, get_args

import msgspec

from domain.errors import InvalidInputError

EventsTiebreak = Literal["fewer", "more"]
EVENTS_TIEBREAKS: tuple[str, ...] = get_args(EventsTiebreak)


class SeasonOptions(msgspec.Struct, frozen=True, kw_only=True):
    """How a season ranks (rule R-OPT-1), fixed when the season is created: its rules snapshot.

    The defaults are R-TIE-1 as it always was: every result counts, fewer tournaments played
    ranks higher, then the rank is shared.
    """

    drop_worst: int | None = None
    """Count only a player's best N tournament results (None: all of them)."""
    events_tiebreak: EventsTiebreak = "fewer"
    """After points and tournament wins: ``fewer`` tournaments played ranks higher (R-TIE-1),
    or ``more`` (clubs that rank ties by attendance)."""
    best_place_tiebreak: bool = False
    """Then the better single best place of a completed tournament; then the rank is shared."""


DEFAULT_OPTIONS = SeasonOptions()


def season_options(
    *,
    drop_worst: int | None = None,
    events_tiebreak: str = "fewer",
    best_place_tiebreak: bool = False,
) -> SeasonOptions:
    """The options as the director sends them, checked (rule R-OPT-1)."""
    if drop_worst is not None and (isinstance(drop_worst, bool) or drop_worst < 1):
        raise InvalidInputError(
            "drop_worst",
            f"{drop_worst!r} results cannot be counted: give a number of best results of 1 or "
            "more, or null to count them all",
        )
    if events_tiebreak not in EVENTS_TIEBREAKS:
        raise InvalidInputError(
            "events_tiebreak",
            f"{events_tiebreak!r} is not a tiebreak by tournaments played; use "
            "'fewer' (fewer tournaments rank higher) or 'more' (more rank higher)",
        )
    return SeasonOptions(
        drop_worst=drop_worst,
        events_tiebreak=cast(EventsTiebreak, events_tiebreak),
        best_place_tiebreak=best_place_tiebreak,
    )
