"""Connecting to a mail account's IMAP server (imap-tools over imaplib): the SSRF guard first
(services/core/outbound.py: the host is resolved once and private addresses are refused
unless the operator allows them), then a connection to exactly the checked address, with TLS
verified against the host's name (the system's CAs, and DMS_MAIL_CA_BUNDLE's). `starttls`
refuses a server that does not offer STARTTLS; nothing is sent in the clear before it.

Each way a connection can fail is a `MailError` with its own code, which the account's
`lastErrorCode` and POST /mail-accounts/{id}/test answer (docs/mailaccounts.md lists them)."""

from __future__ import annotations

import contextlib
import functools
import imaplib
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import current_app

from services.core import lazy, outbound

TIMEOUT_SECONDS = 30.0


class MailError(Exception):
    """Why talking to the server failed: a code (MAIL_…) and a message for people. Neither
    ever carries the password."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Settings:
    """What a connection needs, read from the account inside its unit of work."""

    host: str
    port: int
    security: str
    username: str
    password: str
    folder: str

    def __repr__(self) -> str:  # the password stays out of every log line and traceback
        return f"Settings(host={self.host!r}, port={self.port}, security={self.security!r})"


def _tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    bundle = current_app.config.get("DMS_MAIL_CA_BUNDLE")
    if bundle:
        context.load_verify_locations(cafile=bundle)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


class _Plain(imaplib.IMAP4):
    """imaplib's client, connecting to the address the guard checked (`self.host` stays the
    name: STARTTLS sends it as SNI and checks the certificate against it)."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        self.checked_address = address
        super().__init__(host, port, timeout)

    def _create_socket(self, timeout):
        return socket.create_connection((self.checked_address, self.port), timeout)


class _Tls(imaplib.IMAP4_SSL):
    def __init__(
        self, host: str, address: str, port: int, timeout: float, context: ssl.SSLContext
    ) -> None:
        self.checked_address = address
        super().__init__(host, port, ssl_context=context, timeout=timeout)

    def _create_socket(self, timeout):
        sock = socket.create_connection((self.checked_address, self.port), timeout)
        return self.ssl_context.wrap_socket(sock, server_hostname=self.host)


# imap-tools loads with the first connection a process makes (a test, a poll), so a web
# worker that never talks IMAP does not hold it.
imap_tools = lazy.module("imap_tools")
imap_errors = lazy.module("imap_tools.errors")
# An imap_tools.BaseMailBox made by open_mailbox (its class is built on first use).
Mailbox = Any


@functools.cache
def _mailbox_class() -> type:
    class ConnectedMailbox(imap_tools.BaseMailBox):
        """imap-tools' mailbox over a client made by `connect` (already connected)."""

        def __init__(self, client: imaplib.IMAP4) -> None:
            self._client = client
            super().__init__()

        def _get_mailbox_client(self) -> imaplib.IMAP4:
            return self._client

    return ConnectedMailbox


def _connect(settings: Settings, address: str) -> imaplib.IMAP4:
    if settings.security == "ssl":
        return _Tls(settings.host, address, settings.port, TIMEOUT_SECONDS, _tls_context())
    client = _Plain(settings.host, address, settings.port, TIMEOUT_SECONDS)
    if settings.security == "starttls":
        if "STARTTLS" not in client.capabilities:
            with contextlib.suppress(imaplib.IMAP4.error, OSError):
                client.shutdown()
            raise MailError(
                "MAIL_STARTTLS_UNAVAILABLE",
                f"{settings.host} does not offer STARTTLS; nothing was sent in the clear.",
            )
        client.starttls(_tls_context())
    return client


def _guard(settings: Settings) -> str:
    host = settings.host.strip("[]")
    named = f"[{host}]" if ":" in host else host
    allow = bool(current_app.config.get("DMS_MAIL_ALLOW_PRIVATE"))
    try:
        return outbound.resolve(f"imap://{named}:{settings.port}/", allow_private=allow).address
    except outbound.NotResolved as exc:
        raise MailError("MAIL_DNS_FAILED", f"The name {host} does not resolve ({exc}).") from None
    except outbound.AddressRefused as exc:
        raise MailError(
            "MAIL_ADDRESS_REFUSED",
            f"{exc}; private and loopback servers need the operator's DMS_MAIL_ALLOW_PRIVATE.",
        ) from None


def _tls_problem(exc: ssl.SSLError, host: str) -> MailError:
    if isinstance(exc, ssl.SSLCertVerificationError):
        reason = exc.verify_message or exc.reason or "not trusted"
        return MailError("MAIL_TLS_FAILED", f"The certificate of {host} is refused: {reason}.")
    return MailError("MAIL_TLS_FAILED", f"TLS with {host} failed: {exc.reason or exc}.")


@contextlib.contextmanager
def open_mailbox(settings: Settings, *, select: bool = True) -> Iterator[Mailbox]:
    """A logged-in mailbox with the account's folder selected (read-write), logged out at the
    end; every failure on the way is a MailError that says which step failed."""
    address = _guard(settings)
    host = settings.host
    try:
        client = _connect(settings, address)
    except MailError:
        raise
    except ssl.SSLError as exc:
        raise _tls_problem(exc, host) from None
    except ConnectionRefusedError:
        raise MailError(
            "MAIL_CONNECTION_REFUSED", f"{host} refused the connection on port {settings.port}."
        ) from None
    except TimeoutError:
        raise MailError(
            "MAIL_TIMEOUT", f"{host}:{settings.port} did not answer within {TIMEOUT_SECONDS:.0f} s."
        ) from None
    except (OSError, imaplib.IMAP4.error) as exc:
        raise MailError(
            "MAIL_CONNECTION_FAILED", f"Could not talk IMAP with {host}:{settings.port}: {exc}."
        ) from None
    mailbox = _mailbox_class()(client)
    try:
        try:
            mailbox.login(settings.username, settings.password, initial_folder=None)
        except imap_errors.MailboxLoginError:
            raise MailError(
                "MAIL_LOGIN_FAILED",
                f"{host} refused the user name or the password of {settings.username}.",
            ) from None
        if select:
            try:
                mailbox.folder.set(settings.folder)
            except imap_errors.MailboxFolderSelectError:
                raise MailError(
                    "MAIL_FOLDER_NOT_FOUND", f"The folder {settings.folder!r} cannot be opened."
                ) from None
        yield mailbox
    except ssl.SSLError as exc:
        raise _tls_problem(exc, host) from None
    except TimeoutError:
        raise MailError("MAIL_TIMEOUT", f"{host} stopped answering.") from None
    except (OSError, imaplib.IMAP4.abort) as exc:
        raise MailError(
            "MAIL_CONNECTION_FAILED", f"The connection to {host} broke: {exc}."
        ) from None
    finally:
        with contextlib.suppress(Exception):
            mailbox.client.logout()


def check(settings: Settings) -> int:
    """Connect, log in and open the folder: how many messages it holds."""
    with open_mailbox(settings) as mailbox:
        status = mailbox.folder.status(settings.folder, ["MESSAGES"])
        return int(status.get("MESSAGES", 0))
