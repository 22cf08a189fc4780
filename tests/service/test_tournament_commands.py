"""Tournament commands over the event store: the state they save, snapshots, player tokens."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from uuid import UUID, uuid5
from zoneinfo import ZoneInfo

import msgspec
import pytest

from domain import tournament as tournaments
from domain.errors import InvalidInputError
from domain.tournament import (
    Applicant,
    DuplicateRegistrationError,
    NotYourRegistrationError,
    Tournament,
    TournamentPlan,
)
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.tournaments import TournamentService
from service.settings import Settings
from service.shared.registrants import PLAYER_NAMESPACE, Registrants, Registration, player_id_for
from service.storage.events import Change
from service.storage.secret import derived_key

BERLIN = ZoneInfo("Europe/Berlin")
SPRING = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")


@pytest.fixture
def services(tmp_path: Path, database_url: str | None) -> Iterator[Services]:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    settings = Settings(data_dir=tmp_path, database_url=database_url, dev=True, run_scheduler=False)
    built = bootstrap(settings, clock)
    yield built
    built.close()


def schedule(services: Services) -> UUID:
    return services.tournaments.schedule_tournament(SPRING).id


def spieler(number: int, email: str | None = None) -> Applicant:
    """Player ``number`` as they fill in the form (by default with their own address)."""
    return Applicant(
        first_name=f"Vorname{number}",
        last_name=f"Nachname{number}",
        email=email or f"spieler{number}@example.org",
        age=30,
    )


def register(services: Services, tournament_id: UUID, number: int) -> Registration:
    return services.tournaments.register(tournament_id, spieler(number))


def test_a_command_leaves_the_state_it_decided_in_the_store(services: Services) -> None:
    # the next command starts from it: no eviction and no reload of the whole stream
    tournament_id = schedule(services)
    receipt = register(services, tournament_id, 1)
    cached = services.store.states.get(tournament_id)
    assert isinstance(cached, Tournament)
    assert cached.version == 2
    assert cached.registration(receipt.registration_id).status == "registered"
    services.tournaments.cancel_registration(
        tournament_id, receipt.registration_id, player_token=None, by_director=True
    )
    cached = services.store.states.get(tournament_id)
    assert isinstance(cached, Tournament)
    assert cached.version == 3
    assert cached.registration(receipt.registration_id).status == "cancelled"


def test_a_cancellation_that_passes_version_100_leaves_its_snapshot(services: Services) -> None:
    # 98 sign up (versions 2..99): the cancellation is version 100, the promotion 101
    long_waitlist = msgspec.structs.replace(SPRING, waitlist_limit=100)
    tournament_id = services.tournaments.schedule_tournament(long_waitlist).id
    receipts = [register(services, tournament_id, n) for n in range(98)]
    result = services.tournaments.cancel_registration(
        tournament_id,
        receipts[0].registration_id,
        player_token=receipts[0].player_token,
        by_director=False,
    )
    assert result.promoted_registration_id == receipts[20].registration_id
    assert services.store.snapshots is not None
    [snapshot] = list(services.store.snapshots.get(tournament_id))
    assert snapshot.originator_version == 100


@pytest.mark.parametrize("token", ["tökén", "\udcff", "Bearer x"])
def test_a_foreign_token_with_any_characters_is_refused_as_not_yours(
    services: Services, token: str
) -> None:
    # API.md: "403 wrong role"; a token that cannot even be encoded is no crash either
    tournament_id = schedule(services)
    receipt = register(services, tournament_id, 1)
    with pytest.raises(NotYourRegistrationError):
        services.tournaments.cancel_registration(
            tournament_id, receipt.registration_id, player_token=token, by_director=False
        )


def test_a_player_id_cannot_be_computed_from_the_e_mail_address(services: Services) -> None:
    # The public participant list shows player ids: a uuid5 of the address with the namespace
    # from the source code would tell anyone whether that address is registered.
    receipt = register(services, schedule(services), 1)
    public = uuid5(PLAYER_NAMESPACE, "spieler1@example.org")
    assert receipt.player_id != public
    keyed = TournamentService(
        services.store,
        services.views,
        services.clock,
        BERLIN,
        registrants=Registrants(
            services.store,
            services.views,
            player_key=derived_key(b"another secret", "player ids"),
        ),
    )
    other = keyed.register(schedule(services), spieler(1))
    assert other.player_id not in {public, receipt.player_id}


def test_a_person_keeps_one_player_id_across_tournaments(services: Services) -> None:
    # rule T-REG-2 and the season ranking: the e-mail address, whatever its case, is the person
    first = register(services, schedule(services), 1)
    second = services.tournaments.register(
        schedule(services), spieler(1, email=" SPIELER1@Example.org")
    )
    assert second.player_id == first.player_id


def test_the_same_address_in_another_case_is_a_duplicate(services: Services) -> None:
    # rule T-REG-2
    tournament_id = schedule(services)
    register(services, tournament_id, 1)
    with pytest.raises(DuplicateRegistrationError):
        services.tournaments.register(tournament_id, spieler(1, email="Spieler1@EXAMPLE.org "))


def test_player_ids_are_keyed_with_the_server_key() -> None:
    email = "spieler1@example.org"
    one, two = derived_key(b"one", "player ids"), derived_key(b"two", "player ids")
    assert player_id_for(one, email) == player_id_for(one, " Spieler1@Example.ORG")
    assert player_id_for(one, email) != player_id_for(two, email)


def anna(email: str) -> Applicant:
    """Anna, registering with ``email``."""
    return Applicant(first_name="Anna", last_name="M", email=email, age=30)


def register_as(services: Services, tournament_id: UUID, email: str) -> Registration:
    return services.tournaments.register(tournament_id, anna(email))


def test_fullwidth_letters_give_the_same_person(services: Services) -> None:
    # rule T-REG-2: NFKC before the case: "ａｎｎａ" is "anna"
    tournament_id = schedule(services)
    first = register_as(services, tournament_id, "anna@example.org")
    with pytest.raises(DuplicateRegistrationError) as raised:
        register_as(services, tournament_id, "ＡＮＮＡ@example.org")
    assert "anna" not in raised.value.detail.lower()
    assert "example" not in raised.value.detail
    other = register_as(services, schedule(services), "ａｎｎａ@Example.org")
    assert other.player_id == first.player_id


def test_an_address_is_lowercased_but_not_casefolded(services: Services) -> None:
    # straße and strasse are two mailboxes, so two people
    tournament_id = schedule(services)
    strasse = register_as(services, tournament_id, "strasse@example.org")
    strasze = register_as(services, tournament_id, "STRAßE@example.org")
    assert strasse.player_id != strasze.player_id
    with pytest.raises(DuplicateRegistrationError):
        register_as(services, tournament_id, "straße@Example.org")


@pytest.mark.parametrize(
    "invisible",
    [
        *("\u200b", "\u200d", "\u2060", "\ufeff", "\u202e", "\x00", "\x1b", "\u034f"),
        *("\u2800", "\u3164", "\u115f", "\uffa0", "\u2028", "\u2029", "\u00a0", "\u3000"),
    ],
)
def test_an_address_with_an_invisible_character_is_refused(
    services: Services, invisible: str
) -> None:
    with pytest.raises(InvalidInputError) as raised:
        register_as(services, schedule(services), f"an{invisible}na@example.org")
    assert raised.value.field == "email"
    assert "anna" not in raised.value.detail


def test_an_address_differing_only_by_a_braille_blank_is_no_new_person(
    services: Services,
) -> None:
    # rule T-REG-5: U+2800 (category So) renders as a blank: "anna⠀@…" would read as Anna's
    tournament_id = schedule(services)
    register_as(services, tournament_id, "anna@example.org")
    with pytest.raises(InvalidInputError) as raised:
        register_as(services, tournament_id, "anna\u2800@example.org")
    assert raised.value.field == "email"
    assert "invisible" in raised.value.message
    assert "anna" not in raised.value.detail
    services.views.catch_up()
    assert len(services.tournaments.list_registrations(tournament_id)) == 1


@pytest.mark.parametrize(
    "address",
    [
        "anna@[127.0.0.1]",
        "anna@127.0.0.1",
        "anna@[IPv6:::1]",
        "anna@[IPv6:2001:db8::1]",
        "anna@[IPv6:::ffff:127.0.0.1]",
        "anna@127.1",  # resolvers read it as 127.0.0.1
        "anna@0x7f.0.0.1",
        "anna@\uff11\uff12\uff17.0.0.1",  # fullwidth digits: 127.0.0.1 after NFKC
    ],
)
def test_an_address_at_an_ip_literal_is_refused(services: Services, address: str) -> None:
    # rule T-REG-5: a mail domain, not a host's address
    with pytest.raises(InvalidInputError) as raised:
        register_as(services, schedule(services), address)
    assert raised.value.field == "email"
    assert raised.value.message == "must name a mail domain, not an IP address"
    assert "anna" not in raised.value.detail


@pytest.mark.parametrize(
    "address",
    [
        '"anna"@example.org',  # RFC 5321: the same mailbox as anna@example.org
        '"anna smith"@example.org',
        "anna(comment)@example.org",  # RFC 5322 comments: read as anna@example.org
        "(comment)anna@example.org",
        "anna\\@example.org",
        "anna,bert@example.org",
        "anna<bert@example.org",
        "anna;bert@example.org",
    ],
)
def test_a_local_part_beyond_letters_digits_and_the_plain_symbols_is_refused(
    services: Services, address: str
) -> None:
    # rules T-REG-2, C-EXCL-1: one mailbox spelled two ways would be two people (a second
    # seat, a ban dodged); quotes and comments are the ways an address spells its mailbox anew
    with pytest.raises(InvalidInputError) as raised:
        register_as(services, schedule(services), address)
    assert raised.value.field == "email"
    assert "quotes" in raised.value.message
    assert "anna" not in raised.value.detail


def test_a_local_part_of_the_plain_symbols_and_letters_beyond_ascii_is_kept(
    services: Services,
) -> None:
    tournament_id = schedule(services)
    for address in (
        "anna.m+club@example.org",
        "o'brien@example.org",
        "zoë@example.org",
        "a!#$%&*/=?^_`{|}~-b@example.org",
    ):
        assert register_as(services, tournament_id, address).status == "registered"


def test_an_address_at_a_domain_with_digits_is_kept(services: Services) -> None:
    tournament_id = schedule(services)
    for address in ("anna@127.example.org", "bert@1and1.de", "carl@xn--p1ai.xn--p1ai"):
        assert register_as(services, tournament_id, address).status == "registered"


def test_a_registration_keyed_before_nfkc_still_counts_as_a_duplicate(
    services: Services,
) -> None:
    # Registrations stored before the change carry another id (from the casefolded address):
    # the check also finds them by their address.
    tournament_id = schedule(services)
    key = derived_key(b"any", "player ids")
    tournament_service = TournamentService(
        services.store,
        services.views,
        services.clock,
        BERLIN,
        registrants=Registrants(services.store, services.views, player_key=key),
    )
    state = services.store.load(tournament_id, tournaments.evolve)
    events = tournaments.register(
        state,
        registration_id=uuid5(PLAYER_NAMESPACE, "old"),
        player_id=uuid5(PLAYER_NAMESPACE, "casefolded: strasse@example.org"),
        applicant=anna("Straße@example.org"),
        token_hash="0" * 64,
        now=services.clock.now(),
    )
    services.store.save_changes([Change.of(tournaments.evolve, state, events)])
    services.views.catch_up()
    with pytest.raises(DuplicateRegistrationError):
        tournament_service.register(tournament_id, anna("straße@example.org"))


def test_a_person_under_18_on_the_play_date_is_refused_and_one_turning_18_that_day_registered(
    services: Services,
) -> None:
    # rule T-REG-1: minimum age 18 at the play date (18.04.2026), by age or by birth date
    tournament_id = schedule(services)
    young = msgspec.structs.replace(spieler(1), age=None, birth_date="2008-04-19")
    for applicant, field in (
        (msgspec.structs.replace(spieler(1), age=17), "age"),
        (young, "birth_date"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            services.tournaments.register(tournament_id, applicant)
        assert refused.value.field == field
    assert services.tournaments.list_registrations(tournament_id) == []  # nothing recorded

    of_age = msgspec.structs.replace(spieler(1), age=None, birth_date="2008-04-18")
    receipt = services.tournaments.register(tournament_id, of_age)
    assert receipt.status == "registered"
    [row] = services.tournaments.list_registrations(tournament_id)
    assert (row.registration_id, row.birth_date) == (receipt.registration_id, date(2008, 4, 18))
