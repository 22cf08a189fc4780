"""A local SMTP server for the outbox's tests (aiosmtpd): keeps what it accepts, or refuses."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller


class Sink:
    """Accepts every mail (``messages``), or answers ``refusal`` (e.g. ``451 ...``) to DATA."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refusal: str | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.refusal:
            return self.refusal
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 Message accepted for delivery"

    def of_kind(self, kinds: dict[str, str], kind: str) -> list[EmailMessage]:
        """The accepted mails whose outbox row (by ``X-Bgtd-Outbox-Id``) is of ``kind``."""
        return [m for m in self.messages if kinds.get(str(m["X-Bgtd-Outbox-Id"])) == kind]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def sink() -> Iterator[Sink]:
    receiver = Sink()
    receiver.port = free_port()
    controller = Controller(receiver, hostname="127.0.0.1", port=receiver.port)
    controller.start()
    try:
        yield receiver
    finally:
        controller.stop()
