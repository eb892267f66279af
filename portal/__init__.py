"""The admin portal blueprint (server-rendered Jinja + htmx), one module per page group."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("portal", __name__)


def register(app) -> None:
    from portal import home  # noqa: F401  (route registration)

    app.register_blueprint(bp)
