"""The tournament aggregate: given events, when a command, then new events or an error."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from uuid import UUID, uuid4
from zoneinfo import ZoneInfo

import pytest

from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.calendar import DeadlinePolicy
from domain.errors import InvalidInputError
from domain.events import fold
from domain.people.tokens import token_hash
from domain.seasons.season import PeriodInput, SeasonCreated, create_season
from domain.seasons.season import evolve as evolve_season
from domain.tournament import (
    Applicant,
    CancellationClosedError,
    CheckInClosedError,
    DuplicateRegistrationError,
    LateWithdrawalRecorded,
    NoShowReleased,
    NotYourRegistrationError,
    PlayerCheckedIn,
    PlayerRegistered,
    RegistrationCancelled,
    RegistrationClosedError,
    RegistrationNotFoundError,
    RegistrationWaitlisted,
    StandbyCheckedIn,
    StandbyNotSeated,
    Tournament,
    TournamentCompleted,
    TournamentEvent,
    TournamentFullError,
    TournamentNotFoundError,
    TournamentPlan,
    TournamentScheduled,
    TournamentStarted,
    TournamentStateError,
    UnderAgeError,
    WaitlistFullError,
    WaitlistPromoted,
    cancel_registration,
    check_in,
    display_name,
    evolve,
    register,
    schedule_tournament,
    start,
)

BERLIN = ZoneInfo("Europe/Berlin")
TOURNAMENT = UUID("00000000-0000-4000-8000-000000000001")
SCHEDULED_AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
BEFORE_DEADLINE = datetime(2026, 4, 16, 15, 59, tzinfo=UTC)  # 17:59 in Berlin
DEADLINE = datetime(2026, 4, 16, 16, 0, tzinfo=UTC)  # Thursday 16.04.2026 18:00 +02:00
AFTER_DEADLINE = DEADLINE + timedelta(minutes=1)
CHECK_IN = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)  # 12:30 in Berlin
START = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)  # 13:00 in Berlin
SPRING = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
CLUB_OF_TWO = TournamentPlan(name="Zu zweit", date="2026-04-18", venue="Amberg", capacity=2)
CLUB_OF_THREE = TournamentPlan(name="Zu dritt", date="2026-04-18", venue="Amberg", capacity=3)
CLUB_OF_FOUR = TournamentPlan(name="Zu viert", date="2026-04-18", venue="Amberg", capacity=4)


def scheduled(plan: TournamentPlan = SPRING) -> list[TournamentEvent]:
    return schedule_tournament(
        TOURNAMENT,
        plan,
        season=None,
        policy=DeadlinePolicy(),
        zone=BERLIN,
        now=SCHEDULED_AT,
        actor="director",
    )


def given(*histories: list[TournamentEvent]) -> Tournament:
    state = fold(evolve, None, [event for history in histories for event in history])
    assert state is not None
    return state


def player(person: int) -> UUID:
    """The id the service derives from a person's e-mail address."""
    return UUID(int=1_000_000 + person)


def sign_up(
    state: Tournament,
    number: int,
    *,
    age: int | None = 30,
    birth_date: str | None = None,
    email: str | None = None,
    person: int | None = None,
    now: datetime = SCHEDULED_AT,
) -> list[TournamentEvent]:
    """Registration ``number`` of person ``person`` (default: a new person, the same number)."""
    return register(
        state,
        registration_id=UUID(int=number),
        player_id=player(person or number),
        applicant=Applicant(
            first_name=f"Player{number}",
            last_name="Muster",
            email=email or f"player{number}@example.org",
            age=age,
            birth_date=birth_date,
        ),
        token_hash=token_hash(f"token-{number}"),
        now=now,
    )


def with_players(count: int, plan: TournamentPlan = SPRING) -> Tournament:
    state = given(scheduled(plan))
    for number in range(1, count + 1):
        state = fold(evolve, state, sign_up(state, number)) or state
    return state


def checked_in(state: Tournament, *numbers: int) -> Tournament:
    for number in numbers:
        events = check_in(
            state,
            UUID(int=number),
            id_document_seen=True,
            buy_in_paid_cents=10000,
            now=CHECK_IN,
            actor="director",
        )
        state = fold(evolve, state, events) or state
    return state


# Scheduling ---------------------------------------------------------------------------------


def test_scheduling_the_spring_tournament_records_its_terms_and_deadlines() -> None:
    [event] = scheduled()
    assert isinstance(event, TournamentScheduled)
    # rules T-SEAT-1, T-REG-1, T-BUYIN-1, T-FMT-1 defaults
    assert (event.capacity, event.min_age, event.buy_in_cents, event.pot_share_cents) == (
        20,
        18,
        10000,
        8000,
    )
    assert (event.swiss_rounds, event.class_name, event.payout_percent) == (
        6,
        "Champions",
        (50, 30, 20),
    )
    # rule T-CANCEL-1, T-CHECKIN-1, CAL-3: UTC instants of Berlin wall times
    assert event.cancellation_until == DEADLINE
    assert event.check_in_opens == CHECK_IN
    assert event.starts_at == datetime(2026, 4, 18, 11, 0, tzinfo=UTC)
    assert event.time_zone == "Europe/Berlin"


def test_a_date_that_does_not_exist_is_rejected_naming_the_field() -> None:
    # rule CAL-2
    plan = TournamentPlan(name="Herbstturnier 2026", date="31.11.2026", venue="Amberg")
    with pytest.raises(InvalidInputError) as raised:
        scheduled(plan)
    assert raised.value.field == "date"
    assert "November 2026 has 30 days" in raised.value.message


def test_a_tournament_in_the_summer_break_is_rejected() -> None:
    # rule CAL-1: Sommerpause has no tournament
    season_id = uuid4()
    season = fold(
        evolve_season,
        None,
        create_season(
            season_id,
            name="Saison 2026",
            starts_on="2026-03-01",
            ends_on="2027-02-28",
            periods=[
                PeriodInput("Frühlingsturnier 2026", "tournament", "01.03.26", "31.05.26"),
                PeriodInput("Sommerpause 2026", "break", "01.06.26", "31.08.26"),
            ],
            now=SCHEDULED_AT,
            actor="director",
        ),
    )
    plan = TournamentPlan(name="Sommer", date="2026-07-18", venue="Amberg")
    with pytest.raises(InvalidInputError) as raised:
        schedule_tournament(
            TOURNAMENT,
            plan,
            season=season,
            policy=DeadlinePolicy(),
            zone=BERLIN,
            now=SCHEDULED_AT,
            actor="director",
        )
    assert raised.value.field == "date"
    assert "Sommerpause 2026" in raised.value.message
    [event] = schedule_tournament(
        TOURNAMENT,
        SPRING,
        season=season,
        policy=DeadlinePolicy(),
        zone=BERLIN,
        now=SCHEDULED_AT,
        actor="director",
    )
    assert isinstance(event, TournamentScheduled)
    assert (event.season_id, event.period) == (season_id, "Frühlingsturnier 2026")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"capacity": 1}, "capacity"),
        ({"min_age": -1}, "min_age"),
        ({"pot_share_cents": 12000}, "pot_share_cents"),
        ({"swiss_rounds": 0}, "swiss_rounds"),
        ({"match_length": 0}, "match_length"),
        ({"payout_percent": (50, 30)}, "payout_percent"),
        ({"name": "  "}, "name"),
        ({"venue": ""}, "venue"),
        ({"date": "2026-02-28"}, "date"),  # the start would lie before "now"
    ],
)
def test_invalid_terms_are_rejected_naming_the_field(change: dict[str, object], field: str) -> None:
    plan = TournamentPlan(**{**_plan_fields(SPRING), **change})  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError) as raised:
        scheduled(plan)
    assert raised.value.field == field


@pytest.mark.parametrize(("length", "valid"), [(1, True), (MAX_MATCH_LENGTH, True), (65, False)])
def test_match_lengths_go_up_to_the_longest_match_a_match_accepts(length: int, valid: bool) -> None:
    # the limit comes from the Match ID (gnubg's MAXSCORE, 64), not a second copy of it
    plan = TournamentPlan(**{**_plan_fields(SPRING), "match_length": length})  # type: ignore[arg-type]
    if valid:
        [event] = scheduled(plan)
        assert isinstance(event, TournamentScheduled)
        assert event.match_length == length
    else:
        with pytest.raises(InvalidInputError) as raised:
            scheduled(plan)
        assert raised.value.field == "match_length"


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "01.01.0001"])
def test_a_play_date_outside_the_sane_years_is_invalid_input_not_an_overflow(day: str) -> None:
    # rule CAL-2: the deadlines of 0001-01-01 would lie before the first day Python knows
    plan = TournamentPlan(name="Uralt", date=day, venue="Amberg")
    with pytest.raises(InvalidInputError) as raised:
        scheduled(plan)
    assert raised.value.field == "date"


def _plan_fields(plan: TournamentPlan) -> dict[str, object]:
    return {name: getattr(plan, name) for name in plan.__struct_fields__}


# Registration -------------------------------------------------------------------------------


def test_a_registration_takes_a_seat_and_keeps_only_the_token_hash() -> None:
    [event] = sign_up(given(scheduled()), 1)
    assert isinstance(event, PlayerRegistered)
    assert (event.first_name, event.last_name, event.email, event.age) == (
        "Player1",
        "Muster",
        "player1@example.org",
        30,
    )
    assert event.token_hash == token_hash("token-1")
    assert event.player_id == player(1)


def test_the_twenty_first_registration_goes_to_the_waitlist() -> None:
    # rules T-SEAT-1, T-REG-3
    state = with_players(20)
    assert state.seats_taken == 20
    [event] = sign_up(state, 21)
    assert isinstance(event, RegistrationWaitlisted)


def test_a_full_tournament_without_waitlist_refuses_registrations() -> None:
    # rule T-REG-3: the waitlist is a default, it can be switched off
    plan = TournamentPlan(
        name="Klein", date="2026-04-18", venue="Amberg", capacity=2, waitlist=False
    )
    state = with_players(2, plan)
    with pytest.raises(TournamentFullError):
        sign_up(state, 3)


def test_the_waitlist_holds_twice_the_capacity_by_default() -> None:
    # Anonymous registrations cannot grow a tournament without bound.
    plan = TournamentPlan(name="Klein", date="2026-04-18", venue="Amberg", capacity=4)
    state = with_players(4 + 8, plan)
    assert len(state.waiting()) == 8
    with pytest.raises(WaitlistFullError) as raised:
        sign_up(state, 13)
    assert raised.value.extensions["waitlist_limit"] == 8


def test_the_director_sets_the_waitlist_places_per_tournament() -> None:
    plan = TournamentPlan(
        name="Klein", date="2026-04-18", venue="Amberg", capacity=4, waitlist_limit=1
    )
    state = with_players(5, plan)
    with pytest.raises(WaitlistFullError):
        sign_up(state, 6)


@pytest.mark.parametrize(
    ("age", "birth_date", "field"),
    [
        (17, None, "age"),
        (None, "2008-04-19", "birth_date"),  # turns 18 the day after the play date
    ],
)
def test_an_under_age_registration_is_rejected(
    age: int | None, birth_date: str | None, field: str
) -> None:
    # rule T-REG-1: at least 18 on the play date
    with pytest.raises(UnderAgeError) as raised:
        sign_up(given(scheduled()), 1, age=age, birth_date=birth_date)
    assert raised.value.field == field
    assert raised.value.extensions == {"min_age": 18}


def test_a_player_who_turns_eighteen_on_the_play_date_may_register() -> None:
    # rule T-REG-1
    [event] = sign_up(given(scheduled()), 1, age=None, birth_date="18.04.2008")
    assert isinstance(event, PlayerRegistered)
    assert event.birth_date is not None
    assert event.birth_date.isoformat() == "2008-04-18"


@pytest.mark.parametrize("birth_date", ["05.07.85", "5.7.85", "05.07.1985", "1985-07-05"])
def test_a_birth_date_with_a_two_digit_year_of_the_last_century_is_accepted(
    birth_date: str,
) -> None:
    # rule T-REG-1: "05.07.85" is 1985 (2085 lies after the play date), 40 on 18.04.2026
    [event] = sign_up(given(scheduled()), 1, age=None, birth_date=birth_date)
    assert isinstance(event, PlayerRegistered)
    assert event.birth_date == date(1985, 7, 5)


def test_a_birth_date_with_a_two_digit_year_of_this_century_is_read_as_20yy() -> None:
    # rule T-REG-1: 05.07.08 is 2008, so the person is 17 on the play date
    with pytest.raises(UnderAgeError):
        sign_up(given(scheduled()), 1, age=None, birth_date="05.07.08")


@pytest.mark.parametrize(
    ("age", "birth_date", "field"),
    [
        (None, None, "age"),
        (-1, None, "age"),
        (131, None, "age"),
        (None, "2026-02-30", "birth_date"),  # rule CAL-2
        (None, "2027-01-01", "birth_date"),
        (None, "1899-12-31", "birth_date"),  # rule CAL-2: years 1900..play date
        (None, "0001-01-01", "birth_date"),
        (40, "1990-01-01", "age"),  # contradicts the birth date
    ],
)
def test_age_and_birth_date_are_validated(
    age: int | None, birth_date: str | None, field: str
) -> None:
    with pytest.raises(InvalidInputError) as raised:
        sign_up(given(scheduled()), 1, age=age, birth_date=birth_date)
    assert raised.value.field == field


@pytest.mark.parametrize(
    ("first", "last", "email", "field"),
    [
        ("", "Muster", "a@example.org", "first_name"),
        ("Anna", " ", "a@example.org", "last_name"),
        ("Anna", "Muster", "not-an-address", "email"),
        ("Anna", "Muster", "a@b", "email"),
    ],
)
def test_names_and_email_are_required(first: str, last: str, email: str, field: str) -> None:
    # rule T-REG-1
    with pytest.raises(InvalidInputError) as raised:
        register(
            given(scheduled()),
            registration_id=uuid4(),
            player_id=uuid4(),
            applicant=Applicant(first_name=first, last_name=last, email=email, age=30),
            token_hash="x",
            now=SCHEDULED_AT,
        )
    assert raised.value.field == field


def test_the_same_person_cannot_register_twice() -> None:
    # rule T-REG-2: the player id (the service derives it from the e-mail) identifies the person
    state = with_players(21)
    for registration in (1, 21):  # seated or waiting
        with pytest.raises(DuplicateRegistrationError) as raised:
            sign_up(state, 22, email="Player1@Example.org", person=registration)
        assert raised.value.extensions == {"field": "email"}


def test_a_person_may_register_again_after_cancelling() -> None:
    state = with_players(1)
    state = given(
        [*scheduled(), *sign_up(given(scheduled()), 1)],
        cancel_registration(
            state,
            UUID(int=1),
            by_director=False,
            player_token="token-1",
            now=SCHEDULED_AT,
            actor="player",
        ),
    )
    [event] = sign_up(state, 2, email="player1@example.org", person=1)
    assert isinstance(event, PlayerRegistered)


def test_registration_closes_at_the_start_time() -> None:
    state = given(scheduled())
    with pytest.raises(RegistrationClosedError) as raised:
        sign_up(state, 1, now=datetime(2026, 4, 18, 11, 0, tzinfo=UTC))
    assert raised.value.extensions == {"starts_at": "2026-04-18T13:00:00+02:00"}
    [event] = sign_up(state, 1, now=datetime(2026, 4, 18, 10, 59, tzinfo=UTC))
    assert isinstance(event, PlayerRegistered)


# Cancellation -------------------------------------------------------------------------------


def test_a_cancellation_before_the_deadline_promotes_the_first_waitlisted() -> None:
    # rules T-CANCEL-1, T-REG-3
    state = with_players(22)
    events = cancel_registration(
        state,
        UUID(int=5),
        by_director=False,
        player_token="token-5",
        now=BEFORE_DEADLINE,
        actor="player",
    )
    assert [type(e).__name__ for e in events] == ["RegistrationCancelled", "WaitlistPromoted"]
    assert isinstance(events[1], WaitlistPromoted)
    assert events[1].registration_id == UUID(int=21)
    after = fold(evolve, state, events)
    assert after is not None
    assert after.seats_taken == 20
    assert [r.id for r in after.with_status("waitlisted")] == [UUID(int=22)]


def test_a_cancellation_exactly_at_the_deadline_is_in_time() -> None:
    # rule T-CANCEL-1: "until 18:00"
    [event] = cancel_registration(
        with_players(1),
        UUID(int=1),
        by_director=False,
        player_token="token-1",
        now=DEADLINE,
        actor="player",
    )
    assert isinstance(event, RegistrationCancelled)


def test_a_player_cannot_cancel_after_the_deadline() -> None:
    # rule T-CANCEL-1
    with pytest.raises(CancellationClosedError) as raised:
        cancel_registration(
            with_players(1),
            UUID(int=1),
            by_director=False,
            player_token="token-1",
            now=AFTER_DEADLINE,
            actor="player",
        )
    assert raised.value.extensions == {"cancellation_until": "2026-04-16T18:00:00+02:00"}


def test_the_director_records_a_late_withdrawal_after_the_deadline() -> None:
    # rule T-CANCEL-1: later cancellations only as a late withdrawal by a director
    state = with_players(21)
    events = cancel_registration(
        state,
        UUID(int=3),
        by_director=True,
        player_token=None,
        now=AFTER_DEADLINE,
        actor="director",
        reason="ill",
    )
    assert [type(e) for e in events] == [LateWithdrawalRecorded, WaitlistPromoted]
    assert isinstance(events[0], LateWithdrawalRecorded)
    assert events[0].reason == "ill"
    assert [e.originator_version for e in events] == [state.version + 1, state.version + 2]


def test_leaving_the_waitlist_promotes_nobody() -> None:
    state = with_players(22)
    [event] = cancel_registration(
        state,
        UUID(int=22),
        by_director=False,
        player_token="token-22",
        now=BEFORE_DEADLINE,
        actor="player",
    )
    assert isinstance(event, RegistrationCancelled)


def test_a_waitlisted_person_may_leave_the_waitlist_after_the_deadline() -> None:
    # rule T-CANCEL-1 binds seats: the waitlist holds none, so leaving it is never late
    state = with_players(22)
    [event] = cancel_registration(
        state,
        UUID(int=22),
        by_director=False,
        player_token="token-22",
        now=AFTER_DEADLINE,
        actor="player",
    )
    assert isinstance(event, RegistrationCancelled)
    assert event.refund_cents == 0


def test_a_standby_who_leaves_the_waitlist_gets_the_buy_in_back() -> None:
    state = checked_in(with_players(21), 21)
    [event] = cancel_registration(
        state, UUID(int=21), by_director=False, player_token="token-21", now=CHECK_IN, actor="p"
    )
    assert isinstance(event, RegistrationCancelled)
    assert event.refund_cents == 10000


def test_the_director_withdraws_a_checked_in_player_before_the_start() -> None:
    # rules T-FMT-5, T-CANCEL-1: the seat is released and goes to the first waiting person,
    # here a standby who is checked in already; the pot and round 1 count only who plays
    state = checked_in(with_players(21), 1, 2, 3, 21)
    events = cancel_registration(
        state,
        UUID(int=1),
        by_director=True,
        player_token=None,
        now=CHECK_IN,
        actor="director",
        reason="went home",
    )
    assert [type(e) for e in events] == [LateWithdrawalRecorded, WaitlistPromoted]
    withdrawn, promoted = events
    assert isinstance(withdrawn, LateWithdrawalRecorded)
    assert withdrawn.reason == "went home"
    assert isinstance(promoted, WaitlistPromoted)
    assert (promoted.registration_id, promoted.checked_in) == (UUID(int=21), True)
    after = fold(evolve, state, events)
    assert after is not None
    assert after.registration(UUID(int=1)).status == "withdrawn"
    assert after.seats_taken == 20
    started = start(after, lot_seed=0, now=START, actor="director")[-1]
    assert isinstance(started, TournamentStarted)
    assert (started.players, started.pot_cents) == (3, 24000)  # #2, #3 and #21


def test_a_promotion_during_check_in_seats_a_waitlisted_person_who_is_not_there_yet() -> None:
    # rule T-REG-3: the first waiting person gets the seat; they still have to check in
    state = checked_in(with_players(22), 1, 22)
    events = cancel_registration(
        state, UUID(int=1), by_director=True, player_token=None, now=CHECK_IN, actor="director"
    )
    promoted = events[-1]
    assert isinstance(promoted, WaitlistPromoted)
    assert (promoted.registration_id, promoted.checked_in) == (UUID(int=21), False)


def test_a_player_cannot_withdraw_their_own_checked_in_registration() -> None:
    # rule T-CANCEL-1: after the deadline only the director records a withdrawal
    with pytest.raises(CancellationClosedError):
        cancel_registration(
            checked_in(with_players(2), 1),
            UUID(int=1),
            by_director=False,
            player_token="token-1",
            now=CHECK_IN,
            actor="player",
        )


def test_another_players_token_cannot_cancel_a_registration() -> None:
    with pytest.raises(NotYourRegistrationError):
        cancel_registration(
            with_players(2),
            UUID(int=1),
            by_director=False,
            player_token="token-2",
            now=BEFORE_DEADLINE,
            actor="player",
        )


@pytest.mark.parametrize("token", ["tökén", "\udcff", "token-1 ", ""])
def test_a_token_with_other_characters_is_not_this_registrations(token: str) -> None:
    # API.md: a token that is not this registration's is "403 wrong role", never a crash
    with pytest.raises(NotYourRegistrationError):
        cancel_registration(
            with_players(1),
            UUID(int=1),
            by_director=False,
            player_token=token,
            now=BEFORE_DEADLINE,
            actor="player",
        )


def test_a_cancelled_registration_cannot_be_cancelled_again() -> None:
    state = with_players(1)
    state = (
        fold(
            evolve,
            state,
            cancel_registration(
                state, UUID(int=1), by_director=True, player_token=None, now=SCHEDULED_AT, actor="d"
            ),
        )
        or state
    )
    with pytest.raises(TournamentStateError):
        cancel_registration(
            state, UUID(int=1), by_director=True, player_token=None, now=SCHEDULED_AT, actor="d"
        )


def test_an_unknown_registration_is_not_found() -> None:
    with pytest.raises(RegistrationNotFoundError):
        cancel_registration(
            with_players(1),
            uuid4(),
            by_director=True,
            player_token=None,
            now=SCHEDULED_AT,
            actor="d",
        )


# Check-in and start -------------------------------------------------------------------------


def test_check_in_records_the_id_document_and_the_buy_in() -> None:
    # rules T-CHECKIN-1, T-BUYIN-1
    [event] = check_in(
        with_players(1),
        UUID(int=1),
        id_document_seen=True,
        buy_in_paid_cents=10000,
        now=CHECK_IN,
        actor="director",
    )
    assert isinstance(event, PlayerCheckedIn)
    assert (event.id_document_seen, event.buy_in_paid_cents) == (True, 10000)


def test_check_in_opens_at_half_past_twelve_on_the_play_date() -> None:
    # rule T-CHECKIN-1
    with pytest.raises(CheckInClosedError) as raised:
        check_in(
            with_players(1),
            UUID(int=1),
            id_document_seen=True,
            buy_in_paid_cents=10000,
            now=CHECK_IN - timedelta(seconds=1),
            actor="director",
        )
    assert raised.value.extensions == {"check_in_opens": "2026-04-18T12:30:00+02:00"}


@pytest.mark.parametrize(
    ("seen", "paid", "field"),
    [(False, 10000, "id_document_seen"), (True, 8000, "buy_in_paid_cents")],
)
def test_check_in_needs_an_id_document_and_the_full_buy_in(
    seen: bool, paid: int, field: str
) -> None:
    with pytest.raises(InvalidInputError) as raised:
        check_in(
            with_players(1),
            UUID(int=1),
            id_document_seen=seen,
            buy_in_paid_cents=paid,
            now=CHECK_IN,
            actor="director",
        )
    assert raised.value.field == field


def test_a_waitlisted_person_checks_in_as_a_standby() -> None:
    # rules T-CHECKIN-1, T-CHECKIN-2: on site, ID seen and buy-in paid, waiting for a seat
    [event] = check_in(
        with_players(21),
        UUID(int=21),
        id_document_seen=True,
        buy_in_paid_cents=10000,
        now=CHECK_IN,
        actor="director",
    )
    assert isinstance(event, StandbyCheckedIn)
    assert (event.id_document_seen, event.buy_in_paid_cents) == (True, 10000)
    state = checked_in(with_players(22), 22)
    assert state.registration(UUID(int=22)).status == "standby"
    assert state.seats_taken == 20
    assert [r.id for r in state.waiting()] == [UUID(int=21), UUID(int=22)]
    with pytest.raises(TournamentStateError):
        checked_in(state, 22)  # only once


def test_at_the_start_released_seats_go_to_standbys_in_waitlist_order() -> None:
    # rules T-CHECKIN-2, T-REG-3: 3 seats; #1 and #2 checked in, #3 is a no-show; #4 and #5
    # wait and are on site (#5 checked in first), #6 waits at home
    state = checked_in(with_players(6, CLUB_OF_THREE), 1, 2, 5, 4)
    events = start(state, lot_seed=0, now=START, actor="director")
    assert [(type(e).__name__, e.registration_id) for e in events[:-1]] == [  # type: ignore[union-attr]
        ("NoShowReleased", UUID(int=3)),
        ("WaitlistPromoted", UUID(int=4)),
        ("StandbyNotSeated", UUID(int=5)),
    ]
    promoted, not_seated, started = events[1], events[2], events[3]
    assert isinstance(promoted, WaitlistPromoted)
    assert promoted.checked_in
    assert isinstance(not_seated, StandbyNotSeated)
    assert not_seated.refund_cents == 10000  # the standby's buy-in goes back
    # rule T-BUYIN-1: the pot counts the seated checked-in players only, 80 EUR each
    assert isinstance(started, TournamentStarted)
    assert (started.players, started.pot_cents) == (3, 24000)
    assert [e.originator_version for e in events] == list(
        range(state.version + 1, state.version + 5)
    )
    after = fold(evolve, state, events)
    assert after is not None
    assert [r.id for r in after.with_status("checked_in")] == [UUID(int=n) for n in (1, 2, 4)]
    assert [r.id for r in after.waiting()] == [UUID(int=5), UUID(int=6)]
    assert after.registration(UUID(int=5)).status == "waitlisted"


def test_every_standby_gets_a_seat_when_enough_are_released() -> None:
    # rule T-CHECKIN-2: two no-shows, two standbys; the tournament starts with four seats taken
    state = checked_in(with_players(6, CLUB_OF_FOUR), 2, 3, 6, 5)
    events = start(state, lot_seed=0, now=START, actor="director")
    assert [type(e) for e in events] == [
        NoShowReleased,
        NoShowReleased,
        WaitlistPromoted,
        WaitlistPromoted,
        TournamentStarted,
    ]
    started = events[-1]
    assert isinstance(started, TournamentStarted)
    assert (started.players, started.pot_cents) == (4, 32000)


def test_standbys_count_towards_the_players_needed_to_start() -> None:
    state = checked_in(with_players(3, CLUB_OF_TWO), 1, 3)  # #2 does not come, #3 waits on site
    events = start(state, lot_seed=0, now=START, actor="director")
    started = events[-1]
    assert isinstance(started, TournamentStarted)
    assert started.players == 2


def test_a_player_checks_in_only_once() -> None:
    with pytest.raises(TournamentStateError):
        checked_in(with_players(1), 1, 1)


def test_the_start_releases_no_shows_and_fixes_the_pot() -> None:
    # rules T-CHECKIN-2, T-BUYIN-1: 80 EUR per checked-in player
    state = checked_in(with_players(21), 1, 2, 3, 4, 5)
    events = start(state, lot_seed=0, now=CHECK_IN + timedelta(minutes=30), actor="director")
    released = [e.registration_id for e in events if isinstance(e, NoShowReleased)]
    assert released == [UUID(int=n) for n in range(6, 21)]
    started = events[-1]
    assert isinstance(started, TournamentStarted)
    assert (started.players, started.pot_cents) == (5, 40000)
    after = fold(evolve, state, events)
    assert after is not None
    assert after.seats_taken == 5
    assert after.status(CHECK_IN + timedelta(hours=1)) == "running"


def test_the_tournament_cannot_start_before_check_in_opens() -> None:
    state = checked_in(with_players(2), 1, 2)
    with pytest.raises(TournamentStateError):
        start(state, lot_seed=0, now=CHECK_IN - timedelta(minutes=1), actor="director")


def test_the_tournament_needs_two_checked_in_players_to_start() -> None:
    with pytest.raises(TournamentStateError) as raised:
        start(checked_in(with_players(3), 1), lot_seed=0, now=CHECK_IN, actor="director")
    assert raised.value.extensions == {"checked_in": 1}


def test_nothing_changes_registrations_once_the_tournament_runs() -> None:
    state = checked_in(with_players(3), 1, 2)
    state = fold(evolve, state, start(state, lot_seed=0, now=CHECK_IN, actor="director")) or state
    with pytest.raises(TournamentStateError):
        start(state, lot_seed=0, now=CHECK_IN, actor="director")
    with pytest.raises(RegistrationClosedError):
        sign_up(state, 4, now=CHECK_IN)
    with pytest.raises(TournamentStateError):
        cancel_registration(
            state, UUID(int=1), by_director=True, player_token=None, now=CHECK_IN, actor="d"
        )
    with pytest.raises(CheckInClosedError):
        checked_in(state, 3)


# Status and history -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "status"),
    [
        (SCHEDULED_AT, "open"),
        (DEADLINE, "open"),
        (AFTER_DEADLINE, "cancellation_closed"),
        (CHECK_IN, "check_in"),
        (CHECK_IN + timedelta(hours=2), "check_in"),  # until the director starts it
    ],
)
def test_the_status_follows_the_clock_before_the_start(now: datetime, status: str) -> None:
    assert given(scheduled()).status(now) == status


def test_a_completed_tournament_says_so() -> None:
    state = given(
        scheduled(),
        [
            TournamentCompleted(
                originator_id=TOURNAMENT, originator_version=2, timestamp=CHECK_IN, actor="d"
            )
        ],
    )
    assert state.status(CHECK_IN) == "completed"


def test_a_season_id_is_not_a_tournament() -> None:
    season_created = SeasonCreated(
        originator_id=TOURNAMENT,
        originator_version=1,
        timestamp=SCHEDULED_AT,
        name="Saison",
        starts_on=SCHEDULED_AT.date(),
        ends_on=SCHEDULED_AT.date(),
    )
    with pytest.raises(TournamentNotFoundError):
        evolve(None, season_created)  # type: ignore[arg-type]


def test_public_names_show_the_initial_of_the_last_name() -> None:
    assert display_name("Anna", "Maier") == "Anna M."
