"""Reading one fetched message, within bounds: its Message-ID, From and Subject, its
attachments and its text, walked without recursion and stopped at a depth and a number of
parts (a MIME bomb of nested parts is refused with the reason, not followed)."""

from __future__ import annotations

import email
import email.policy
import hashlib
from dataclasses import dataclass, field
from email.message import Message

MAX_DEPTH = 20  # multipart levels followed
MAX_PARTS = 2000  # parts looked at in one message
MAX_HEADER_CHARS = 500


class Unreadable(Exception):
    """The message cannot be taken apart within the bounds; the message says why."""


@dataclass
class Attachment:
    filename: str
    content: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()


@dataclass
class Parsed:
    message_id: str
    sender: str
    subject: str
    attachments: list[Attachment] = field(default_factory=list)
    body: str | None = None
    body_is_html: bool = False


def header(raw: Message, name: str) -> str:
    try:
        value = raw.get(name)
    except (ValueError, TypeError, IndexError):  # a malformed header the policy cannot read
        value = None
    return " ".join(str(value or "").split())[:MAX_HEADER_CHARS]


def message_key(message_id: str, raw: bytes | None = None) -> str:
    """What identifies a message of an account: its Message-ID, or its bytes without one."""
    if message_id:
        return hashlib.sha256(message_id.strip().encode("utf-8", "replace")).hexdigest()
    return hashlib.sha256(raw or b"").hexdigest()


def parse_headers(data: bytes) -> tuple[str, str, str]:
    """Message-ID, From and Subject from a message's header block."""
    raw = email.message_from_bytes(data, policy=email.policy.default)
    return header(raw, "Message-ID"), header(raw, "From"), header(raw, "Subject")


def parse(data: bytes) -> Parsed:
    try:
        raw = email.message_from_bytes(data, policy=email.policy.default)
    except RecursionError:
        raise Unreadable(f"MIME parts nested deeper than {MAX_DEPTH} levels") from None
    parsed = Parsed(header(raw, "Message-ID"), header(raw, "From"), header(raw, "Subject"))
    stack: list[tuple[Message, int]] = [(raw, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > MAX_PARTS:
            raise Unreadable(f"more than {MAX_PARTS} MIME parts")
        if part.is_multipart():
            if depth >= MAX_DEPTH:
                raise Unreadable(f"MIME parts nested deeper than {MAX_DEPTH} levels")
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((child, depth + 1) for child in reversed(children))
            continue
        _take(parsed, part)
    return parsed


def _take(parsed: Parsed, part: Message) -> None:
    disposition = part.get_content_disposition()
    filename = part.get_filename()
    content_type = part.get_content_type()
    if disposition == "attachment" or (filename and not content_type.startswith("text/")):
        content = part.get_payload(decode=True) or b""
        parsed.attachments.append(Attachment(filename or "attachment", content))
        return
    if content_type in ("text/plain", "text/html") and disposition != "attachment":
        is_html = content_type == "text/html"
        if parsed.body is None or (parsed.body_is_html and not is_html):
            try:
                text = part.get_content()
            except (LookupError, ValueError, AssertionError):
                payload = part.get_payload(decode=True) or b""
                text = payload.decode("utf-8", "replace")
            parsed.body, parsed.body_is_html = str(text), is_html
