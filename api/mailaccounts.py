"""Mail accounts resource (CONTRACT §10): IMAP accounts polled for documents, a connection
test that says why it fails, and a poll now (as a job). Routes only: services/mailaccounts
works (docs/mailaccounts.md). An account holds a mailbox's password, so people need the
admin role (API keys, the documents scopes)."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from errors import DomainError
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.mailaccounts import accounts, wire
from services.mailaccounts.connection import MailError
from services.mailaccounts.wire import (
    MailAccountCreate,
    MailAccountListQuery,
    MailAccountOut,
    MailAccountPatch,
    MailAccountTestOut,
    MailPollOut,
)
from tenancy import current_tenant

# The status a failed connection test answers: the server (or the way to it) failed, not the
# request; a refused address is the account's settings.
_TEST_STATUS = {"MAIL_ADDRESS_REFUSED": 422, "MAIL_PASSWORD_UNREADABLE": 409}


def _require_admin() -> None:
    if current_credential.kind == "user" and not current_credential.is_admin:
        raise DomainError(403, "FORBIDDEN", "Only an admin manages mail accounts.")


@bp.post("/mail-accounts")
@require_scope("documents:write")
@transactional  # not @idempotent: a stored replay would keep the password in its request
@json_body(MailAccountCreate)
@responds(MailAccountOut, status=201)
def create_mail_account(body: MailAccountCreate):
    """An IMAP account polled every `pollMinutes` for documents. The password is stored
    encrypted and never answered. Admins only (for people)."""
    _require_admin()
    account = accounts.create_account(current_tenant.id, body, current_credential.actor())
    location = url_for("api.get_mail_account", account_id=account.id)
    return ok(wire.account_data(account), status=201, headers={"Location": location})


@bp.get("/mail-accounts")
@require_scope("documents:read")
@query_args(MailAccountListQuery)
@responds(MailAccountOut, many=True)
def list_mail_accounts(query: MailAccountListQuery):
    """The tenant's mail accounts, newest first, each with its last poll and error."""
    _require_admin()
    binding = binding_of(current_tenant.id, resource="mail-accounts")
    rows, more = accounts.list_accounts(
        current_tenant.id, query.limit, id_position(query.cursor, binding)
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.accounts_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/mail-accounts/<account_id>")
@require_scope("documents:read")
@responds(MailAccountOut)
def get_mail_account(account_id: str):
    _require_admin()
    return ok(wire.account_data(accounts.get_account(current_tenant.id, account_id)))


@bp.patch("/mail-accounts/<account_id>")
@require_scope("documents:write")
@transactional
@json_body(MailAccountPatch)
@responds(MailAccountOut)
def update_mail_account(account_id: str, body: MailAccountPatch):
    """Change the fields sent (a new password too). Another server, user or folder makes the
    next poll look at every message again; messages taken already are not taken twice."""
    _require_admin()
    account = accounts.get_account(current_tenant.id, account_id)
    changes = body.changes()
    account = accounts.update_account(account, changes, current_credential.actor())
    return ok(wire.account_data(account))


@bp.delete("/mail-accounts/<account_id>")
@require_scope("documents:write")
@transactional
@responds(MailAccountOut)
def delete_mail_account(account_id: str):
    """Delete the account; the documents it brought in stay. Answers what was deleted."""
    _require_admin()
    account = accounts.get_account(current_tenant.id, account_id)
    data = wire.account_data(account)
    accounts.delete_account(account, current_credential.actor())
    return ok(data)


@bp.post("/mail-accounts/<account_id>/test")
@require_scope("documents:write")
@responds(MailAccountTestOut)
@operation("testMailAccount", takes_body=False)
def test_mail_account(account_id: str):
    """Connect, log in and open the folder. A failure answers 502 with a code that says which
    step failed: MAIL_DNS_FAILED, MAIL_CONNECTION_REFUSED, MAIL_TIMEOUT,
    MAIL_CONNECTION_FAILED, MAIL_TLS_FAILED, MAIL_STARTTLS_UNAVAILABLE, MAIL_LOGIN_FAILED,
    MAIL_FOLDER_NOT_FOUND; 422 MAIL_ADDRESS_REFUSED for a private or loopback address the
    operator does not allow."""
    _require_admin()
    account = accounts.get_account(current_tenant.id, account_id)
    try:
        count = accounts.check_connection(account)
    except MailError as error:
        status = _TEST_STATUS.get(error.code, 502)
        raise DomainError(status, error.code, error.message) from None
    return ok(wire.connection_data(account.folder, count, account.security))


@bp.post("/mail-accounts/<account_id>/poll")
@require_scope("documents:write")
@transactional
@responds(MailPollOut, status=202)
@operation("pollMailAccount", takes_body=False)
def poll_mail_account(account_id: str):
    """Poll the account now, as a job (one batch of new messages; more batches follow by
    themselves). The account's lastPolledAt and lastError show the outcome."""
    _require_admin()
    account = accounts.get_account(current_tenant.id, account_id)
    job_id = accounts.request_poll(account, current_credential.actor())
    return ok(wire.poll_data(account.id, job_id), status=202)
