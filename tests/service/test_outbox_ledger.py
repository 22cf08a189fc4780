"""The outbox's shared ledger: rebuilt or lost views keep sent mails sent and given-up mails
failed; a store written before the outbox existed mails nobody about its old events; an erased
person's address leaves the last error and never reaches the log."""

# rule P-MAIL-1: mail goes through an outbox that survives restarts and never sends twice.

from __future__ import annotations

import logging
import smtplib
import sqlite3
from collections.abc import Iterable
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import sqlite_utils

from domain.tournament import Applicant
from projections import outbox
from projections.outbox import BEFORE_OUTBOX, ERASED, OutboxProjection
from projections.runner import Projection
from service.bootstrap import Services
from service.clock import MovableClock
from service.storage import views as views_module
from service.storage.mail_ledger import LEDGER_TABLE, ORIGIN_TABLE
from tests.service.test_outbox import build, clock, schedule, services
from tests.smtp_sink import Sink, sink

__all__ = ["clock", "services", "sink"]  # the fixtures, used by name

ADDRESS = "zyxwella@example.org"


def ask(services: Services, tournament_id: UUID, email: str = ADDRESS) -> None:
    services.requests.request(
        tournament_id, Applicant(first_name="Zyxwella", last_name="Quorvant", email=email, age=30)
    )


class RefusingTransport:
    """A server that refuses the recipient: smtplib's error quotes the address."""

    def send(self, message: EmailMessage) -> None:
        recipient = str(message["To"])
        refusal = f"5.1.1 <{recipient}>: Recipient address rejected".encode()
        raise smtplib.SMTPRecipientsRefused({recipient: (550, refusal)})

    def forget(self, mail_ids: Iterable[str]) -> None:
        """Nothing kept."""


def give_up_after_refusals(services: Services, clock: MovableClock) -> None:
    for _ in range(14):
        services.outbox.send_due()
        clock.advance(6 * 3600 + 1)


def test_views_rebuilt_from_the_log_keep_a_given_up_mail_failed_and_a_sent_one_sent(
    services: Services, sink: Sink, clock: MovableClock
) -> None:
    tournament = schedule(services)
    ask(services, tournament)
    ask(services, tournament, "other@example.org")
    smtp = services.outbox.transport

    class RefusingOne:
        def send(self, message: EmailMessage) -> None:
            if message["To"] == ADDRESS:
                RefusingTransport().send(message)
            smtp.send(message)

        def forget(self, mail_ids: Iterable[str]) -> None:
            """Nothing kept."""

    services.outbox.transport = RefusingOne()
    give_up_after_refusals(services, clock)
    before = {mail.recipient: mail.status for mail in services.outbox.list()}
    assert before == {ADDRESS: "failed", "other@example.org": "sent"}

    services.views.rebuild("outbox")
    services.outbox.transport = smtp  # would accept the given-up mail now
    assert {mail.recipient: mail.status for mail in services.outbox.list()} == before
    assert services.outbox.send_due() == 0
    assert [m["To"] for m in sink.messages] == ["other@example.org"]


def test_a_lost_views_file_sends_no_mail_again(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    first = build(tmp_path, clock, sink.url)
    ask(first, schedule(first))
    assert first.outbox.send_due() == 1
    first.close()
    views_file = tmp_path / "views.sqlite3"
    assert views_file.exists()
    for leftover in tmp_path.glob("views.sqlite3*"):
        leftover.unlink()

    again = build(tmp_path, clock, sink.url)
    try:
        assert again.outbox.send_due() == 0
        assert [mail.status for mail in again.outbox.list()] == ["sent"]
    finally:
        again.close()
    assert len(sink.messages) == 1


def test_views_of_the_version_with_a_ledger_per_process_move_it_into_the_shared_one(
    tmp_path: Path, clock: MovableClock, sink: Sink
) -> None:
    first = build(tmp_path, clock, sink.url)
    tournament = schedule(first)
    ask(first, tournament)
    assert first.outbox.send_due() == 1
    ask(first, tournament, "later@example.org")  # pending at the upgrade
    [sent] = first.outbox.list("sent")
    assert sent.sent_at is not None
    first.close()
    # as the previous version left them: the ledger in the views, none in the store
    with sqlite3.connect(tmp_path / "events.sqlite3") as events:
        events.execute(f"DROP TABLE {LEDGER_TABLE}")
        events.execute(f"DROP TABLE {ORIGIN_TABLE}")
    with sqlite3.connect(tmp_path / "views.sqlite3") as views:
        views.execute("CREATE TABLE outbox_sent (id TEXT PRIMARY KEY, sent_at TEXT NOT NULL)")
        views.execute("INSERT INTO outbox_sent VALUES (?, ?)", [sent.id, sent.sent_at.isoformat()])

    upgraded = build(tmp_path, clock, sink.url)
    try:
        upgraded.views.rebuild("outbox")
        assert upgraded.outbox.send_due() == 1  # the outbox existed: its pending mail goes out
        statuses = {mail.recipient: mail.status for mail in upgraded.outbox.list()}
        assert statuses == {ADDRESS: "sent", "later@example.org": "sent"}
        with upgraded.views.reading() as db:
            assert not db["outbox_sent"].exists()
    finally:
        upgraded.close()
    assert [m["To"] for m in sink.messages] == [ADDRESS, "later@example.org"]


def test_a_store_written_before_the_outbox_existed_mails_nobody_about_its_old_events(
    tmp_path: Path, clock: MovableClock, sink: Sink, monkeypatch: pytest.MonkeyPatch
) -> None:
    def without_outbox() -> list[Projection]:
        return [p for p in projections() if not isinstance(p, OutboxProjection)]

    projections = views_module.projections
    monkeypatch.setattr(views_module, "projections", without_outbox)
    old = build(tmp_path, clock, sink.url)
    tournament = schedule(old)
    ask(old, tournament)  # a registration of the version without outbox
    old.close()
    monkeypatch.undo()

    upgraded = build(tmp_path, clock, sink.url)
    try:
        assert upgraded.outbox.send_due() == 0
        [old_mail] = upgraded.outbox.list()
        assert (old_mail.status, old_mail.last_error) == ("failed", BEFORE_OUTBOX)
        ask(upgraded, tournament, "new@example.org")  # the outbox's own mails go out
        assert upgraded.outbox.send_due() == 1
        upgraded.views.rebuild("outbox")
        assert upgraded.outbox.send_due() == 0
        statuses = {mail.recipient: mail.status for mail in upgraded.outbox.list()}
        assert statuses == {ADDRESS: "failed", "new@example.org": "sent"}
    finally:
        upgraded.close()
    assert [m["To"] for m in sink.messages] == ["new@example.org"]


def test_a_failed_send_is_logged_by_its_type_and_mail_id_without_the_address(
    services: Services, clock: MovableClock, caplog: pytest.LogCaptureFixture
) -> None:
    ask(services, schedule(services))
    services.outbox.transport = RefusingTransport()
    with caplog.at_level(logging.WARNING, logger="service.mail.outbox"):
        services.outbox.send_due()
    [mail] = services.outbox.list()
    [record] = caplog.records
    assert record.getMessage() == f"mail {mail.id} failed: SMTPRecipientsRefused"


def test_an_erased_persons_address_leaves_the_last_error_of_their_given_up_mail(
    services: Services, clock: MovableClock
) -> None:
    ask(services, schedule(services))
    services.outbox.transport = RefusingTransport()
    give_up_after_refusals(services, clock)
    [mail] = services.outbox.list()
    assert mail.status == "failed"
    assert mail.last_error is not None
    assert ADDRESS in mail.last_error  # the director sees the refusal until the erasure

    assert mail.player_id is not None
    services.people.erase(mail.player_id, actor="director")
    [mail] = services.outbox.list()
    assert (mail.status, mail.recipient, mail.last_error) == ("failed", "", ERASED)
    with services.views.reading() as db:
        dump = "\n".join(db.iterdump())
    assert "zyxwella" not in dump.lower()


def test_a_person_erased_after_the_due_mails_were_read_gets_no_mail(
    services: Services, sink: Sink, monkeypatch: pytest.MonkeyPatch
) -> None:
    ask(services, schedule(services))
    [mail] = services.outbox.list()
    assert mail.player_id is not None
    player_id = mail.player_id
    due_mails = outbox.due_mails

    def erased_meanwhile(db: sqlite_utils.Database, *args: Any) -> list[outbox.MailRow]:
        due = due_mails(db, *args)
        services.people.erase(player_id, actor="director")  # another request, at this moment
        return due

    monkeypatch.setattr(outbox, "due_mails", erased_meanwhile)
    assert services.outbox.send_due() == 0
    assert sink.messages == []
    [mail] = services.outbox.list()
    assert (mail.status, mail.recipient) == ("failed", "")
