"""The tournament's vocabulary of statuses and the club's defaults (seed 000)."""

from __future__ import annotations

import re
from typing import Final, Literal

RegistrationStatus = Literal[
    "registered",
    "waitlisted",
    "standby",
    "checked_in",
    "cancelled",
    "withdrawn",
    "no_show",
    "excluded",
]
"""``standby``: waitlisted and checked in on site, ready to take a seat freed at the start."""
TournamentStatus = Literal[
    "open", "cancellation_closed", "check_in", "running", "completed", "final"
]
"""``final`` while the director's finalize stands (rule T-FMT-8); a reopen returns the
tournament to ``completed``."""
Stage = Literal["swiss", "round_robin", "semi_final", "final", "third_place"]
"""rule T-FMT-4: Swiss rounds (or the round robin's, T-FMT-11), then semi-finals, then the final
and the match for 3rd place."""
RoundStage = Literal["swiss", "round_robin", "knockout"]
TournamentFormat = Literal["swiss", "round_robin"]
"""rule T-FMT-10: a tournament's format, fixed at creation (``elimination`` is not built yet)."""
Seeding = Literal["lot", "ranking"]
"""rule T-FMT-11, T-FMT-12: how the Berger numbers (or bracket seeds) are given at the start."""
GROUP_STAGES: tuple[Stage, ...] = ("swiss", "round_robin")
"""The stages whose results make the standings (the knockout's make only places 1-4)."""
ResultSource = Literal["match", "director", "withdrawal", "exclusion", "players"]
"""Who decided a result: the match played through the API, the director's report, the
forfeit of a player who withdrew (rule T-FMT-5) or was excluded (rule C-EXCL-1), or the
equal reports of both players."""
TIEBREAKS: tuple[str, ...] = ("wins", "points", "buchholz", "head_to_head", "lot")
"""rule T-FMT-3: the standings' keys in order (copied into the start event)."""
ROUND_ROBIN_TIEBREAKS: tuple[str, ...] = ("wins", "points", "head_to_head", "lot")
"""rule T-FMT-11: a round robin's standings have no Buchholz."""
SEAT_HOLDING: tuple[RegistrationStatus, ...] = ("registered", "checked_in")
WAITING: tuple[RegistrationStatus, ...] = ("waitlisted", "standby")
ACTIVE: tuple[RegistrationStatus, ...] = SEAT_HOLDING + WAITING

# The club's defaults (seed 000); every one can be set per tournament.
DEFAULT_CAPACITY = 20  # rule T-SEAT-1
DEFAULT_ROUND_ROBIN_CAPACITY = 12  # rule T-FMT-11: a round robin holds at most 12 players
DEFAULT_MIN_AGE = 18  # rule T-REG-1
DEFAULT_BUY_IN_CENTS = 100_00  # rule T-BUYIN-1: 100 EUR on site ...
DEFAULT_POT_SHARE_CENTS = 80_00  # ... of which 80 EUR go to the pot, 20 EUR to the organisation
DEFAULT_PAYOUT_PERCENT = (50, 30, 20)  # rule T-BUYIN-1: default shares of places 1-3
DEFAULT_SWISS_ROUNDS = 6  # rule T-FMT-1
DEFAULT_MATCH_LENGTH = 7  # rule T-FMT-8: every stage, configurable per tournament
DEFAULT_DICE: Final = "entered"  # the club plays on physical boards
DEFAULT_CLOCK: Final = "club"  # rule G-CLOCK-1
KNOCKOUT_PLAYERS = 4  # rule T-FMT-4: the best four of the Swiss standings
DEFAULT_CLASS = "Champions"  # rule R-CLASS-1: the ranked class
MIN_PLAYERS_TO_START = 2
MAX_PERSON_NAME_LENGTH = 100
MAX_AGE = 130
MAX_REASON_LENGTH = 500
"""Reasons of director decisions (withdrawals, exclusions, corrections, overrides)."""
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")

# rule C-BREAK-1, C-BREAK-2: the default break and penalty scale; every one is configurable
DEFAULT_BREAK_MINUTES = 10
DEFAULT_PENALTY_GRACE_MINUTES = 5
"""Late by this much: 1 penalty point ..."""
DEFAULT_PENALTY_STEP_MINUTES = 5
"""... and 1 more for each further this many minutes."""
