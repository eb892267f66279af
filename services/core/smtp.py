"""Outbound e-mail through the operator's SMTP server (`DMS_SMTP_URL`): invitations and
e-mailed notifications. A service calls `send_later`, which queues the message as an RQ job
after its unit of work commits, so no request waits on SMTP; the job calls `send`.

`smtp://user:pass@host:587?starttls=true` speaks STARTTLS (refused when the server does not
offer it), `smtps://host:465` TLS from the first byte; the server's certificate is verified
against the system's roots unless `?verify=false` names a lab server. The host is the
operator's, never a tenant's, so the SSRF guard of outbound HTTP does not apply."""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from flask import current_app
from rq import Retry

from services.core import transaction
from services.core.queue import enqueue

JOB = "jobs.core.send_mail"
# A server down for a while (a restart, a greylisting answer) gets three more tries.
SEND_RETRY = Retry(max=3, interval=[60, 300, 1800])
TRUE = {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    username: str | None
    password: str | None
    tls: str  # "ssl" | "starttls" | "none"
    verify: bool
    timeout: float


def parse_url(url: str) -> SmtpServer:
    """The server of `DMS_SMTP_URL`; ValueError names what is wrong with it."""
    parts = urlsplit(url)
    if parts.scheme not in {"smtp", "smtps"}:
        raise ValueError("DMS_SMTP_URL must start with smtp:// or smtps://")
    if not parts.hostname:
        raise ValueError("DMS_SMTP_URL names no host")
    query = {k: v[-1].lower() for k, v in parse_qs(parts.query).items()}
    if parts.scheme == "smtps":
        tls = "ssl"
    else:
        tls = "starttls" if query.get("starttls", "false") in TRUE else "none"
    return SmtpServer(
        host=parts.hostname,
        port=parts.port or (465 if tls == "ssl" else 587 if tls == "starttls" else 25),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        tls=tls,
        verify=query.get("verify", "true") in TRUE,
        timeout=float(query.get("timeout", "30")),
    )


def configured() -> bool:
    return bool(current_app.config.get("DMS_SMTP_URL"))


def send_later(to: str, subject: str, text: str) -> None:
    """Queue the message once the caller's unit of work commits (nothing sent on a rollback).
    A no-op without `DMS_SMTP_URL`."""
    if not configured():
        return
    transaction.after_commit(lambda: enqueue(JOB, to, subject, text, retry=SEND_RETRY))


def build(to: str, subject: str, text: str) -> EmailMessage:
    message = EmailMessage()
    sender = current_app.config.get("DMS_SMTP_FROM") or "DMS <no-reply@localhost>"
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject.replace("\r", " ").replace("\n", " ")[:200]
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip("> ") or None)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(text)
    return message


def send(to: str, subject: str, text: str) -> None:
    """Send one message now (the job's body); raises smtplib/OSError errors for RQ to retry."""
    server = parse_url(current_app.config["DMS_SMTP_URL"])
    context = ssl.create_default_context()
    if not server.verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    message = build(to, subject, text)
    if server.tls == "ssl":
        connection: smtplib.SMTP = smtplib.SMTP_SSL(
            server.host, server.port, timeout=server.timeout, context=context
        )
    else:
        connection = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
    with connection:
        if server.tls == "starttls":
            connection.starttls(context=context)  # raises when the server does not offer it
        if server.username:
            connection.login(server.username, server.password or "")
        connection.send_message(message)
