"""The outbox against a local SMTP sink (aiosmtpd): one mail per event, also across a crash
between the event and the send; a refusing server is retried with back-off and shown."""

# rule P-MAIL-1: mail goes through an outbox that survives restarts and never sends twice.

from __future__ import annotations

import stat
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

import pytest

from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.registration.requests import RegistrationRequestService
from service.settings import Settings
from service.shared.commands import CommandRunner
from service.storage.mail_ledger import CLAIM_TIMEOUT, MailLedger
from tests.mailbox import body_of, links_in, read_mails, token_in
from tests.smtp_sink import Sink, sink

__all__ = ["sink"]  # the fixture, used by name

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
CANCELLATION_CLOSED = datetime(2026, 4, 16, 16, 0, 1, tzinfo=UTC)  # 18:00:01 in Berlin


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(NOW, ticking=False)


def build(data_dir: Path, clock: MovableClock, smtp_url: str | None) -> Services:
    settings = Settings(data_dir=data_dir, dev=True, run_scheduler=False, smtp_url=smtp_url)
    return bootstrap(settings, clock)


@pytest.fixture
def services(tmp_path: Path, clock: MovableClock, sink: Sink) -> Iterator[Services]:
    built = build(tmp_path, clock, sink.url)
    yield built
    built.close()


def schedule(services: Services, capacity: int = 20) -> UUID:
    plan = TournamentPlan(
        name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg", capacity=capacity
    )
    return services.tournaments.schedule_tournament(plan).id


def ask(services: Services, tournament_id: UUID, number: int, language: str = "de") -> None:
    services.requests.request(
        tournament_id,
        Applicant(
            first_name=f"Vorname{number}",
            last_name=f"Nachname{number}",
            email=f"spieler{number}@example.org",
            age=30,
            language=language,
        ),
    )


def kinds(services: Services) -> dict[str, str]:
    return {mail.id: mail.kind for mail in services.outbox.list()}


def sent_kinds(services: Services, sink: Sink) -> Counter[str]:
    by_id = kinds(services)
    return Counter(by_id[str(message["X-Bgtd-Outbox-Id"])] for message in sink.messages)


def test_every_event_that_mails_somebody_sends_exactly_one_mail(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    tournament = schedule(services, capacity=2)
    ask(services, tournament, 1)
    assert services.outbox.send_due() == 1
    [link] = [link for link in links_in(sink.messages[0]) if "/registrations/confirm" in link]
    confirmed = services.requests.confirm(token_in(link))
    second = services.tournaments.register(
        tournament, Applicant(first_name="Bea", last_name="B", email="bea@example.org", age=40)
    )
    services.tournaments.register(
        tournament, Applicant(first_name="Cem", last_name="C", email="cem@example.org", age=40)
    )  # waitlisted: the two seats are taken
    services.tournaments.cancel_registration(
        tournament, second.registration_id, player_token=None, by_director=True
    )  # the waitlisted person moves up
    services.outbox.send_due()
    clock.advance((CANCELLATION_CLOSED - clock.now()).total_seconds())
    services.jobs.run_due(clock.now())  # the payout scheme goes to the seated players
    services.outbox.send_due()
    services.outbox.send_due()  # nothing is due twice

    assert sent_kinds(services, sink) == {
        "confirmation_link": 1,
        "registration_confirmed": 3,
        "cancellation_confirmed": 1,
        "waitlist_promoted": 1,
        "payout_scheme": 2,
    }
    assert len({m["Message-ID"] for m in sink.messages}) == len(sink.messages) == 8
    by_id = kinds(services)
    promoted = sink.of_kind(by_id, "waitlist_promoted")
    assert [m["To"] for m in promoted] == ["cem@example.org"]
    payout = sink.of_kind(by_id, "payout_scheme")
    assert sorted(m["To"] for m in payout) == ["cem@example.org", "spieler1@example.org"]
    assert "1. Platz: 50 %" in body_of(payout[0])  # rule T-BUYIN-1: 50/30/20
    # the confirmation mail carries the self-service cancellation link with the player token
    [mail] = [
        m
        for m in sink.of_kind(by_id, "registration_confirmed")
        if m["To"] == "spieler1@example.org"
    ]
    [cancel] = [link for link in links_in(mail) if "/registrations/cancel" in link]
    assert token_in(cancel) == confirmed.player_token
    assert str(confirmed.registration_id) in cancel
    assert all(m["From"] == "bgtd <bgtd@localhost>" for m in sink.messages)


def test_a_service_killed_between_the_event_and_the_send_mails_once_after_restart(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    first = build(tmp_path, clock, sink.url)
    ask(first, schedule(first), 1)  # the event and its outbox row are stored ...
    first.close()  # ... and the process ends before its sender ran
    assert sink.messages == []

    for _ in range(3):  # every later start finds the mail sent
        again = build(tmp_path, clock, sink.url)
        again.outbox.send_due()
        again.close()
    assert len(sink.messages) == 1
    assert sink.messages[0]["To"] == "spieler1@example.org"


def test_an_event_stored_before_its_outbox_row_was_written_mails_once_after_restart(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    # the process dies after the event's commit, before the views followed the log
    first = build(tmp_path, clock, sink.url)
    tournament = schedule(first)
    without_views = RegistrationRequestService(
        first.store, CommandRunner(first.store, clock), first.registrants, first.zone
    )
    without_views.request(
        tournament, Applicant(first_name="Anna", last_name="M", email="anna@example.org", age=30)
    )
    assert first.outbox.list() == []  # no row yet: the views have not seen the event
    first.close()

    for _ in range(2):
        again = build(tmp_path, clock, sink.url)
        again.outbox.send_due()
        again.close()
    assert [m["To"] for m in sink.messages] == ["anna@example.org"]


def test_a_sender_told_to_stop_leaves_the_rest_of_its_round_pending(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    # at shutdown the mail being sent finishes, the others wait for the next start
    services = build(tmp_path, clock, sink.url)
    tournament_id = schedule(services)
    for number in (1, 2, 3):
        ask(services, tournament_id, number)
    services.outbox.stop()
    assert services.outbox.send_due() == 0
    services.close()
    assert sink.messages == []

    again = build(tmp_path, clock, sink.url)
    assert again.outbox.send_due() == 3
    again.close()
    assert len(sink.messages) == 3


def test_views_rebuilt_from_the_log_do_not_send_the_mails_again(
    services: Services, sink: Sink
) -> None:
    ask(services, schedule(services), 1)
    services.outbox.send_due()
    services.views.rebuild("outbox")
    assert services.outbox.send_due() == 0
    assert len(sink.messages) == 1
    assert [mail.status for mail in services.outbox.list()] == ["sent"]


def test_a_crash_between_the_send_and_its_record_repeats_the_same_message_id_later(
    tmp_path: Path, clock: MovableClock, sink: Sink, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the one window that SMTP cannot close: the server took the mail, the record was not saved
    first = build(tmp_path, clock, sink.url)
    ask(first, schedule(first), 1)

    def crash(*_: object) -> None:
        raise SystemExit("killed after the send")

    monkeypatch.setattr(MailLedger, "record_sent", crash)
    with pytest.raises(SystemExit):
        first.outbox.send_due()
    first.close()
    monkeypatch.undo()

    again = build(tmp_path, clock, sink.url)
    try:
        assert again.outbox.send_due() == 0  # the claim is young: its sender may be sending
        clock.advance(CLAIM_TIMEOUT.total_seconds() + 1)
        assert again.outbox.send_due() == 1  # the claim was left by a crash: at least once
    finally:
        again.close()
    assert len(sink.messages) == 2
    assert sink.messages[0]["Message-ID"] == sink.messages[1]["Message-ID"]


def test_a_refusing_server_is_retried_with_back_off_and_the_outbox_shows_it(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    sink.refusal = "451 4.3.0 Mailbox busy, try again later"
    ask(services, schedule(services), 1)
    assert services.outbox.send_due() == 0
    [mail] = services.outbox.list()
    assert (mail.status, mail.attempts) == ("pending", 1)
    assert mail.last_error is not None
    assert "451" in mail.last_error
    assert mail.next_attempt_at == clock.now() + timedelta(minutes=1)

    assert services.outbox.send_due() == 0  # not due yet: no attempt
    assert services.outbox.list()[0].attempts == 1
    clock.advance(61)
    services.outbox.send_due()
    [mail] = services.outbox.list()
    assert mail.attempts == 2
    assert mail.next_attempt_at == clock.now() + timedelta(minutes=2)  # doubled

    sink.refusal = None
    clock.advance(121)
    assert services.outbox.send_due() == 1
    [mail] = services.outbox.list()
    assert (mail.status, mail.attempts, mail.last_error) == ("sent", 3, None)
    assert len(sink.messages) == 1


def test_a_mail_refused_again_and_again_is_given_up_as_failed(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    sink.refusal = "550 5.1.1 No such user"
    ask(services, schedule(services), 1)
    for _ in range(20):
        services.outbox.send_due()
        clock.advance(6 * 3600)
    [mail] = services.outbox.list("failed")
    assert mail.attempts == 12
    assert mail.next_attempt_at is None
    assert sink.messages == []


def test_mails_pending_when_the_dev_clock_jumps_days_ahead_go_out(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    # --dev: the clock jumps 4 days before the sender's next round; nothing was sent before
    tournament = schedule(services)
    ask(services, tournament, 1)
    register(services, tournament, "ada")
    clock.advance(4 * 24 * 3600)

    assert services.outbox.send_due() == 2

    assert sorted(m["To"] for m in sink.messages) == ["ada@example.org", "spieler1@example.org"]
    assert [mail.status for mail in services.outbox.list()] == ["sent", "sent"]


def test_a_mail_left_pending_days_before_a_restart_is_given_up_and_says_why(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    # a store restored from an old backup brings its ledger as of the backup: a mail pending
    # then may have gone out after it, so it is not sent days later
    first = build(tmp_path, clock, sink.url)
    ask(first, schedule(first), 1)
    first.close()  # stopped before its sender ran
    clock.advance(3 * 24 * 3600 + 60)

    again = build(tmp_path, clock, sink.url)
    try:
        assert again.outbox.send_due() == 0
        [mail] = again.outbox.list("failed")
    finally:
        again.close()
    assert sink.messages == []
    assert mail.last_error == (
        "not sent: left pending from 2026-03-01 09:00 UTC, over 3 days before this start "
        "(2026-03-04 09:01 UTC), by a restored backup or a stopped service (it may have gone "
        "out after the backup)"
    )


def test_a_mail_left_pending_less_than_3_days_before_a_restart_goes_out(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    first = build(tmp_path, clock, sink.url)
    ask(first, schedule(first), 1)
    first.close()
    clock.advance(2 * 24 * 3600)

    again = build(tmp_path, clock, sink.url)
    try:
        assert again.outbox.send_due() == 1
    finally:
        again.close()
    assert [m["To"] for m in sink.messages] == ["spieler1@example.org"]


def test_without_smtp_mails_are_written_as_eml_files_only_their_owner_reads(
    tmp_path: Path, clock: MovableClock
) -> None:
    services = build(tmp_path, clock, None)
    try:
        ask(services, schedule(services), 1)
        assert services.outbox.send_due() == 1
        [mail] = services.outbox.list()
    finally:
        services.close()
    path = tmp_path / "outbox" / f"{mail.id}.eml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    [message] = read_mails(tmp_path / "outbox")
    assert message["To"] == "spieler1@example.org"
    assert any("/pages/registrations/confirm?token=" in link for link in links_in(message))


def test_an_address_beyond_ascii_is_written_as_it_is_not_as_an_encoded_word(
    tmp_path: Path, clock: MovableClock
) -> None:
    # RFC 6532: jörg@example.org travels as UTF-8; "=?utf-8?q?j=C3=B6rg?=@example.org" would
    # be no address at all
    services = build(tmp_path, clock, None)
    try:
        joerg = Applicant(first_name="Jörg", last_name="Bär", email="jörg@example.org", age=30)
        services.requests.request(schedule(services), joerg)
        assert services.outbox.send_due() == 1
    finally:
        services.close()
    [file] = (tmp_path / "outbox").glob("*.eml")
    assert b"To: j\xc3\xb6rg@example.org" in file.read_bytes()
    [message] = read_mails(tmp_path / "outbox")
    assert message["To"] == "jörg@example.org"


def test_mails_are_german_by_default_and_english_by_the_registrants_choice(
    services: Services, sink: Sink
) -> None:
    tournament = schedule(services)
    ask(services, tournament, 1)
    ask(services, tournament, 2, language="en")
    services.outbox.send_due()
    german, english = sorted(sink.messages, key=lambda m: str(m["To"]))
    assert german["Subject"].startswith("Bitte bestätige deine Anmeldung")
    assert german["Content-Language"] == "de"
    assert english["Subject"].startswith("Please confirm your registration")
    assert any(link.endswith("&lang=en") for link in links_in(english))


def test_the_registration_mail_carries_the_personal_link_beside_the_cancellation_link(
    services: Services, sink: Sink
) -> None:
    # API.md "Pages for people": the personal link signs the player in on the table page
    tournament = schedule(services)
    ask(services, tournament, 1)
    ask(services, tournament, 2, language="en")
    services.outbox.send_due()
    tokens = {}
    for message in list(sink.messages):
        [link] = [link for link in links_in(message) if "/registrations/confirm" in link]
        tokens[str(message["To"])] = services.requests.confirm(token_in(link)).player_token
    services.outbox.send_due()
    mails = {m["To"]: m for m in sink.of_kind(kinds(services), "registration_confirmed")}
    german, english = mails["spieler1@example.org"], mails["spieler2@example.org"]
    [personal] = [link for link in links_in(german) if "/pages/players/sign-in" in link]
    assert personal.startswith("http://localhost:8000/pages/players/sign-in?token=")
    assert token_in(personal) == tokens["spieler1@example.org"]
    assert "Dein persönlicher Link für den Turniertag" in body_of(german)
    [personal] = [link for link in links_in(english) if "/pages/players/sign-in" in link]
    assert token_in(personal) == tokens["spieler2@example.org"]
    assert personal.endswith("&lang=en")
    assert "Your personal link for the tournament day" in body_of(english)


def test_the_tournaments_events_hold_no_unconfirmed_registration(services: Services) -> None:
    # issue 11: strangers' requests never grow the tournament (its snapshot stays small)
    tournament = schedule(services)
    before = len(services.store.stream(tournament))
    for number in range(10):
        ask(services, tournament, number)
    assert len(services.store.stream(tournament)) == before


def register(services: Services, tournament: UUID, name: str, language: str = "de") -> UUID:
    """The director registers ``name`` (no confirmation mail): the registration's id."""
    applicant = Applicant(
        first_name=name, last_name="X", email=f"{name}@example.org", age=40, language=language
    )
    return services.tournaments.register(tournament, applicant).registration_id


def promotion_after_the_deadline(
    services: Services, sink: Sink, clock: MovableClock, language: str
) -> str:
    """A seat holder withdrawn by the director after the cancellation deadline frees the seat
    for the waitlisted person, who reads ``language``: the body of their promotion mail."""
    tournament = schedule(services, capacity=2)
    seated = register(services, tournament, "ada")
    register(services, tournament, "bea")
    register(services, tournament, "cem", language)  # the two seats are taken
    clock.advance((CANCELLATION_CLOSED - clock.now()).total_seconds())
    services.tournaments.cancel_registration(
        tournament, seated, player_token=None, by_director=True, reason="ill"
    )  # a late withdrawal
    services.outbox.send_due()
    [promoted] = sink.of_kind(kinds(services), "waitlist_promoted")
    assert promoted["To"] == "cem@example.org"
    return body_of(promoted)


def test_a_promotion_after_the_cancellation_deadline_offers_no_cancellation(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: after the deadline only the director takes a seat holder off
    body = promotion_after_the_deadline(services, sink, clock, "de")

    assert "Abmeldung bis" not in body
    assert "Die Abmeldefrist ist am 16.04.2026, 18:00 Uhr abgelaufen" in body
    assert "nur noch über die Turnierleitung" in body


def test_an_english_promotion_after_the_deadline_offers_no_cancellation_either(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    # rule T-CANCEL-1
    body = promotion_after_the_deadline(services, sink, clock, "en")

    assert "Cancel until" not in body
    assert "The cancellation deadline passed on 2026-04-16 18:00" in body
    assert "only the tournament director can take you off the list now" in body


def test_a_promotion_before_the_deadline_offers_cancellation_until_it(
    services: Services, sink: Sink
) -> None:
    # rule T-CANCEL-1: until Thursday 18:00 before the tournament
    tournament = schedule(services, capacity=2)
    seated = register(services, tournament, "ada")
    register(services, tournament, "bea")
    register(services, tournament, "cem")
    services.tournaments.cancel_registration(
        tournament, seated, player_token=None, by_director=True
    )
    services.outbox.send_due()

    [promoted] = sink.of_kind(kinds(services), "waitlist_promoted")
    assert "Abmeldung bis 16.04.2026, 18:00 Uhr über den Link aus deiner Anmeldebestätigung" in (
        body_of(promoted)
    )


def test_a_registration_after_the_deadline_carries_no_cancellation_link(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: a seat taken after the deadline cannot be cancelled by its holder; a
    # waitlist place can always be given up
    tournament = schedule(services, capacity=2)
    clock.advance((CANCELLATION_CLOSED - clock.now()).total_seconds())
    for name in ("ada", "bea", "cem"):
        register(services, tournament, name)
    services.outbox.send_due()

    mails = {m["To"]: m for m in sink.of_kind(kinds(services), "registration_confirmed")}
    seated, waiting = mails["ada@example.org"], mails["cem@example.org"]
    assert "Abmeldung bis" not in body_of(seated)
    assert "nur noch über die Turnierleitung" in body_of(seated)
    assert not [link for link in links_in(seated) if "/registrations/cancel" in link]
    assert "von der Warteliste kannst du dich weiter über diesen Link abmelden" in (
        body_of(waiting)
    )
    assert [link for link in links_in(waiting) if "/registrations/cancel" in link]
