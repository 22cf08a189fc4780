"""The tournament's events: scheduling, registration, the start, rounds and results."""

from __future__ import annotations

from datetime import date, datetime
from typing import ClassVar, Literal, assert_never
from uuid import UUID

import msgspec

from domain.events import PSEUDONYM, DomainEvent, Personal
from domain.match.events import MatchVariant, TavliFormat
from domain.tournament.defaults import (
    DEFAULT_CLOCK,
    DEFAULT_CONSOLATION_PAYOUT_PERCENT,
    DEFAULT_CONSOLATION_POT_PERCENT,
    DEFAULT_DICE,
    DEFAULT_PAYOUT_PERCENT,
    Consolation,
    RegistrationStatus,
    ResultSource,
    RoundStage,
    Seeding,
    Stage,
    TournamentFormat,
)


class KnockoutLengths(msgspec.Struct, frozen=True, kw_only=True):
    """Match lengths of the knockout stages (rule T-FMT-8); Swiss rounds play ``match_length``."""

    semi_final: int
    final: int
    third_place: int


class TournamentScheduled(DomainEvent, frozen=True, kw_only=True):
    """The director put a tournament on the calendar; deadlines are UTC instants (CAL-3)."""

    season_id: UUID | None = None
    period: str | None = None
    name: str
    play_date: date
    venue: str
    capacity: int
    min_age: int
    buy_in_cents: int
    pot_share_cents: int
    waitlist: bool = True
    waitlist_limit: int | None = None
    """Places on the waitlist; None: twice the capacity."""
    swiss_rounds: int
    match_length: int
    class_name: str
    payout_percent: tuple[int, ...] = DEFAULT_PAYOUT_PERCENT
    time_zone: str
    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime
    knockout_lengths: KnockoutLengths | None = None
    """None in events recorded before stages had lengths: every stage plays ``match_length``."""
    dice: str = DEFAULT_DICE
    """How the tournament's matches roll: ``entered`` (physical dice) or ``server``."""
    clock: str = DEFAULT_CLOCK
    """The clock preset of the tournament's matches."""
    clock_overtime_seconds: int = 0
    """rule G-CLOCK-1, USBGF option: the overtime of the tournament's matches (0, 60, 120)."""
    format: TournamentFormat = "swiss"
    """rule T-FMT-10 (older events: Swiss, with the knockout of the best four)."""
    knockout_players: int = 4
    """rule T-FMT-4, T-FMT-10: 4 plays the knockout after the Swiss or round robin stage, 0 not."""
    round_robin_cycles: int = 1
    """rule T-FMT-11: a round robin's cycles, 1 or 2."""
    seeding: Seeding = "lot"
    """rule T-FMT-11: how the Berger numbers are given at the start."""
    consolation: Consolation = "none"
    """rule T-FMT-13: the consolation asked for (elimination only)."""
    consolation_match_length: int = 0
    """rule T-FMT-12: every consolation match's length; 0: ``match_length``."""
    consolation_pot_percent: int = DEFAULT_CONSOLATION_POT_PERCENT
    consolation_payout_percent: tuple[int, ...] = DEFAULT_CONSOLATION_PAYOUT_PERCENT
    # rule V-MATCH-VARIANT-1 (older events: backgammon in every stage)
    variant: MatchVariant = "backgammon"
    cube: bool | None = None
    """rule V-CUBE-1: None gives each match its variant's default."""
    tavli_format: TavliFormat | None = None
    stage_variants: dict[Stage, MatchVariant] = msgspec.field(default_factory=dict)
    """The stages the director named; every other stage plays ``variant``."""


class RegistrationFacts(DomainEvent, frozen=True, kw_only=True):
    """What a registration records: the person's data and the hash of their player token."""

    registration_id: UUID
    player_id: UUID
    first_name: str
    last_name: str
    email: str
    age: int | None = None
    birth_date: date | None = None
    token_hash: str
    """SHA-256 (hex) of the player token; the token itself is never stored."""
    language: str = "de"
    """The language of the person's mails (rule P-MAIL-1): ``de`` or ``en``."""

    personal: ClassVar[tuple[Personal, ...]] = (
        Personal(
            "player_id",
            {
                "first_name": PSEUDONYM,
                "last_name": "",
                "email": "",
                "age": None,
                "birth_date": None,
            },
        ),
    )
    """Erased: the first name shows the pseudonym, so the display name is the pseudonym."""


class PlayerRegistered(RegistrationFacts, frozen=True, kw_only=True):
    """The person got a seat."""


class RegistrationWaitlisted(RegistrationFacts, frozen=True, kw_only=True):
    """All seats were taken: the person waits for one (rule T-REG-3)."""


class RegistrationCancelled(DomainEvent, frozen=True, kw_only=True):
    """The registration was cancelled in time (or taken off the waitlist), or, after the start,
    a registration made after it that was never admitted to the field (rule T-CANCEL-1)."""

    registration_id: UUID
    refund_cents: int = 0
    """The buy-in a standby, or a late registration checked in, paid on site, to be handed
    back."""


class WaitlistPromoted(DomainEvent, frozen=True, kw_only=True):
    """A freed seat went to the first person on the waitlist (rule T-REG-3)."""

    registration_id: UUID
    checked_in: bool = False
    """A standby, already checked in on site, takes the seat as a checked-in player."""


class LateWithdrawalRecorded(DomainEvent, frozen=True, kw_only=True):
    """The director withdrew a seat holder after the cancellation deadline (rule T-CANCEL-1)."""

    registration_id: UUID
    reason: str = ""


class CheckInFacts(DomainEvent, frozen=True, kw_only=True):
    """What a check-in on site records: a valid ID document was seen and the buy-in paid
    (rules T-CHECKIN-1, T-BUYIN-1)."""

    registration_id: UUID
    id_document_seen: bool
    buy_in_paid_cents: int


class PlayerCheckedIn(CheckInFacts, frozen=True, kw_only=True):
    """A seat holder checked in on site."""


class StandbyCheckedIn(CheckInFacts, frozen=True, kw_only=True):
    """A waitlisted person checked in on site as a standby (T-CHECKIN-1).

    A seat released at the start goes to the standbys in waitlist order (T-CHECKIN-2, T-REG-3).
    """


class StandbyNotSeated(DomainEvent, frozen=True, kw_only=True):
    """At the start no seat was left for a standby: still waitlisted, the buy-in is refunded."""

    registration_id: UUID
    refund_cents: int


class NoShowReleased(DomainEvent, frozen=True, kw_only=True):
    """At the start, a registered player had not checked in: the seat is released (T-CHECKIN-2)."""

    registration_id: UUID


class TournamentStarted(DomainEvent, frozen=True, kw_only=True):
    """Play began with the checked-in players; the pot is fixed (rule T-BUYIN-1)."""

    players: int
    """Checked-in seat holders, standbys promoted at the start included."""
    pot_cents: int
    swiss_rounds: int = 0
    """The Swiss rounds this field plays: the tournament's number, fewer where a small field
    could not play them without rematches (0 in events recorded before rounds existed)."""
    lot_seed: int = 0
    """Draws the lot that breaks the standings' last ties (rule T-FMT-3)."""
    field: tuple[UUID, ...] = ()
    """The players seated, in the order of their registration (empty in older events)."""
    # The tournament's rules as they stand at the start: a later change of a setting never
    # changes a started tournament (empty or 0 in older events: the scheduled terms apply).
    payout_percent: tuple[int, ...] = ()
    match_length: int = 0
    knockout_lengths: KnockoutLengths | None = None
    pot_share_cents: int = 0
    tiebreaks: tuple[str, ...] = ()
    """rule T-FMT-3: the order of the standings' keys this tournament ranks by."""
    format: TournamentFormat = "swiss"
    """rule T-FMT-10: the format and its settings, copied from the scheduled terms."""
    knockout_players: int = 4
    round_robin_cycles: int = 1
    seeding: Seeding = "lot"
    berger_numbers: tuple[UUID, ...] = ()
    consolation: Consolation = "none"
    """rule T-FMT-13: the consolation asked for (elimination only)."""
    consolation_match_length: int = 0
    """rule T-FMT-12: every consolation match's length; 0: ``match_length``."""
    consolation_pot_percent: int = DEFAULT_CONSOLATION_POT_PERCENT
    consolation_payout_percent: tuple[int, ...] = DEFAULT_CONSOLATION_PAYOUT_PERCENT
    bracket_seeds: tuple[UUID, ...] = ()
    """rule T-FMT-12: an elimination's players by bracket seed (1 first), fixed at the start."""
    consolation_played: Consolation = "none"
    """rule T-FMT-13: the consolation the field plays (a progressive one under 9 players is
    played as ``first_round``; too small a field plays none)."""
    """rule T-FMT-11: a round robin's players by Berger number (1 first), fixed at the start."""
    # rule V-MATCH-VARIANT-1: the variants, copied like the other rules (older events: none,
    # the scheduled terms apply)
    variant: MatchVariant | None = None
    cube: bool | None = None
    tavli_format: TavliFormat | None = None
    stage_variants: dict[Stage, MatchVariant] = msgspec.field(default_factory=dict)


class Seating(msgspec.Struct, frozen=True, kw_only=True):
    """Who sits at a table of a round and the match they play, or one player's bye: what a
    pairing records and what the fold of results reads of it (``outcomes.TableFact``)."""

    table: int
    stage: Stage
    player_a: UUID
    player_b: UUID | None = None
    """None: ``player_a`` has the bye (rule T-FMT-2), decided by the pairing."""
    match_id: UUID | None = None
    match_length: int = 0


class PairedTable(Seating, frozen=True, kw_only=True):
    """One table of a round as the pairing made it: its seating and why it was made."""

    reason: str = ""
    """Why the pairing made this table: ``score_group``, ``float``, ``rematch``, ``bye`` or
    ``seeding`` (the knockout)."""
    explanation: str = ""
    """The reason in words, for the director and the players."""
    bracket: str | None = None
    """Elimination (rule T-FMT-12, T-FMT-13): ``main`` or ``consolation``; None otherwise."""
    bracket_round: int | None = None
    bracket_position: int | None = None
    """The match's 1-based position within its bracket round (``domain.bracket``)."""
    seed_a: int | None = None
    seed_b: int | None = None


class RoundPaired(DomainEvent, frozen=True, kw_only=True):
    """A round was paired, all tables at once (rules T-FMT-2, T-FMT-4)."""

    round: int
    stage: RoundStage
    seed: int
    """The lot of this round's remaining ties: the same seed pairs the same round again."""
    tables: tuple[PairedTable, ...]
    completable: bool | None = None
    """rule T-FMT-9, Swiss rounds: whether the remaining Swiss rounds can be paired without a
    rematch after this one (always true after the last); None where it was not decided, for a
    knockout round, and in events recorded before the lookahead."""


class ResultRecorded(DomainEvent, frozen=True, kw_only=True):
    """A match of the tournament was decided; ``corrects`` names the result it replaces."""

    result_id: UUID
    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int
    played: bool = True
    """False for an unplayed match (rule T-FMT-7): a win for the opponent with 0 points."""
    source: ResultSource = "director"
    corrects: UUID | None = None
    """rule T-FMT-6: a correction is a new result naming the one it corrects."""
    reason: str = ""


class PlayerWithdrew(DomainEvent, frozen=True, kw_only=True):
    """A player left the running tournament: not paired again (rule T-FMT-5)."""

    registration_id: UUID
    player_id: UUID
    reason: str = ""
    left_early: bool = True
    """rule R-ATT-2: leaving early revokes the tournament's attendance points."""


class PlayerExcluded(DomainEvent, frozen=True, kw_only=True):
    """The director excluded a player from the running tournament: not paired again, no refund
    of the buy-in (rules C-EXCL-1, R-EXCL-1)."""

    registration_id: UUID
    player_id: UUID
    reason: str


class PlayerMarkedPresent(DomainEvent, frozen=True, kw_only=True):
    """The director saw the player back from the break, ready to play (rule C-BREAK-1)."""

    player_id: UUID
    reason: str = ""
    """Why a late player's proposed penalty is waived (the desk's ``waive-penalty``)."""


class BreakOverrunFlagged(DomainEvent, frozen=True, kw_only=True):
    """The scheduler saw a player's break run over: the director is to decide on a penalty
    (rule C-BREAK-1); flagged once per break, the break known by when it began."""

    player_id: UUID
    since: datetime


class ReturnTimeAgreed(DomainEvent, frozen=True, kw_only=True):
    """A player leaving the venue agreed a time to be back (rule C-BREAK-3)."""

    player_id: UUID
    until: datetime


class TournamentCompleted(DomainEvent, frozen=True, kw_only=True):
    """The last match of the tournament is decided (rule T-FMT-8)."""


class CancellationClosed(DomainEvent, frozen=True, kw_only=True):
    """The cancellation deadline passed (rule T-CANCEL-1); the status stays derived from the
    clock, this records that the scheduler saw the deadline."""


class CheckInOpened(DomainEvent, frozen=True, kw_only=True):
    """On-site check-in opened on the play date (rule T-CHECKIN-1)."""


class TournamentStartFailed(DomainEvent, frozen=True, kw_only=True):
    """At the latest start time the tournament could not start (e.g. fewer than two players
    checked in); the director may still start it by hand."""

    reason: str


class ResultReported(DomainEvent, frozen=True, kw_only=True):
    """A player of the match reported its result from the table; the opponent's equal report
    confirms it (a ``ResultRecorded`` with source ``players``)."""

    match_id: UUID
    player_id: UUID
    winner: UUID
    points_a: int
    points_b: int


class ResultDisputed(DomainEvent, frozen=True, kw_only=True):
    """The two players of a match reported different results: the director decides."""

    match_id: UUID
    reports: tuple[UUID, ...] = ()
    """The players whose reports differ."""


class RoundRepaired(DomainEvent, frozen=True, kw_only=True):
    """The director replaced tables of a round before its first result; ``tables`` is the whole
    round as it now stands, ``voided`` the matches of the replaced tables."""

    round: int
    tables: tuple[PairedTable, ...]
    replaced: tuple[int, ...]
    """The numbers of the tables (as paired before) that were replaced."""
    voided: tuple[UUID, ...] = ()
    reason: str = ""


class RoundUnpaired(DomainEvent, frozen=True, kw_only=True):
    """The director took back the latest round before its first result; its matches are void."""

    round: int
    voided: tuple[UUID, ...] = ()
    reason: str = ""


MissedRounds = Literal["losses", "byes"]
"""How a late entry's missed rounds count: losses with 0 points, or byes with 0 points."""


class LateEntryAdmitted(DomainEvent, frozen=True, kw_only=True):
    """A player registered after the start joins the field; paired from ``from_round`` on."""

    registration_id: UUID
    player_id: UUID
    from_round: int
    missed: MissedRounds = "losses"
    pot_share_cents: int = 0
    """What the late entry adds to the pot (rule T-BUYIN-1)."""


class FixedTableAssigned(DomainEvent, frozen=True, kw_only=True):
    """The player always plays at this table (mobility); rounds paired later seat them there."""

    player_id: UUID
    table: int


class TournamentFinalized(DomainEvent, frozen=True, kw_only=True):
    """The director fixed places and prizes: a correction now needs the tournament reopened."""

    places: tuple[UUID, ...]
    payouts_cents: tuple[int, ...] = ()
    """The prize of each place, in place order."""


class TournamentReopened(DomainEvent, frozen=True, kw_only=True):
    """The director reopened a final tournament to correct it."""

    reason: str


RegistrationChange = (
    RegistrationCancelled
    | WaitlistPromoted
    | LateWithdrawalRecorded
    | PlayerCheckedIn
    | StandbyCheckedIn
    | StandbyNotSeated
    | NoShowReleased
    | PlayerWithdrew
    | PlayerExcluded
    | LateEntryAdmitted
)
"""The events that move an existing registration to another status."""
RegistrationEvent = PlayerRegistered | RegistrationWaitlisted | RegistrationChange
TournamentEvent = (
    TournamentScheduled
    | RegistrationEvent
    | TournamentStarted
    | RoundPaired
    | ResultRecorded
    | PlayerMarkedPresent
    | ReturnTimeAgreed
    | BreakOverrunFlagged
    | TournamentCompleted
    | CancellationClosed
    | CheckInOpened
    | TournamentStartFailed
    | ResultReported
    | ResultDisputed
    | RoundRepaired
    | RoundUnpaired
    | LateEntryAdmitted
    | FixedTableAssigned
    | TournamentFinalized
    | TournamentReopened
)


def status_after(event: RegistrationEvent) -> RegistrationStatus:
    """The status of the event's registration once the event applies (the aggregate and the
    read models all follow this one mapping)."""
    match event:
        case PlayerRegistered():
            return "registered"
        case RegistrationWaitlisted() | StandbyNotSeated():
            return "waitlisted"
        case RegistrationCancelled():
            return "cancelled"
        case WaitlistPromoted():
            # a standby, already checked in on site, takes the seat as a checked-in player
            return "checked_in" if event.checked_in else "registered"
        case LateWithdrawalRecorded() | PlayerWithdrew():
            return "withdrawn"
        case PlayerCheckedIn():
            return "checked_in"
        case StandbyCheckedIn():
            return "standby"
        case NoShowReleased():
            return "no_show"
        case PlayerExcluded():
            return "excluded"
        case LateEntryAdmitted():
            # the admission seats the late entry in the field (rule T-BUYIN-1: its seat joins
            # the pot)
            return "checked_in"
    assert_never(event)
