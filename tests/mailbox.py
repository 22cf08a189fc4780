"""The tests' mailbox: the mails the outbox wrote as ``.eml`` files, and their links.

Without ``BGTD_SMTP_URL`` the service writes each mail to ``data-dir/outbox/<id>.eml``; a test
that registers anonymously reads its confirmation link there, as the person would in a mail
client (rule P-MAIL-1).
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from litestar import Litestar

from service.bootstrap import Services

_LINK = re.compile(r"https?://\S+")


def services_of(app: Litestar) -> Services:
    services: Services = app.state.services
    return services


def read_mails(directory: Path) -> list[EmailMessage]:
    """Every ``.eml`` file in ``directory``, oldest first."""
    files = sorted(directory.glob("*.eml"), key=lambda path: path.stat().st_mtime_ns)
    return [
        mail
        for path in files
        if isinstance(
            mail := email.message_from_bytes(path.read_bytes(), policy=email.policy.default),
            EmailMessage,
        )
    ]


def body_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None, "a mail has a plain-text body"
    content: str = part.get_content()
    return content


def links_in(mail: EmailMessage) -> list[str]:
    return _LINK.findall(body_of(mail))


def token_in(link: str) -> str:
    [token] = parse_qs(urlsplit(link).query)["token"]
    return token


def mails_to(app: Litestar, address: str, kind: str | None = None) -> list[EmailMessage]:
    """Send what is due, then the mails to ``address`` (of one outbox ``kind``), oldest first."""
    services = services_of(app)
    services.outbox.send_due()
    kinds = {mail.id: mail.kind for mail in services.outbox.list()}
    directory = services.settings.data_dir / "outbox"
    return [
        mail
        for mail in read_mails(directory)
        if mail["To"] == address
        and (kind is None or kinds.get(str(mail["X-Bgtd-Outbox-Id"])) == kind)
    ]


def confirmation_token(app: Litestar, address: str) -> str:
    """The token of the latest confirmation link mailed to ``address``."""
    mails = mails_to(app, address, "confirmation_link")
    assert mails, f"no confirmation link was mailed to {address}"
    [link] = [link for link in links_in(mails[-1]) if "/registrations/confirm" in link]
    return token_in(link)


def register_by_mail(client: Any, tournament_id: str, body: dict[str, Any]) -> Any:
    """An anonymous registration as a person makes it: ask (202), follow the mail's link."""
    asked = client.post(f"/api/v1/tournaments/{tournament_id}/registrations", json=body)
    assert asked.status_code == 202, asked.text
    token = confirmation_token(client.app, body["email"])
    return client.post("/api/v1/registrations/confirm", json={"token": token})
