"""Mail accounts: create, change, delete, list, check the connection, and ask for a poll now.
Every change is audited without the password (the audit names the fields that changed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

import clock
from extensions import db
from models import MailAccount
from services.audit import audit_log
from services.core import queue, sealing, transaction
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.mailaccounts import connection
from services.mailaccounts.wire import MailAccountCreate, stored_rules

POLL_JOB = "jobs.mailaccounts.poll_account"
# The passwords' sealing purpose (services/core/sealing.py): IMAP logins need the password
# itself, so it is encrypted under a key of its own, never hashed.
PASSWORDS = "mail-passwords"
DEFAULT_PORTS = {"ssl": 993, "starttls": 143, "none": 143}


def create_account(tenant_id: str, body: MailAccountCreate, actor: Actor) -> MailAccount:
    now = clock.now()
    account = MailAccount(
        tenant_id=tenant_id,
        name=body.name,
        imap_host=body.imap_host,
        imap_port=body.imap_port or DEFAULT_PORTS[body.security],
        security=body.security,
        username=body.username,
        password_encrypted=sealing.seal(body.password, PASSWORDS),
        folder=body.folder,
        poll_minutes=body.poll_minutes,
        enabled=body.enabled,
        rules=stored_rules(body.rules),
        last_uid=0,
        failures=0,
        next_poll_at=now,
        created_by=actor.ref,
        created_at=now,
        updated_at=now,
    )
    db.session.add(account)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "mail_account.created",
        target_type="mail_account",
        target_id=account.id,
        details={"host": account.imap_host, "username": account.username},
    )
    return account


def update_account(account: MailAccount, changes: dict[str, Any], actor: Actor) -> MailAccount:
    """Apply the fields sent (attribute names); a new server, user or folder starts over
    (the next poll looks at every message again; those taken already stay taken)."""
    changed = []
    for name, value in changes.items():
        if name == "password":
            account.password_encrypted = sealing.seal(value, PASSWORDS)
            changed.append("password")
            continue
        if getattr(account, name) != value:
            setattr(account, name, value)
            changed.append(name)
    if {"imap_host", "imap_port", "username", "folder"} & set(changed):
        account.uid_validity, account.last_uid = None, 0
    if {"imap_host", "imap_port", "security", "username", "password", "folder", "enabled"} & set(
        changed
    ):
        account.failures, account.next_poll_at = 0, clock.now()
    if changed:
        account.updated_at = clock.now()
        db.session.flush()
        audit_log.record(
            account.tenant_id,
            actor,
            "mail_account.updated",
            target_type="mail_account",
            target_id=account.id,
            details={"changed": sorted(changed)},
        )
    return account


def delete_account(account: MailAccount, actor: Actor) -> None:
    """Delete the account and its record of messages taken; its documents stay."""
    audit_log.record(
        account.tenant_id,
        actor,
        "mail_account.deleted",
        target_type="mail_account",
        target_id=account.id,
        details={"host": account.imap_host, "username": account.username},
    )
    db.session.delete(account)
    db.session.flush()


def get_account(tenant_id: str, account_id: str) -> MailAccount:
    return MailAccount.get_for_tenant(account_id, tenant_id)


def list_accounts(
    tenant_id: str, limit: int, after: Sequence[Any] | None
) -> tuple[list[MailAccount], bool]:
    stmt = select(MailAccount).where(MailAccount.tenant_id == tenant_id)
    return keyset_page(stmt, [(MailAccount.id, True)], limit, after)


def settings_of(account: MailAccount) -> connection.Settings:
    """What a connection needs; the password unsealed (a MailError when it cannot be)."""
    try:
        password = sealing.unseal(account.password_encrypted, PASSWORDS)
    except ValueError:
        raise connection.MailError(
            "MAIL_PASSWORD_UNREADABLE",
            "The stored password is unreadable (SECRET_KEY changed): set it again.",
        ) from None
    return connection.Settings(
        account.imap_host,
        account.imap_port,
        account.security,
        account.username,
        password,
        account.folder,
    )


def check_connection(account: MailAccount) -> int:
    """Connect, log in and open the folder; the number of messages in it, or a MailError."""
    return connection.check(settings_of(account))


def request_poll(account: MailAccount, actor: Actor) -> str:
    """Queue a poll of the account once the request commits; the job's id."""
    job_id = queue.named_job_id("mail-poll", account.id, clock.now().strftime("%Y%m%d%H%M%S%f"))
    tenant_id, account_id = account.tenant_id, account.id
    audit_log.record(
        tenant_id, actor, "mail_account.poll_requested", target_type="mail_account",
        target_id=account_id,
    )  # fmt: skip
    transaction.after_commit(
        lambda: queue.enqueue(POLL_JOB, tenant_id, account_id, job_id=job_id, job_timeout=1800)
    )
    return job_id
