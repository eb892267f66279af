"""The admin portal (server-rendered Jinja + htmx): one module per page group, with shared
plumbing beside them (access rules, layout, security headers, charts, navigation)."""

from __future__ import annotations

from flask import Flask

from portal import (  # noqa: F401  (they attach their views)
    accounts,
    audit,
    copilot,
    dashboard,
    documents,
    forms,
    graph,
    keys,
    layout,
    lifecycle,
    notifications,
    oauth,
    passkeys,
    reference,
    security,
    webhooks,
    workflows,
)
from portal.blueprint import bp


def register(app: Flask) -> None:
    security.init_app(app)
    layout.init_app(app)
    notifications.init_app(app)
    reference.init_app(app)
    app.register_blueprint(bp)
