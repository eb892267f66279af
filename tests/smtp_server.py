"""A real SMTP server for the tests (aiosmtpd on 127.0.0.1): the app's DMS_SMTP_URL points at
it while the fixture lasts, and each message it receives is kept, parsed, for the test."""

from __future__ import annotations

import email
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default

import pytest
from aiosmtpd.controller import Controller


class Inbox:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's hook
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.content, policy=default))
        return "250 Message accepted for delivery"

    def bodies(self) -> list[str]:
        return [m.get_content() for m in self.messages]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server(app) -> Iterator[Inbox]:
    """A local SMTP server, with the app sending through it: its Inbox."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    before = app.config.get("DMS_SMTP_URL")
    app.config["DMS_SMTP_URL"] = f"smtp://127.0.0.1:{controller.port}"
    try:
        yield inbox
    finally:
        app.config["DMS_SMTP_URL"] = before
        controller.stop()
