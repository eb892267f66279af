"""Mail accounts as they go over the wire (CONTRACT §10; camelCase): requests validated here,
answers produced here (API bodies, the portal), both described in the OpenAPI document. The
password is write-only: no answer model has it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationInfo,
    field_validator,
)
from pydantic.alias_generators import to_camel

from models import MailAccount
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.documents.wire import Tag

MAX_RULES = 20
MAX_RULE_TAGS = 20
MAX_POLL_MINUTES = 7 * 24 * 60

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
# A host name or an IP address literal: no scheme, path or spaces.
Host = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=255, pattern=r"^[A-Za-z0-9.:\[\]_-]+$"
    ),
]
# No control characters: these go into IMAP commands as quoted strings, where a CR or LF
# would end the command and start another.
_PRINTABLE = r"^[^\x00-\x1f\x7f]+$"
Username = Annotated[str, StringConstraints(min_length=1, max_length=320, pattern=_PRINTABLE)]
Password = Annotated[str, StringConstraints(min_length=1, max_length=1000, pattern=_PRINTABLE)]
Folder = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=255, pattern=_PRINTABLE),
]
Contains = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Security = Literal["ssl", "starttls", "none"]
AfterImport = Literal["markRead", "move", "delete"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class MailRule(_Body):
    """Which messages an account imports and what then happens to them on the server. A
    message goes by the first rule it matches; an account without rules imports every
    message's attachments and marks it read."""

    from_contains: Contains | None = Field(
        None, description="The From header contains this (any case)."
    )
    subject_contains: Contains | None = Field(
        None, description="The Subject contains this (any case)."
    )
    attachments_only: bool = Field(
        True, description="Only messages with attachments match; the body is not imported."
    )
    import_body: bool = Field(
        False, description="The message's text also becomes a document (with attachmentsOnly off)."
    )
    tags: list[Tag] = Field(default_factory=list, max_length=MAX_RULE_TAGS)
    move_to: Folder | None = Field(None, description="The folder `move` puts it in.")
    # After moveTo, so that its check sees it.
    after_import: AfterImport = Field("markRead", description="What happens to the message.")

    @field_validator("after_import")
    @classmethod
    def _move_needs_a_folder(cls, value: str, info: ValidationInfo) -> str:
        if value == "move" and not info.data.get("move_to"):
            raise ValueError("move needs the folder to move to (moveTo)")
        return value


class MailAccountCreate(_Body):
    """POST /mail-accounts."""

    name: Name
    imap_host: Host
    imap_port: int | None = Field(
        None, ge=1, le=65535, description="Default 993 for ssl, 143 otherwise."
    )
    security: Security = Field("ssl", description="ssl (implicit TLS), starttls (required), none.")
    username: Username
    password: Password = Field(description="Write-only: stored encrypted, never answered.")
    folder: Folder = "INBOX"
    poll_minutes: int = Field(10, ge=1, le=MAX_POLL_MINUTES)
    enabled: bool = True
    rules: list[MailRule] = Field(default_factory=list, max_length=MAX_RULES)


class MailAccountPatch(_Body):
    """PATCH /mail-accounts/{id}: only the fields sent change."""

    name: Name = absent()
    imap_host: Host = absent()
    imap_port: int = absent(minimum=1, maximum=65535)
    security: Security = absent()
    username: Username = absent()
    password: Password = absent()
    folder: Folder = absent()
    poll_minutes: int = absent(minimum=1, maximum=MAX_POLL_MINUTES)
    enabled: bool = absent()
    rules: list[MailRule] = absent(maxItems=MAX_RULES)

    @field_validator(
        "name",
        "imap_host",
        "imap_port",
        "security",
        "username",
        "password",
        "folder",
        "poll_minutes",
        "enabled",
        "rules",
        mode="before",
    )
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)

    @field_validator("imap_port", "poll_minutes")
    @classmethod
    def _bounds(cls, value: int | None, info: ValidationInfo) -> int | None:
        top = 65535 if info.field_name == "imap_port" else MAX_POLL_MINUTES
        if value is not None and not 1 <= value <= top:
            raise ValueError(f"must be between 1 and {top}")
        return value

    @field_validator("rules")
    @classmethod
    def _few_rules(cls, value: list[MailRule] | None) -> list[MailRule] | None:
        if value is not None and len(value) > MAX_RULES:
            raise ValueError(f"at most {MAX_RULES} rules")
        return value

    def changes(self) -> dict[str, Any]:
        """The fields sent, by attribute name (rules as stored)."""
        sent = self.model_dump(exclude_unset=True)
        if "rules" in sent:
            sent["rules"] = stored_rules(self.rules or [])
        return sent


class MailAccountListQuery(PageQuery):
    """GET /mail-accounts: newest first."""


# --- answers -----------------------------------------------------------------------------------


class MailRuleOut(Wire):
    from_contains: str | None
    subject_contains: str | None
    attachments_only: bool
    import_body: bool
    tags: list[str]
    after_import: str
    move_to: str | None


class MailAccountOut(Wire):
    id: str
    name: str
    imap_host: str
    imap_port: int
    security: str
    username: str
    folder: str
    poll_minutes: int
    enabled: bool
    rules: list[MailRuleOut]
    last_polled_at: Timestamp | None = Field(description="When the last poll ended.")
    last_error: str | None = Field(description="Why the last poll failed; null after a success.")
    last_error_code: str | None = Field(description="The error's code (MAIL_…), as /test says.")
    failures: int = Field(description="Polls failed in a row (each waits longer).")
    next_poll_at: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp


class MailAccountTestOut(Wire):
    ok: bool
    folder: str
    messages: int = Field(description="Messages in the folder.")
    security: str = Field(description="How the connection was protected.")


class MailPollOut(Wire):
    account_id: str
    job_id: str = Field(description="The queued poll's job id.")


def stored_rules(rules: list[MailRule]) -> list[dict[str, Any]]:
    return [rule.model_dump(by_alias=True) for rule in rules]


_ACCOUNTS = TypeAdapter(list[MailAccountOut])


def _fields(account: MailAccount) -> dict[str, Any]:
    return {
        "id": account.id,
        "name": account.name,
        "imap_host": account.imap_host,
        "imap_port": account.imap_port,
        "security": account.security,
        "username": account.username,
        "folder": account.folder,
        "poll_minutes": account.poll_minutes,
        "enabled": account.enabled,
        "rules": [MailRule.model_validate(rule).model_dump() for rule in account.rules],
        "last_polled_at": account.last_polled_at,
        "last_error": account.last_error,
        "last_error_code": account.last_error_code,
        "failures": account.failures,
        "next_poll_at": account.next_poll_at,
        "created_at": account.created_at,
        "updated_at": account.updated_at,
    }


def account_data(account: MailAccount) -> dict[str, Any]:
    return MailAccountOut.model_validate(_fields(account)).model_dump(mode="json", by_alias=True)


def accounts_data(rows: list[MailAccount]) -> list[dict[str, Any]]:
    models = _ACCOUNTS.validate_python([_fields(account) for account in rows])
    return _ACCOUNTS.dump_python(models, mode="json", by_alias=True)


def connection_data(folder: str, messages: int, security: str) -> dict[str, Any]:
    answer = MailAccountTestOut(ok=True, folder=folder, messages=messages, security=security)
    return answer.model_dump(mode="json", by_alias=True)


def poll_data(account_id: str, job_id: str) -> dict[str, Any]:
    return MailPollOut(account_id=account_id, job_id=job_id).model_dump(mode="json", by_alias=True)
