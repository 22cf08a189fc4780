"""The outbox's upkeep called directly (rule P-MAIL-1: an outbox that survives restarts and never
sends twice): the views brought up to the shared ledger, an erased person's mail files deleted,
and a mail's message the same each time it is built."""

from __future__ import annotations

from pathlib import Path

from domain.events import DIRECTOR
from domain.tournament import Applicant
from projections import outbox
from service.bootstrap import Services
from service.clock import MovableClock
from service.people.erasure import PeopleService
from service.shared.commands import CommandRunner
from tests.service.test_outbox import ask, build, clock, schedule, services
from tests.smtp_sink import Sink, sink

__all__ = ["clock", "services", "sink"]  # the fixtures, used by name


def statuses(services: Services) -> list[str]:
    """The outbox rows as this process's views hold them (``list`` would settle them first)."""
    with services.views.reading() as db:
        return [mail.status for mail in outbox.list_mails(db)]


def test_settling_brings_rebuilt_views_up_to_the_mails_the_ledger_knows_were_sent(
    services: Services, sink: Sink
) -> None:
    # rule P-MAIL-1: the ledger, not the views, knows what went out
    ask(services, schedule(services), 1)
    assert services.outbox.send_due() == 1
    services.views.rebuild("outbox")
    assert statuses(services) == ["pending"]  # the log alone says the mail is due

    services.outbox.settle()

    assert statuses(services) == ["sent"]
    assert len(sink.messages) == 1


def test_an_erased_persons_mail_files_are_deleted_and_nobody_elses(
    tmp_path: Path, clock: MovableClock
) -> None:
    # API.md "POST /people/{id}/erasure": a mail written to a file holds the person's address
    services = build(tmp_path, clock, None)
    try:
        tournament_id = schedule(services)
        zyxwella, anna = (
            services.tournaments.register(tournament_id, applicant(name))
            for name in ("Zyxwella", "Anna")
        )
        assert services.outbox.send_due() == 2
        files = {
            mail.player_id: tmp_path / "outbox" / f"{mail.id}.eml"
            for mail in services.outbox.list()
        }
        # the erasure as another process of the store records it: its files are not this one's
        elsewhere = PeopleService(
            services.store,
            services.views,
            clock,
            CommandRunner(services.store, clock, services.views),
            forget_erased_mails=lambda: None,
        )
        elsewhere.erase(zyxwella.player_id, actor=DIRECTOR)
        assert files[zyxwella.player_id].exists()

        services.outbox.forget_erased()

        assert not files[zyxwella.player_id].exists()
        assert files[anna.player_id].exists()
    finally:
        services.close()


def applicant(name: str) -> Applicant:
    return Applicant(first_name=name, last_name="Q", email=f"{name}@example.org", age=30)


def test_a_mails_message_is_built_the_same_each_time_so_a_resend_is_recognised(
    services: Services,
) -> None:
    # rule P-MAIL-1: a mail sent again after a crash carries the same Message-ID
    ask(services, schedule(services), 1, language="en")
    [mail] = services.outbox.list()

    first, again = services.outbox.message(mail), services.outbox.message(mail)

    assert first["Message-ID"] == again["Message-ID"]
    assert str(first["Message-ID"]).startswith(f"<{mail.id}@")
    assert (first["To"], first["X-Bgtd-Outbox-Id"]) == ("spieler1@example.org", mail.id)
    assert first["Content-Language"] == "en"
    assert first.get_content() == again.get_content()
    assert "lang=en" in first.get_content()
