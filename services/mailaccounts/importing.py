"""A polled message's import: the attachments the account's rule takes (PDF, images, office
files, text; optionally the message's text) become documents through the upload path, and the
message's record (unique by Message-ID per account, each attachment's SHA-256) commits with
them as one unit of work, which is what makes an import happen once (the caller's
`transactional`, jobs/mailaccounts.py)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import select

from extensions import db
from models import MailAccount, MailMessage
from models.documents import SourceType
from services.audit import audit_log
from services.core.actors import Actor
from services.documents import documents, sniffing, uploads
from services.mailaccounts import messages
from services.mailaccounts.polling import Plan
from services.mailaccounts.wire import MailRule

# The types a message's attachments may have to become documents: PDF, images, office
# files and text; anything else is recorded as refused with its type.
_OFFICE = re.compile(
    r"^application/(msword|rtf|vnd\.ms-(excel|powerpoint)|vnd\.openxmlformats-officedocument\..+"
    r"|vnd\.oasis\.opendocument\..+)$"
)


def importable(content_type: str) -> bool:
    return (
        content_type == "application/pdf"
        or content_type.startswith(("image/", "text/"))
        or bool(_OFFICE.match(content_type))
    )


# --- booking ---------------------------------------------------------------------------------


def _matching_rule(plan: Plan, sender: str, subject: str) -> MailRule | None:
    for rule in plan.rules:
        if rule.from_contains and rule.from_contains.casefold() not in sender.casefold():
            continue
        if rule.subject_contains and rule.subject_contains.casefold() not in subject.casefold():
            continue
        return rule
    return None


@dataclass(frozen=True)
class Taken:
    """A message's record after its unit of work: the action still to do on the server."""

    record_id: str
    uid: int
    action: str | None
    move_to: str | None
    documents: int


def import_message(plan: Plan, uid: int, size: int, head: bytes, raw: bytes | None) -> Taken:
    """One unit of work: the message's documents and its record (and the account's last UID).
    A message whose Message-ID the account took already imports nothing again."""
    account = MailAccount.get_for_tenant(plan.account_id, plan.tenant_id)
    account.last_uid = max(account.last_uid, uid)
    account.uid_validity = plan.uid_validity
    message_id, sender, subject = messages.parse_headers(head)
    key = messages.message_key(message_id, None if message_id else (raw or head))
    known = db.session.scalar(
        select(MailMessage).where(
            MailMessage.tenant_id == plan.tenant_id,
            MailMessage.account_id == plan.account_id,
            MailMessage.message_key == key,
        )
    )
    if known is not None:
        db.session.flush()
        return Taken(known.id, known.uid, known.pending_action, known.move_to, 0)
    record = MailMessage(
        tenant_id=plan.tenant_id,
        account_id=plan.account_id,
        message_key=key,
        message_id=message_id or f"<no Message-ID: sha256 {key}>",
        uid=uid,
        uid_validity=plan.uid_validity,
        outcome="skipped",
        parts=[],
    )
    rule = _matching_rule(plan, sender, subject)
    imported = 0
    if rule is None:
        record.parts = [{"reason": "no rule matches"}]
    elif size > plan.max_message_bytes or raw is None:
        reason = "gone from the server"
        if size > plan.max_message_bytes:
            reason = (
                f"the message ({size} bytes) is over the limit of {plan.max_message_bytes} bytes"
            )
        record.outcome, record.parts = "refused", [{"reason": reason}]
    else:
        imported = _import_parts(plan, account, rule, record, raw, sender, subject)
    if imported:
        record.outcome = "imported"
        record.pending_action = rule.after_import if rule else None
        record.move_to = rule.move_to if rule else None
    db.session.add(record)
    db.session.flush()
    return Taken(record.id, uid, record.pending_action, record.move_to, imported)


def _import_parts(
    plan: Plan,
    account: MailAccount,
    rule: MailRule,
    record: MailMessage,
    raw: bytes,
    sender: str,
    subject: str,
) -> int:
    try:
        parsed = messages.parse(raw)
    except messages.Unreadable as exc:
        record.outcome, record.parts = "refused", [{"reason": str(exc)}]
        return 0
    if rule.attachments_only and not parsed.attachments:
        record.parts = [{"reason": "no attachments"}]
        return 0
    files = [(a.filename, a.content) for a in parsed.attachments]
    if rule.import_body and not rule.attachments_only and parsed.body:
        extension = "html" if parsed.body_is_html else "txt"
        name = f"{subject or 'message'}.{extension}"
        files.append((name, parsed.body.encode("utf-8")))
    actor = Actor("system", None, f"mail {account.id}")
    source = {
        "type": SourceType.MAIL.value,
        "accountId": account.id,
        "messageId": record.message_id,
        "from": sender,
        "subject": subject,
    }
    max_bytes = current_app.config["DMS_MAX_UPLOAD_BYTES"]
    parts: list[dict[str, Any]] = []
    seen: set[str] = set()
    imported = 0
    for filename, content in files:
        digest = messages.Attachment(filename, content).sha256
        part: dict[str, Any] = {"sha256": digest, "filename": filename[:255], "size": len(content)}
        parts.append(part)
        if digest in seen:
            part["reason"] = "the same content as another part of the message"
            continue
        seen.add(digest)
        if len(content) > max_bytes:
            part["reason"] = f"over the upload limit of {max_bytes} bytes"
            continue
        content_type = sniffing.sniff_content_type(content[:8192], filename)
        if not importable(content_type):
            part["reason"] = f"{content_type} is not imported (PDF, images, office and text are)"
            continue
        with uploads.receive_file(plan.tenant_id, io.BytesIO(content), filename) as received:
            document = documents.create_document(
                received,
                actor,
                title=None,
                tags=list(dict.fromkeys(rule.tags)),
                metadata={},
                source=source,
            )
        part["documentId"] = document.id
        imported += 1
    record.parts = parts
    if not imported:
        record.outcome = "refused"
    else:
        audit_log.record(
            plan.tenant_id,
            actor,
            "mail_account.message_imported",
            target_type="mail_account",
            target_id=account.id,
            details={
                "messageId": record.message_id,
                "documents": [p["documentId"] for p in parts if "documentId" in p],
            },
        )
    return imported


def import_messages(plan: Plan, fetched: list[tuple[int, int, bytes, bytes | None]]) -> list[Taken]:
    """Several messages in one unit of work (fewer commits; each message's documents still
    commit with its record): (uid, size, header block, bytes or None) each."""
    return [import_message(plan, *message) for message in fetched]
