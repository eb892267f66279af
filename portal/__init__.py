"""The admin portal blueprint (server-rendered Jinja + htmx), one module per page group."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("portal", __name__)


def register(app) -> None:
    from portal import audit_log, auth, deprecations, home, keys, layout, security, users  # noqa: F401

    security.init_app(app)
    layout.init_app(app)
    app.register_blueprint(bp)
