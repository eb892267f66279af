"""The portal's navigation as data: label, endpoint and the roles that see each entry.

base.html renders `entries_for(role)`; a page of another feature adds itself with one line.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NavEntry:
    label: str
    endpoint: str
    roles: tuple[str, ...]


NAV: list[NavEntry] = [
    NavEntry("Dashboard", "portal.index", ("admin", "auditor", "member")),
    NavEntry("Notifications", "portal.notifications_page", ("admin", "auditor", "member")),
    NavEntry("Approvals", "portal.approvals_page", ("admin", "auditor", "member")),
    NavEntry("Documents", "portal.documents_page", ("admin", "auditor", "member")),
    NavEntry("Entities", "portal.entities_page", ("admin", "auditor", "member")),
    NavEntry("Ask", "portal.ask_page", ("admin", "member")),
    NavEntry("API keys", "portal.keys", ("admin", "auditor")),
    NavEntry("Audit log", "portal.audit_log", ("admin", "auditor")),
    NavEntry("Deprecation notices", "portal.deprecation_notices", ("admin", "auditor")),
    NavEntry("Webhooks", "portal.webhooks", ("admin", "auditor")),
    NavEntry("Forms", "portal.forms_page", ("admin",)),
    NavEntry("Sharing", "portal.sharing_settings_page", ("admin",)),
    NavEntry("Custom fields", "portal.custom_fields_page", ("admin",)),
    NavEntry("Mail accounts", "portal.mail_accounts_page", ("admin",)),
    NavEntry("Matching rules", "portal.matching_rules_page", ("admin",)),
    NavEntry("Workflows", "portal.workflow_definitions_page", ("admin", "auditor")),
    NavEntry("Users", "portal.users_page", ("admin",)),
    NavEntry("OAuth apps", "portal.oauth_apps", ("admin",)),
    NavEntry("Authorized apps", "portal.authorized_apps", ("admin", "auditor", "member")),
    NavEntry("Passkeys", "portal.passkeys_page", ("admin", "auditor", "member")),
    NavEntry("Two-factor sign-in", "portal.mfa_page", ("admin", "auditor", "member")),
    NavEntry("Sign-in security", "portal.mfa_settings_page", ("admin",)),
    NavEntry("Tenants", "portal.support_tenants", ("support",)),
]


def entries_for(role: str | None) -> list[NavEntry]:
    return [entry for entry in NAV if role in entry.roles]
