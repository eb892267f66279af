"""The JSON API: one module per resource (routes only), with shared plumbing beside them
(auth, envelope, errors, pagination, validation, rate limits, the OpenAPI document)."""

from __future__ import annotations

from flask import Flask

from api import (  # noqa: F401  (they attach their routes)
    accounts,
    analytics,
    copilot,
    documents,
    forms,
    graph,
    lifecycle,
    notifications,
    oauth,
    openapi,
    operations,
    passkeys,
    push,
    search,
    semantic,
    webhooks,
    workflows,
)
from api.blueprint import bp


def register(app: Flask) -> None:
    """Mount the API, the internal tier and the reference pages."""
    app.register_blueprint(bp)
    operations.init_app(app)
    lifecycle.init_app(app)
    oauth.init_app(app)
