"""Mail accounts in the portal (admins): the accounts with their last poll and error, a form
that adds one (with one rule), and per account a connection test, a poll now and delete.
Every form is a plain POST with its CSRF token; the same services as the API
(services/mailaccounts)."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from pydantic import ValidationError

from portal.access import ADMIN, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from services.core.transaction import transactional
from services.mailaccounts import accounts
from services.mailaccounts.connection import MailError
from services.mailaccounts.wire import MailAccountCreate

_FIELDS = ("name", "imapHost", "imapPort", "security", "username", "folder", "pollMinutes")
_RULE_FIELDS = ("fromContains", "subjectContains", "tags", "afterImport", "moveTo")
BLANK = {
    "name": "", "imapHost": "", "imapPort": "", "security": "ssl", "username": "",
    "folder": "INBOX", "pollMinutes": "10", "fromContains": "", "subjectContains": "",
    "tags": "", "afterImport": "markRead", "moveTo": "",
}  # fmt: skip


def _render(form: dict[str, str], errors: dict[str, list[str]], status: int = 200):
    rows, _more = accounts.list_accounts(portal_tenant().id, 200, None)
    return render_template(
        "portal/mailaccounts/index.html", rows=rows, form=form, errors=errors
    ), status


@bp.get("/mail-accounts")
@roles_required(*ADMIN)
def mail_accounts_page():
    return _render(dict(BLANK), {})


def _body(form: dict[str, str], password: str) -> dict[str, Any]:
    body: dict[str, Any] = {k: form[k] for k in _FIELDS if form[k]}
    body["password"] = password
    rule: dict[str, Any] = {k: form[k] for k in _RULE_FIELDS if form[k] and k != "tags"}
    tags = [t.strip() for t in form["tags"].split(",") if t.strip()]
    if tags:
        rule["tags"] = tags
    if rule.keys() - {"afterImport"} or rule.get("afterImport", "markRead") != "markRead":
        body["rules"] = [rule]
    return body


@bp.post("/mail-accounts")
@roles_required(*ADMIN)
@transactional
def create_mail_account_page():
    form = {k: request.form.get(k, "").strip()[:500] for k in BLANK}
    password = request.form.get("password", "")[:1000]
    try:
        body = MailAccountCreate.model_validate(_body(form, password))
    except ValidationError as exc:
        errors: dict[str, list[str]] = {}
        for item in exc.errors():
            loc = [str(p) for p in item["loc"]]
            key = loc[-1] if loc[:1] == ["rules"] and len(loc) > 2 else (loc[0] if loc else "form")
            if loc[:1] == ["rules"] and len(loc) <= 2:
                key = "afterImport"
            errors.setdefault(key, []).append(item["msg"].removeprefix("Value error, "))
        return _render(form, errors, 422)
    account = accounts.create_account(portal_tenant().id, body, portal_actor())
    flash(f"Added the mail account {account.name}.", "success")
    return redirect(url_for("portal.mail_accounts_page"))


@bp.post("/mail-accounts/<account_id>/test")
@roles_required(*ADMIN)
def test_mail_account_page(account_id: str):
    account = accounts.get_account(portal_tenant().id, account_id)
    try:
        count = accounts.check_connection(account)
    except MailError as error:
        flash(f"{account.name}: {error.code}: {error.message}", "error")
    else:
        messages = "1 message" if count == 1 else f"{count} messages"
        flash(f"{account.name}: connected; {account.folder} holds {messages}.", "success")
    return redirect(url_for("portal.mail_accounts_page"))


@bp.post("/mail-accounts/<account_id>/poll")
@roles_required(*ADMIN)
@transactional
def poll_mail_account_page(account_id: str):
    account = accounts.get_account(portal_tenant().id, account_id)
    accounts.request_poll(account, portal_actor())
    flash(f"{account.name}: a poll is queued; reload for its outcome.", "success")
    return redirect(url_for("portal.mail_accounts_page"))


@bp.post("/mail-accounts/<account_id>/enabled")
@roles_required(*ADMIN)
@transactional
def toggle_mail_account_page(account_id: str):
    account = accounts.get_account(portal_tenant().id, account_id)
    enabled = request.form.get("enabled") == "1"
    accounts.update_account(account, {"enabled": enabled}, portal_actor())
    flash(f"{account.name} {'enabled' if enabled else 'disabled'}.", "success")
    return redirect(url_for("portal.mail_accounts_page"))


@bp.post("/mail-accounts/<account_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_mail_account_page(account_id: str):
    account = accounts.get_account(portal_tenant().id, account_id)
    name = account.name
    accounts.delete_account(account, portal_actor())
    flash(f"Deleted the mail account {name}; its documents stay.", "success")
    return redirect(url_for("portal.mail_accounts_page"))
