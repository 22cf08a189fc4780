"""The tournament's state as of its latest event, and the one function that applies events."""

from __future__ import annotations

from datetime import date, datetime
from functools import cache
from uuid import UUID
from zoneinfo import ZoneInfo

import msgspec

from domain.calendar import local_isoformat
from domain.events import Aggregate, copied, open_state, same_named
from domain.tournament.defaults import (
    DEFAULT_CONSOLATION_PAYOUT_PERCENT,
    DEFAULT_CONSOLATION_POT_PERCENT,
    SEAT_HOLDING,
    WAITING,
    Consolation,
    RegistrationStatus,
    ResultSource,
    RoundStage,
    Seeding,
    Stage,
    TournamentFormat,
    TournamentStatus,
)
from domain.tournament.errors import RegistrationNotFoundError, TournamentNotFoundError
from domain.tournament.events import (
    BreakOverrunFlagged,
    CancellationClosed,
    CheckInOpened,
    FixedTableAssigned,
    KnockoutLengths,
    LateEntryAdmitted,
    LateWithdrawalRecorded,
    MissedRounds,
    NoShowReleased,
    PairedTable,
    PlayerCheckedIn,
    PlayerExcluded,
    PlayerMarkedPresent,
    PlayerRegistered,
    PlayerWithdrew,
    RegistrationCancelled,
    RegistrationWaitlisted,
    ResultDisputed,
    ResultRecorded,
    ResultReported,
    ReturnTimeAgreed,
    RoundPaired,
    RoundRepaired,
    RoundUnpaired,
    StandbyCheckedIn,
    StandbyNotSeated,
    TournamentCompleted,
    TournamentEvent,
    TournamentFinalized,
    TournamentReopened,
    TournamentScheduled,
    TournamentStarted,
    TournamentStartFailed,
    WaitlistPromoted,
    status_after,
)
from domain.tournament.variants import VariantTerms


class Registration(msgspec.Struct, frozen=True, kw_only=True):
    """One registration as the aggregate needs it for decisions (personal data stays in events)."""

    id: UUID
    player_id: UUID
    status: RegistrationStatus
    token_hash: str
    sequence: int
    """The aggregate version that recorded it: the order of arrival, also on the waitlist."""


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """A paired round: its tables as the pairing made them (never changed by a correction)."""

    number: int
    stage: RoundStage
    seed: int
    tables: tuple[PairedTable, ...]
    paired_at: datetime | None = None
    """When the round was paired (or last repaired): the wallboard's round timer."""
    completable: bool | None = None
    """rule T-FMT-9: fixed when the round is paired (see ``RoundPaired.completable``)."""


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """A player's report of a match's result from the table (the latest one counts)."""

    match_id: UUID
    player_id: UUID
    winner: UUID
    points_a: int
    points_b: int


class LateEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A player who joined the field after the start, paired from ``from_round`` on."""

    player_id: UUID
    from_round: int
    missed: MissedRounds
    """``byes``: each missed round counts as a bye; ``losses``: it adds nothing."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """The result that counts for one match: the latest recorded, corrections included."""

    id: UUID
    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int
    played: bool
    source: ResultSource
    recorded_at: datetime | None = None


class PlayerMark(msgspec.Struct, frozen=True, kw_only=True):
    """An instant recorded for a player: back from the break, or the agreed return time."""

    player_id: UUID
    at: datetime


class Tournament(Aggregate, frozen=True, kw_only=True):
    """A tournament's terms, deadlines, registrations, rounds and results as of its latest event."""

    play_date: date
    capacity: int
    min_age: int
    buy_in_cents: int
    pot_share_cents: int
    waitlist: bool
    waitlist_limit: int | None = None
    time_zone: str
    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime
    registrations: tuple[Registration, ...] = ()
    started_at: datetime | None = None
    completed_at: datetime | None = None
    players: int = 0
    pot_cents: int = 0
    swiss_rounds: int = 0
    """Configured when scheduled; from the start, the number this field plays."""
    match_length: int = 0
    """The Swiss rounds' match length (rule T-FMT-8)."""
    knockout_lengths: KnockoutLengths | None = None
    payout_percent: tuple[int, ...] = ()
    dice: str = "entered"
    clock: str = "club"
    clock_overtime_seconds: int = 0
    """rule G-CLOCK-1, USBGF option: one overtime in each of its matches (0: none)."""
    lot_seed: int = 0
    field: tuple[UUID, ...] = ()
    """The players seated at the start, in the order of their registration."""
    rounds: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()
    season_id: UUID | None = None
    present: tuple[PlayerMark, ...] = ()
    """The director marked these players back from their break (rule C-BREAK-1)."""
    return_times: tuple[PlayerMark, ...] = ()
    """Agreed times to be back (rule C-BREAK-3)."""
    flagged_breaks: tuple[PlayerMark, ...] = ()
    """Breaks the scheduler flagged as run over, each by its player and start."""
    cancellation_closed: bool = False
    check_in_opened: bool = False
    start_failed_at: datetime | None = None
    started_version: int = 0
    """The version of the start event: registrations after it are late entries."""
    pot_share_cents_at_start: int = 0
    tiebreaks: tuple[str, ...] = ()
    reports: tuple[Report, ...] = ()
    disputed: tuple[UUID, ...] = ()
    """Matches whose players reported different results, until a result is recorded."""
    late_entries: tuple[LateEntry, ...] = ()
    fixed_tables: tuple[tuple[UUID, int], ...] = ()
    """(player, table): the player always plays at that table."""
    finalized_at: datetime | None = None
    final_places: tuple[UUID, ...] = ()
    format: TournamentFormat = "swiss"
    """rule T-FMT-10: fixed at creation; the start copies it with its settings."""
    knockout_players: int = 4
    round_robin_cycles: int = 1
    seeding: Seeding = "lot"
    berger_numbers: tuple[UUID, ...] = ()
    """rule T-FMT-11: a round robin's players by Berger number (1 first), from the start."""
    consolation: Consolation = "none"
    """rule T-FMT-13: asked for at creation; ``consolation_played`` from the start."""
    consolation_match_length: int = 0
    consolation_pot_percent: int = DEFAULT_CONSOLATION_POT_PERCENT
    consolation_payout_percent: tuple[int, ...] = DEFAULT_CONSOLATION_PAYOUT_PERCENT
    bracket_seeds: tuple[UUID, ...] = ()
    """rule T-FMT-12: an elimination's players by bracket seed (1 first), from the start."""
    consolation_played: Consolation = "none"
    variants: VariantTerms = VariantTerms()
    """rule V-MATCH-VARIANT-1: the variant of each stage; the start copies it."""

    def registration_of(self, player_id: UUID) -> Registration | None:
        """The player's latest registration in this tournament."""
        found = None
        for registration in self.registrations:
            if registration.player_id == player_id:
                found = registration
        return found

    def active_players(self) -> list[UUID]:
        """rule T-FMT-5, C-EXCL-1: the field less those who withdrew or were excluded; only
        these are paired in later rounds."""
        withdrawn = {
            r.player_id for r in self.registrations if r.status in ("withdrawn", "excluded")
        }
        return [player for player in self.field if player not in withdrawn]

    def report_of(self, match_id: UUID, player_id: UUID) -> Report | None:
        key = (match_id, player_id)
        return next((r for r in self.reports if (r.match_id, r.player_id) == key), None)

    def late_entry_of(self, player_id: UUID) -> LateEntry | None:
        return next((e for e in self.late_entries if e.player_id == player_id), None)

    def fixed_table_of(self, player_id: UUID) -> int | None:
        return next((table for player, table in self.fixed_tables if player == player_id), None)

    def result_of(self, match_id: UUID) -> Result | None:
        return next((r for r in self.results if r.match_id == match_id), None)

    def table_of(self, match_id: UUID) -> tuple[Round, PairedTable] | None:
        for paired in self.rounds:
            for table in paired.tables:
                if table.match_id == match_id:
                    return paired, table
        return None

    def open_tables(self, paired: Round) -> list[PairedTable]:
        """The round's tables still without a result (a bye is decided by its pairing)."""
        return [
            table
            for table in paired.tables
            if table.match_id is not None and self.result_of(table.match_id) is None
        ]

    def stage_length(self, stage: Stage) -> int:
        """rule T-FMT-8: each stage's match length."""
        if stage == "consolation" and self.consolation_match_length:
            return self.consolation_match_length  # rule T-FMT-12
        if stage in ("swiss", "round_robin", "main", "consolation"):
            return self.match_length
        if self.knockout_lengths is None:
            return self.match_length
        lengths: int = getattr(self.knockout_lengths, stage)
        return lengths

    def registration(self, registration_id: UUID) -> Registration:
        for registration in self.registrations:
            if registration.id == registration_id:
                return registration
        raise RegistrationNotFoundError(
            f"tournament {self.id} has no registration {registration_id}"
        )

    def with_status(self, *statuses: RegistrationStatus) -> list[Registration]:
        """Registrations in any of ``statuses``, in the order of arrival."""
        return [r for r in self.registrations if r.status in statuses]

    def waiting(self) -> list[Registration]:
        """The waitlist in its order, standbys (checked in on site) included (rule T-REG-3)."""
        return self.with_status(*WAITING)

    @property
    def seats_taken(self) -> int:
        """rule T-SEAT-1: registered and checked-in players hold seats."""
        return sum(1 for r in self.registrations if r.status in SEAT_HOLDING)

    def status(self, now: datetime) -> TournamentStatus:
        return tournament_status(
            now,
            cancellation_until=self.cancellation_until,
            check_in_opens=self.check_in_opens,
            started=self.started_at is not None,
            completed=self.completed_at is not None,
            finalized=self.finalized_at is not None,
        )

    def local(self, instant: datetime) -> str:
        """An instant in the club's time zone, as problem details and messages show it."""
        return local_isoformat(instant, _zone(self.time_zone))


def tournament_status(
    now: datetime,
    *,
    cancellation_until: datetime,
    check_in_opens: datetime,
    started: bool,
    completed: bool,
    finalized: bool,
) -> TournamentStatus:
    """Derived from events and the clock: open -> cancellation_closed -> check_in -> running
    -> completed -> final (the director's finalize; a reopen returns it to completed)."""
    if finalized:
        return "final"
    if completed:
        return "completed"
    if started:
        return "running"
    if now >= check_in_opens:
        return "check_in"
    if now > cancellation_until:
        return "cancellation_closed"
    return "open"


def evolve(state: Tournament | None, event: TournamentEvent) -> Tournament:
    """The one place where tournament events apply."""
    if isinstance(event, TournamentScheduled):
        return open_state(
            event,
            Tournament,
            variants=VariantTerms(
                variant=event.variant,
                cube=event.cube,
                tavli_format=event.tavli_format,
                stage_variants=event.stage_variants,
            ),
        )
    if not isinstance(state, Tournament):
        raise TournamentNotFoundError(f"no tournament with id {event.originator_id}")
    version = event.originator_version
    match event:
        case PlayerRegistered() | RegistrationWaitlisted():
            registration = copied(
                event,
                Registration,
                id=event.registration_id,
                status=status_after(event),
                sequence=version,
            )
            return msgspec.structs.replace(
                state, version=version, registrations=(*state.registrations, registration)
            )
        case (
            RegistrationCancelled()
            | WaitlistPromoted()
            | LateWithdrawalRecorded()
            | PlayerCheckedIn()
            | StandbyCheckedIn()
            | StandbyNotSeated()
            | NoShowReleased()
            | PlayerWithdrew()
            | PlayerExcluded()
        ):
            return _set_status(state, version, event.registration_id, status_after(event))
        case TournamentStarted():
            # The start's numbers and the rules it copies (the tiebreaks, the format and its
            # settings, the Berger numbers or bracket seeds) land on the same-named fields; the
            # rules older events leave empty keep the scheduled terms.
            started = same_named(event, Tournament) | {
                "version": version,
                "started_at": event.timestamp,
                "swiss_rounds": event.swiss_rounds or state.swiss_rounds,
                "field": event.field or tuple(r.player_id for r in state.with_status("checked_in")),
                "started_version": version,
                "payout_percent": event.payout_percent or state.payout_percent,
                "match_length": event.match_length or state.match_length,
                "knockout_lengths": event.knockout_lengths or state.knockout_lengths,
                # the scheduled share stays as scheduled; the start's is kept apart
                "pot_share_cents": state.pot_share_cents,
                "pot_share_cents_at_start": event.pot_share_cents or state.pot_share_cents,
            }
            return msgspec.structs.replace(
                state,
                **started,
                variants=state.variants
                if event.variant is None
                else VariantTerms(
                    variant=event.variant,
                    cube=event.cube,
                    tavli_format=event.tavli_format,
                    stage_variants=event.stage_variants,
                ),
            )
        case RoundPaired():
            paired = copied(event, Round, number=event.round, paired_at=event.timestamp)
            return msgspec.structs.replace(state, version=version, rounds=(*state.rounds, paired))
        case ResultRecorded():
            result = copied(event, Result, id=event.result_id, recorded_at=event.timestamp)
            # rule T-FMT-6: a correction replaces the result that counts; both stay in the log
            others = tuple(r for r in state.results if r.match_id != event.match_id)
            return msgspec.structs.replace(
                state,
                version=version,
                results=(*others, result),
                disputed=tuple(m for m in state.disputed if m != event.match_id),
            )
        case PlayerMarkedPresent():
            mark = PlayerMark(player_id=event.player_id, at=event.timestamp)
            return msgspec.structs.replace(state, version=version, present=(*state.present, mark))
        case BreakOverrunFlagged():
            mark = PlayerMark(player_id=event.player_id, at=event.since)
            return msgspec.structs.replace(
                state, version=version, flagged_breaks=(*state.flagged_breaks, mark)
            )
        case ReturnTimeAgreed():
            mark = PlayerMark(player_id=event.player_id, at=event.until)
            return msgspec.structs.replace(
                state, version=version, return_times=(*state.return_times, mark)
            )
        case TournamentCompleted():
            return msgspec.structs.replace(state, version=version, completed_at=event.timestamp)
        case CancellationClosed():
            return msgspec.structs.replace(state, version=version, cancellation_closed=True)
        case CheckInOpened():
            return msgspec.structs.replace(state, version=version, check_in_opened=True)
        case TournamentStartFailed():
            return msgspec.structs.replace(state, version=version, start_failed_at=event.timestamp)
        case ResultReported():
            report = copied(event, Report)
            reports = tuple(
                r
                for r in state.reports
                if (r.match_id, r.player_id) != (event.match_id, event.player_id)
            )
            return msgspec.structs.replace(state, version=version, reports=(*reports, report))
        case ResultDisputed():
            return msgspec.structs.replace(
                state, version=version, disputed=(*state.disputed, event.match_id)
            )
        case RoundRepaired():
            rounds = tuple(
                msgspec.structs.replace(r, tables=event.tables, paired_at=event.timestamp)
                if r.number == event.round
                else r
                for r in state.rounds
            )
            return _without_matches(
                msgspec.structs.replace(state, version=version, rounds=rounds), event.voided
            )
        case RoundUnpaired():
            rounds = tuple(r for r in state.rounds if r.number != event.round)
            # a late entry admitted during the round taken back is paired from it now
            late = tuple(
                msgspec.structs.replace(e, from_round=min(e.from_round, event.round))
                for e in state.late_entries
            )
            return _without_matches(
                msgspec.structs.replace(state, version=version, rounds=rounds, late_entries=late),
                event.voided,
            )
        case LateEntryAdmitted():
            entry = copied(event, LateEntry)
            joined = msgspec.structs.replace(
                state,
                version=version,
                field=(*state.field, event.player_id),
                players=state.players + 1,
                pot_cents=state.pot_cents + event.pot_share_cents,
                late_entries=(*state.late_entries, entry),
            )
            return _set_status(joined, version, event.registration_id, status_after(event))
        case FixedTableAssigned():
            fixed = tuple(f for f in state.fixed_tables if f[0] != event.player_id)
            return msgspec.structs.replace(
                state, version=version, fixed_tables=(*fixed, (event.player_id, event.table))
            )
        case TournamentFinalized():
            return msgspec.structs.replace(
                state, version=version, finalized_at=event.timestamp, final_places=event.places
            )
        case TournamentReopened():
            return msgspec.structs.replace(
                state, version=version, finalized_at=None, final_places=()
            )
    raise TypeError(f"not a tournament event: {type(event).__name__}")


def _set_status(
    state: Tournament, version: int, registration_id: UUID, status: RegistrationStatus
) -> Tournament:
    registrations = tuple(
        msgspec.structs.replace(r, status=status) if r.id == registration_id else r
        for r in state.registrations
    )
    return msgspec.structs.replace(state, version=version, registrations=registrations)


def _without_matches(state: Tournament, voided: tuple[UUID, ...]) -> Tournament:
    """Void matches leave no reports and no dispute behind."""
    gone = set(voided)
    return msgspec.structs.replace(
        state,
        reports=tuple(r for r in state.reports if r.match_id not in gone),
        disputed=tuple(m for m in state.disputed if m not in gone),
    )


@cache
def _zone(key: str) -> ZoneInfo:
    return ZoneInfo(key)
