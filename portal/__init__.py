"""The admin portal (server-rendered Jinja + htmx): one module per page group, with shared
plumbing beside them (access rules, layout, security headers, charts, navigation)."""

from __future__ import annotations

from flask import Flask

from portal import (  # noqa: F401  (they attach their views)
    approvals,
    audit_log,
    auth,
    copilot,
    dashboard,
    deprecations,
    document_files,
    documents,
    entities,
    forms,
    keys,
    layout,
    notifications,
    oauth,
    passkeys,
    public_forms,
    reference,
    security,
    users,
    webhooks,
    workflow_definitions,
)
from portal.blueprint import bp


def register(app: Flask) -> None:
    security.init_app(app)
    layout.init_app(app)
    notifications.init_app(app)
    reference.init_app(app)
    app.register_blueprint(bp)
