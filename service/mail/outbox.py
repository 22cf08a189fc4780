"""The outbox's sender (rule P-MAIL-1): delivers pending mails by SMTP or as ``.eml`` files.

Exactly once, as far as a mail can be: each mail is claimed in the ledger shared by every
process of the store (``service/storage/mail_ledger.py``) before it is sent, and recorded there
as sent right after the server accepted it; every row has a stable Message-ID derived from its
id. A crash in the moment between the server's "250 OK" and that record sends the mail once more
when its claim has expired (``CLAIM_TIMEOUT``), with the same Message-ID (mail clients show such
a repeat as one message); a process taking over from a healthy one never sends it again. A
failed send is tried again with exponential back-off; the director sees attempts and the last
error (``GET /api/v1/outbox``); after ``MAX_ATTEMPTS`` the row is given up as ``failed``. Logs
name a failure's type and the mail's id only (a refusal's text may quote the address)."""

from __future__ import annotations

import logging
import os
import smtplib
import ssl
import threading
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTPUTF8, default
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urlencode, urlsplit

from projections import outbox
from projections.outbox import MailRow
from projections.runner import Views
from service.clock import Clock
from service.mail.texts import Links, render
from service.shared.registrants import Registrants, confirmation_token
from service.storage.mail_ledger import MailLedger

log = logging.getLogger(__name__)

FIRST_RETRY = timedelta(minutes=1)
LAST_RETRY = timedelta(hours=6)
MAX_ATTEMPTS = 12
"""About two days of retries (1 min, 2, 4, ... then every 6 hours), then ``failed``."""
LEFT_OVER_AFTER = timedelta(days=3)
"""A mail still pending from an event this long before the sender started is not sent but
given up (``failed``).

The shared ledger lives in the store's database, so views rebuilt or lost send nothing again.
A store restored from a backup brings its ledger as of the backup, though: the mails pending
then may have gone out after it, and the backup looks just like a store whose service was
stopped with mails pending. Of such left-over mails only the recent ones go out (a crash
between an event and its mail mails once after the restart). Mails of events recorded while
the sender runs go out however far the clock has moved meanwhile: a jump of the dev clock
(``--dev``) is no reason to keep them, nor are deadlines that passed while the service was
down (their events are recorded at the restart)."""


def left_over(event_at: datetime, started_at: datetime) -> str:
    """Why a mail left over from before the sender started is not sent."""
    return (
        f"not sent: left pending from {_minute(event_at)}, over {LEFT_OVER_AFTER.days} days "
        f"before this start ({_minute(started_at)}), by a restored backup or a stopped service "
        "(it may have gone out after the backup)"
    )


def _minute(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


class MailTransport(Protocol):
    def send(self, message: EmailMessage) -> None:
        """Deliver ``message`` or raise."""

    def forget(self, mail_ids: Iterable[str]) -> None:
        """Delete what this side keeps of these mails (an erased person's)."""


class SmtpTransport:
    """``smtp://[user:password@]host[:25]``, ``smtp+starttls://...:587`` or ``smtps://...:465``."""

    def __init__(self, url: str, timeout: float = 30) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps", "smtp+starttls") or not parts.hostname:
            raise ValueError("BGTD_SMTP_URL must look like smtp://host:port or smtps://host:465")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.timeout = timeout

    def send(self, message: EmailMessage) -> None:
        context = ssl.create_default_context()
        client: smtplib.SMTP = (
            smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
            if self.scheme == "smtps"
            else smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        )
        with client:
            if self.scheme == "smtp+starttls":
                client.starttls(context=context)
            if self.username:
                client.login(self.username, self.password or "")
            client.send_message(message)

    def forget(self, mail_ids: Iterable[str]) -> None:
        """Nothing to delete: a sent mail is in the recipient's mailbox, not the service's."""


class FileTransport:
    """Without SMTP: each mail as ``<id>.eml`` in a directory (readable by the owner only)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def send(self, message: EmailMessage) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = str(message["X-Bgtd-Outbox-Id"]) + ".eml"
        descriptor = os.open(self.directory / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(message.as_bytes())

    def forget(self, mail_ids: Iterable[str]) -> None:
        for mail_id in mail_ids:
            (self.directory / f"{mail_id}.eml").unlink(missing_ok=True)


def transport_for(smtp_url: str | None, data_dir: Path) -> MailTransport:
    return SmtpTransport(smtp_url) if smtp_url else FileTransport(data_dir / "outbox")


class OutboxService:
    """Sends the outbox's due mails and shows the outbox to the director."""

    def __init__(
        self,
        views: Views,
        clock: Clock,
        transport: MailTransport,
        *,
        ledger: MailLedger,
        origin: int,
        mail_from: str,
        public_url: str,
        registrants: Registrants,
        link_key: bytes,
    ) -> None:
        """``registrants`` derives the player tokens of cancellation links, ``link_key`` the
        tokens of confirmation links (rule P-MAIL-1)."""
        self._views = views
        self._ledger = ledger
        self._origin = origin
        self._clock = clock
        # mails of events long before it are left over (``LEFT_OVER_AFTER``)
        self._started_at = clock.now()
        self._stopping = threading.Event()
        self.transport = transport
        self._mail_from = mail_from
        self._public_url = public_url.rstrip("/")
        self._registrants = registrants
        self._link_key = link_key
        domain = parseaddr(mail_from)[1].rpartition("@")[2]
        self._message_domain = domain or "bgtd.invalid"

    def list(self, status: str | None = None) -> list[MailRow]:
        self.settle()
        with self._views.reading() as db:
            return outbox.list_mails(db, status)

    def settle(self) -> None:
        """Bring the pending rows of this process's views up to the shared ledger: mails sent
        or given up by another process or before a rebuild, and mails stored before the
        outbox existed on the store."""
        with self._views.reading() as db:
            pending = outbox.pending_ids(db)
        if not pending:
            return
        outcomes = self._ledger.outcomes(pending)
        with self._views.writing() as db:
            outbox.settle(db, outcomes)
            outbox.give_up_stored_before(db, self._origin)

    def forget_erased(self) -> None:
        """Delete the ``.eml`` files of erased persons' mails (their address is in them)."""
        with self._views.reading() as db:
            self.transport.forget(outbox.erased_mail_ids(db))

    def send_due(self) -> int:
        """Send every mail due now; returns how many went out. Failures wait their back-off.

        The sending process also deletes the files of mails to persons erased since (an
        erasure in another process of the store cannot reach this one's data directory)."""
        self._views.catch_up()
        self.forget_erased()
        self.settle()
        now = self._clock.now()
        with self._views.reading() as db:
            due = outbox.due_mails(db, now)
        sent = 0
        for mail in due:
            if self._stopping.is_set():  # the rest wait, pending, for the next process
                break
            sent += self._send(mail.id, now)
        return sent

    def stop(self) -> None:
        """At shutdown: the mail being sent finishes, the rest of the round is not begun (an
        unanswering SMTP server would otherwise hold the shutdown for every mail's timeout)."""
        self._stopping.set()

    def _send(self, mail_id: str, now: datetime) -> bool:
        """One due mail, if it still is (its person may have been erased since the list was
        read) and this process wins its claim in the shared ledger."""
        with self._views.reading() as db:
            mail = outbox.mail_by_id(db, mail_id)
        if mail is None or mail.status != "pending" or not mail.recipient:
            return False
        # the claim's instant is the send's, not the round's (a round may take minutes)
        if not self._ledger.claim(mail.id, self._clock.now()):
            self.settle()  # another process sent it, gave it up, or is sending it now
            return False
        if mail.created_at < self._started_at - LEFT_OVER_AFTER:
            reason = left_over(mail.created_at, self._started_at)
            self._give_up(mail.id, now, reason, reason)
            return False
        try:
            self.transport.send(self.message(mail))
        except Exception as error:  # every failure of a send is retried, none is lost
            kind = type(error).__name__
            log.warning("mail %s failed: %s", mail.id, kind)  # the text may quote the address
            retry_at = self._retry_at(mail.attempts + 1, now)
            if retry_at is None:
                self._give_up(mail.id, now, f"{kind}: {error}", f"gave up after {kind}")
                return False
            self._ledger.release(mail.id)
            with self._views.writing() as db:
                outbox.mark_failed(db, mail.id, f"{kind}: {error}", retry_at)
            return False
        sent_at = self._clock.now()
        self._ledger.record_sent(mail.id, sent_at)
        with self._views.writing() as db:
            outbox.mark_sent(db, mail.id, sent_at)
        return True

    def _give_up(self, mail_id: str, now: datetime, error: str, reason: str) -> None:
        """Never sent: in the shared ledger (``reason``, without the address) and the row."""
        self._ledger.give_up(mail_id, now, reason)
        with self._views.writing() as db:
            outbox.mark_failed(db, mail_id, error, None)

    def message(self, mail: MailRow) -> EmailMessage:
        subject, body = render(mail, self._links(mail))
        # an address with letters beyond ASCII (jörg@...) travels as UTF-8 (SMTPUTF8): an
        # encoded word inside an address is not allowed, and a server without SMTPUTF8
        # refuses the send, which the outbox retries and then shows as failed
        message = EmailMessage(policy=SMTPUTF8 if not mail.recipient.isascii() else default)
        message["From"] = self._mail_from
        message["To"] = mail.recipient
        message["Subject"] = subject
        message["Date"] = format_datetime(mail.created_at)
        # stable: a mail sent again after a crash is recognisably the same message
        message["Message-ID"] = f"<{mail.id}@{self._message_domain}>"
        message["X-Bgtd-Outbox-Id"] = mail.id
        message.set_content(body)
        message["Content-Language"] = mail.language  # after set_content, which resets Content-*
        return message

    def _links(self, mail: MailRow) -> Links:
        language = "&lang=en" if mail.language == "en" else ""
        if mail.kind == "confirmation_link":
            token = confirmation_token(self._link_key, mail.subject_id)
            return Links(
                confirm=f"{self._public_url}/pages/registrations/confirm?"
                + urlencode({"token": token})
                + language
            )
        if mail.kind == "registration_confirmed" and mail.tournament_id is not None:
            query = {
                "tournament": str(mail.tournament_id),
                "registration": str(mail.subject_id),
                "token": self._registrants.player_token(mail.subject_id),
            }
            return Links(
                cancel=f"{self._public_url}/pages/registrations/cancel?"
                + urlencode(query)
                + language,
                personal=f"{self._public_url}/pages/players/sign-in?"
                + urlencode({"token": query["token"]})
                + language,
            )
        return Links()

    def _retry_at(self, attempts: int, now: datetime) -> datetime | None:
        if attempts >= MAX_ATTEMPTS:
            return None
        return now + min(LAST_RETRY, FIRST_RETRY * (1 << (attempts - 1)))
