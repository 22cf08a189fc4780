"""Registration, cancellation, check-in and the start (DOMAIN.md section 2)."""

# Rules T-SEAT-1, T-REG-1..3, T-CANCEL-1, T-CHECKIN-1..2, T-BUYIN-1.

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from datetime import date, datetime
from uuid import UUID

import msgspec

from domain.calendar import (
    age_on,
    parse_birth_date,
)
from domain.errors import InvalidInputError
from domain.events import EventBatch
from domain.people.director import is_director_actor
from domain.people.tokens import token_matches
from domain.text import free_text, is_invisible, visible_name
from domain.tournament.defaults import (
    _EMAIL,
    ACTIVE,
    MAX_AGE,
    MAX_PERSON_NAME_LENGTH,
    MIN_PLAYERS_TO_START,
    ROUND_ROBIN_TIEBREAKS,
    SEAT_HOLDING,
    TIEBREAKS,
    WAITING,
)
from domain.tournament.errors import (
    BannedError,
    CancellationClosedError,
    CheckInClosedError,
    DuplicateRegistrationError,
    NotYourRegistrationError,
    RegistrationClosedError,
    TournamentFullError,
    TournamentStateError,
    UnderAgeError,
    WaitlistFullError,
)
from domain.tournament.events import (
    LateWithdrawalRecorded,
    NoShowReleased,
    PlayerCheckedIn,
    PlayerRegistered,
    RegistrationCancelled,
    RegistrationWaitlisted,
    StandbyCheckedIn,
    StandbyNotSeated,
    TournamentEvent,
    TournamentStarted,
    WaitlistPromoted,
)
from domain.tournament.formats import Ranks, require_late_entry_open, starting_numbers
from domain.tournament.rounds import playable_swiss_rounds
from domain.tournament.state import Registration, Tournament


class Applicant(msgspec.Struct, frozen=True, kw_only=True):
    """A person as they ask to register: the form's fields, checked by ``check_registrant``
    (rule T-REG-1)."""

    first_name: str
    last_name: str
    email: str
    age: int | None = None
    birth_date: str | None = None
    """As typed: parsed against the play date when checked."""
    language: str = "de"
    """The language of the person's mails (rule P-MAIL-1)."""


def register(
    state: Tournament,
    *,
    registration_id: UUID,
    player_id: UUID,
    applicant: Applicant,
    token_hash: str,
    now: datetime,
    actor: str = "public",
    banned_until: date | None = None,
    also_known_as: Collection[UUID] = (),
) -> list[TournamentEvent]:
    """A seat while one is free, else a place on the waitlist (rules T-REG-1..3, T-SEAT-1).

    ``banned_until``: the end of the season whose director banned the person, if so.
    ``player_id`` identifies the person (the service derives it from the applicant's e-mail with a
    server key, so that it is stable across tournaments but not computable by others).
    The seat count is decided here, on the aggregate's own version: two registrations decided
    on the same version cannot both be stored, so the capacity can never be exceeded.
    ``also_known_as``: other ids the same address had under an earlier derivation.
    """
    person = check_registrant(state, applicant, now=now, actor=actor, banned_until=banned_until)
    # rule T-REG-2: one active registration per person (the player id identifies them).
    # No answer names an address: it would tell a stranger who is registered.
    same_person = {player_id, *also_known_as}
    if any(r.player_id in same_person and r.status in ACTIVE for r in state.registrations):
        raise DuplicateRegistrationError(
            "this e-mail address is already registered for this tournament", field="email"
        )
    has_seat = state.seats_taken < state.capacity
    if not has_seat and not state.waitlist:
        raise TournamentFullError(f"all {state.capacity} seats are taken", capacity=state.capacity)
    # A bounded waitlist bounds what anonymous registrations can store.
    places = 2 * state.capacity if state.waitlist_limit is None else state.waitlist_limit
    if not has_seat and len(state.waiting()) >= places:
        raise WaitlistFullError(
            f"all {state.capacity} seats and all {places} waitlist places are taken",
            capacity=state.capacity,
            waitlist_limit=places,
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        PlayerRegistered if has_seat else RegistrationWaitlisted,
        registration_id=registration_id,
        player_id=player_id,
        age=applicant.age,
        token_hash=token_hash,
        # the person's data as checked: names, address, birth date, language
        **msgspec.structs.asdict(person),
    )
    return batch.events


class Registrant(msgspec.Struct, frozen=True, kw_only=True):
    """A person's registration data, checked against the tournament's rules: the registration's
    event records each field by its name."""

    first_name: str
    last_name: str
    email: str
    birth_date: date | None
    language: str


LANGUAGES = ("de", "en")
"""The languages of mails and pages: German by default (rule P-MAIL-1)."""


def check_registrant(
    state: Tournament,
    applicant: Applicant,
    *,
    now: datetime,
    actor: str,
    banned_until: date | None,
) -> Registrant:
    """What a registration needs besides a free place (rules T-REG-1, C-EXCL-1): valid data,
    the minimum age, no ban, and a tournament that has not started. Checked when a person asks
    to register (rule P-MAIL-1), without ``banned_until`` (a ban is told only to whoever
    follows the mail's link), and again, with it, when the registration is decided."""
    first = visible_name("first_name", applicant.first_name, MAX_PERSON_NAME_LENGTH)
    last = visible_name("last_name", applicant.last_name, MAX_PERSON_NAME_LENGTH)
    address = _email(applicant.email)
    if applicant.language not in LANGUAGES:
        raise InvalidInputError("language", f"must be one of {', '.join(LANGUAGES)}")
    born = _check_age(state, applicant.age, applicant.birth_date, now)
    if banned_until is not None:
        # rule C-EXCL-1: a banned repeat offender plays no further tournament of the season
        raise BannedError(
            f"this person is banned from the season's tournaments until {banned_until}",
            until=banned_until.isoformat(),
        )
    # a director registers a late entry after the start, until the tournament is completed
    late = is_director_actor(actor) and state.completed_at is None
    if state.started_at is not None and not late:
        # the director may start before the latest start: the message names the real instant
        started = state.local(state.started_at)
        raise RegistrationClosedError(
            f"registration closed when the tournament started ({started})",
            started_at=started,
            starts_at=state.local(state.starts_at),  # the field this answer always had
        )
    if now >= state.starts_at and not late:
        latest = state.local(state.starts_at)
        raise RegistrationClosedError(
            f"registration closed at the latest start ({latest})", starts_at=latest
        )
    return Registrant(
        first_name=first,
        last_name=last,
        email=address,
        birth_date=born,
        language=applicant.language,
    )


def cancel_registration(
    state: Tournament,
    registration_id: UUID,
    *,
    by_director: bool,
    player_token: str | None,
    now: datetime,
    actor: str,
    reason: str = "",
) -> list[TournamentEvent]:
    """Cancel (Abmeldung) until the deadline; afterwards only the director, as a late withdrawal.

    rule T-CANCEL-1: players may cancel a seat until the Thursday before, 18:00 local time;
    the waitlist holds no seat, so leaving it is possible until the start.
    rule T-FMT-5: until the start the director may also withdraw a checked-in player, so that
    the pot and round 1 count only who plays.
    rule T-REG-3: a freed seat goes to the first person on the waitlist.
    After the start only a late registration not admitted to the field is cancelled (see
    ``_cancel_late_registration``); the field's registrations are withdrawn instead.
    """
    reason = free_text("reason", reason)
    registration = state.registration(registration_id)
    if not by_director and not (
        player_token and token_matches(player_token, registration.token_hash)
    ):
        raise NotYourRegistrationError("this player token does not belong to the registration")
    if state.started_at is not None:
        return _cancel_late_registration(
            state, registration, by_director=by_director, now=now, actor=actor
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    if registration.status in WAITING:
        batch.add(
            RegistrationCancelled,
            registration_id=registration_id,
            refund_cents=state.buy_in_cents if registration.status == "standby" else 0,
        )
        return batch.events
    if registration.status not in SEAT_HOLDING:
        raise TournamentStateError(
            f"the registration is {registration.status.replace('_', ' ')}",
            registration_status=registration.status,
        )
    late = now > state.cancellation_until or registration.status == "checked_in"
    if late and not by_director:
        until = state.local(state.cancellation_until)
        raise CancellationClosedError(
            f"cancellation was possible until {until}; ask the tournament director",
            cancellation_until=until,
        )
    if late:
        batch.add(LateWithdrawalRecorded, registration_id=registration_id, reason=reason)
    else:
        batch.add(RegistrationCancelled, registration_id=registration_id)
    if waiting := state.waiting():
        batch.add(
            WaitlistPromoted,
            registration_id=waiting[0].id,
            checked_in=waiting[0].status == "standby",
        )
    return batch.events


def _cancel_late_registration(
    state: Tournament,
    registration: Registration,
    *,
    by_director: bool,
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """rule T-CANCEL-1 after the start: a registration made after it holds no seat in the field
    until admitted (as the waitlist holds none until the start), so it is cancelled; a
    registration of the field (made before the start, or admitted) is withdrawn instead.

    Its player cancels while it is not checked in; the director in any status short of
    admitted, a checked-in one with its buy-in handed back (rules T-CHECKIN-1, T-BUYIN-1: never
    admitted, it added nothing to the pot). Nobody is promoted (rule T-REG-3: the start closed
    the waitlist; a late entry is seated by its admission).
    """
    late = registration.sequence > state.started_version
    if not late or registration.player_id in state.field:
        raise TournamentStateError(
            "the tournament is running: record a withdrawal instead of a cancellation"
        )
    if registration.status not in ACTIVE:
        raise TournamentStateError(
            f"the registration is {registration.status.replace('_', ' ')}",
            registration_status=registration.status,
        )
    paid = registration.status in ("checked_in", "standby")
    if paid and not by_director:
        raise CancellationClosedError(
            "the buy-in is paid, the registration checked in: ask the tournament director",
            registration_status=registration.status,
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        RegistrationCancelled,
        registration_id=registration.id,
        # the buy-in as the check-in took it: it is refused unless equal to this (check_in)
        refund_cents=state.buy_in_cents if paid else 0,
    )
    return batch.events


def check_in(
    state: Tournament,
    registration_id: UUID,
    *,
    id_document_seen: bool,
    buy_in_paid_cents: int,
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """rule T-CHECKIN-1: on site from the opening time, ID document seen, buy-in paid.

    A registered player checks in for their seat; a waitlisted person as a standby. After the
    start only a late entry checks in (rule T-BUYIN-1: their seat joins the pot).
    """
    if id_document_seen is not True:
        raise InvalidInputError("id_document_seen", "a valid ID document must be seen")
    if buy_in_paid_cents != state.buy_in_cents:
        raise InvalidInputError(
            "buy_in_paid_cents",
            f"the buy-in is {state.buy_in_cents} cents, not {buy_in_paid_cents}",
            buy_in_cents=state.buy_in_cents,
        )
    registration = state.registration(registration_id)
    # a late entry (registered after the start) checks in on arrival: ID seen, buy-in paid
    late_entry = state.started_at is not None and registration.sequence > state.started_version
    if state.completed_at is not None or (state.started_at is not None and not late_entry):
        raise CheckInClosedError("check-in closed when the tournament started")
    if late_entry:
        require_late_entry_open(state)
    if now < state.check_in_opens:
        opens = state.local(state.check_in_opens)
        raise CheckInClosedError(f"check-in opens at {opens}", check_in_opens=opens)
    if registration.status not in ("registered", "waitlisted"):
        raise TournamentStateError(
            f"only a registered or waitlisted person can check in; this one is "
            f"{registration.status.replace('_', ' ')}",
            registration_status=registration.status,
        )
    # rule T-CHECKIN-2: a waitlisted person on site checks in as a standby for a released seat
    # (before the start; a late entry is seated by its admission, not by a released seat)
    standby = registration.status == "waitlisted" and not late_entry
    recorded = StandbyCheckedIn if standby else PlayerCheckedIn
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        recorded,
        registration_id=registration_id,
        id_document_seen=True,
        buy_in_paid_cents=buy_in_paid_cents,
    )
    return batch.events


def start(
    state: Tournament, *, lot_seed: int, now: datetime, actor: str, season_ranks: Ranks = None
) -> list[TournamentEvent]:
    """Begin play with the checked-in players; the pot is fixed (rule T-BUYIN-1).

    ``lot_seed`` draws the lot of the standings' last ties (rule T-FMT-3), recorded in the
    event. Round 1 is paired by ``rounds.pair_next_round`` right after. ``season_ranks``: the
    season ranking at the start, by player, for a round robin seeded by ranking (T-FMT-11).

    rule T-CHECKIN-2: registered players who did not check in are no-shows, their seats are
    released; rule T-REG-3: released seats go to the standbys (waitlisted, checked in on site)
    in waitlist order. Standbys left without a seat stay waitlisted and get the buy-in back.
    """
    if state.started_at is not None:
        raise TournamentStateError("the tournament has already started")
    if now < state.check_in_opens:
        opens = state.local(state.check_in_opens)
        raise TournamentStateError(
            f"the tournament can start once check-in has opened ({opens})", check_in_opens=opens
        )
    checked_in = len(state.with_status("checked_in"))
    standbys = state.with_status("standby")
    seated = standbys[: state.capacity - checked_in]
    players = checked_in + len(seated)
    if players < MIN_PLAYERS_TO_START:
        raise TournamentStateError(
            f"{players} player(s) checked in; at least {MIN_PLAYERS_TO_START} are needed",
            checked_in=players,
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    for registration in state.with_status("registered"):
        batch.add(NoShowReleased, registration_id=registration.id)
    for registration in seated:
        batch.add(WaitlistPromoted, registration_id=registration.id, checked_in=True)
    for registration in standbys[len(seated) :]:
        batch.add(
            StandbyNotSeated, registration_id=registration.id, refund_cents=state.buy_in_cents
        )
    field = tuple(r.player_id for r in (*state.with_status("checked_in"), *seated))
    round_robin, swiss = state.format == "round_robin", state.format == "swiss"
    batch.add(
        TournamentStarted,
        players=players,
        pot_cents=players * state.pot_share_cents,
        swiss_rounds=playable_swiss_rounds(state.swiss_rounds, players) if swiss else 0,
        lot_seed=lot_seed,
        field=field,
        # the rules are copied into the start: a later change of a setting changes nothing here
        payout_percent=state.payout_percent,
        match_length=state.match_length,
        knockout_lengths=state.knockout_lengths,
        pot_share_cents=state.pot_share_cents,
        tiebreaks=ROUND_ROBIN_TIEBREAKS if round_robin else TIEBREAKS,
        format=state.format,
        knockout_players=state.knockout_players,
        round_robin_cycles=state.round_robin_cycles,
        seeding=state.seeding,
        **msgspec.structs.asdict(state.variants),
        # rule T-FMT-11, T-FMT-12: Berger numbers or bracket seeds are given and recorded
        **starting_numbers(state, field, lot_seed, season_ranks),
    )
    return batch.events


def display_name(first_name: str, last_name: str) -> str:
    """The public form of a name: "Anna M." (no further personal data in public lists)."""
    return f"{first_name} {last_name[:1]}." if last_name else first_name


def _check_age(
    state: Tournament, age: int | None, birth_date: str | None, now: datetime
) -> date | None:
    """rule T-REG-1: age (or birth date) is required; at least ``min_age`` on the play date."""
    if age is None and birth_date is None:
        raise InvalidInputError("age", "give age or birth_date")
    if age is not None and not 0 <= age <= MAX_AGE:
        raise InvalidInputError("age", f"must be between 0 and {MAX_AGE}")
    born = (
        parse_birth_date("birth_date", birth_date, state.play_date)
        if birth_date is not None
        else None
    )
    if born is not None:
        if born > now.date():
            raise InvalidInputError("birth_date", f"{born} lies in the future")
        age_at_play = age_on(born, state.play_date)
        if age_at_play > MAX_AGE:
            raise InvalidInputError("birth_date", f"{born} is not plausible")
        # a stated age must agree with the birth date, today or on the play date
        if age is not None and age not in (age_on(born, now.date()), age_at_play):
            raise InvalidInputError(
                "age", f"does not match birth_date {born} ({age_at_play} on the play date)"
            )
        if age_at_play < state.min_age:
            raise UnderAgeError(
                "birth_date",
                f"participants must be at least {state.min_age} on {state.play_date}",
                min_age=state.min_age,
            )
    elif age is not None and age < state.min_age:
        raise UnderAgeError(
            "age",
            f"participants must be at least {state.min_age} on {state.play_date}; "
            f"if you turn {state.min_age} by then, give birth_date instead",
            min_age=state.min_age,
        )
    return born


def email_key(address: str) -> str:
    """What identifies a person's address: NFKC-normalised (fullwidth letters are the plain
    ones), then lowercased. Not casefolded: ``straße`` and ``strasse`` are two mailboxes."""
    return unicodedata.normalize("NFKC", address.strip()).lower()


def _email(text: str) -> str:
    """The address as typed (trimmed); rule T-REG-5: invisible characters would make one
    mailbox look like several, so they are refused, and so is a domain that is an IP
    address. The answer never repeats the address."""
    address = text.strip()
    if any(is_invisible(character) for character in address):
        raise InvalidInputError(
            "email", "must not contain control, format, zero-width or other invisible characters"
        )
    local, at, domain = address.rpartition("@")
    if at and _is_ip_literal(domain):
        raise InvalidInputError("email", "must name a mail domain, not an IP address")
    if any(character in _QUOTING for character in local):
        # rules T-REG-2, C-EXCL-1: "anna"@ and anna(note)@ reach anna@'s mailbox, yet would
        # key another person (a second seat, a season ban dodged)
        raise InvalidInputError(
            "email",
            "write the part before the @ without quotes, comments or the characters "
            '( ) < > [ ] , ; : \\ "',
        )
    if any(character in _QUOTING for character in domain):
        # the same around the domain (RFC 5322 3.4.1: a comment may stand on either side of
        # it): anna@example.org(note) is sent to anna@example.org (our own mailer drops it)
        raise InvalidInputError(
            "email",
            'write the part after the @ without comments or the characters ( ) < > [ ] , ; : \\ "',
        )
    if len(address) > 254 or not _EMAIL.fullmatch(address):
        raise InvalidInputError("email", "is not an e-mail address")
    return address


_QUOTING = frozenset('"(),:;<>[\\]')
"""What a local part holds only quoted or as a comment (RFC 5322 specials but ``@`` and ``.``):
quoting spells an existing mailbox anew (``"anna"`` is ``anna``, RFC 5321 4.1.2), a comment
is dropped by mail servers that read it; a domain holds them only as a comment (or as a
domain literal's brackets: an IP literal is refused before)."""


def _is_ip_literal(domain: str) -> bool:
    """Whether ``domain`` names a host by its address: an address literal in brackets
    (RFC 5321 4.1.3: ``[127.0.0.1]``, ``[IPv6:::1]``), or a dotted address in any spelling a
    resolver takes (``127.0.0.1``, ``127.1``, ``0x7f.1``). A host name's last label, the
    top-level domain, begins with a letter (RFC 1123 2.1; every top-level domain does), an
    address's last part with a digit. Compared as the person is keyed (NFKC: fullwidth
    digits are digits)."""
    domain = unicodedata.normalize("NFKC", domain)
    top_level = domain.rpartition(".")[2]
    return domain.startswith("[") or top_level[:1].isdigit()
