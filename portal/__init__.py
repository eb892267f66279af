"""The admin portal (server-rendered Jinja + htmx): one module per capability (capabilities.py
lists them and the app factory imports each), with shared plumbing beside them (access rules,
layout, security headers, charts, navigation, the dashboard and the API's reading pages)."""

from __future__ import annotations

from flask import Flask

from portal import dashboard, layout, reference, security  # noqa: F401  (dashboard: the home page)
from portal.blueprint import bp


def register(app: Flask) -> None:
    """The portal's shared hooks, then its blueprint, once every capability's module has
    attached its views."""
    security.init_app(app)
    layout.init_app(app)
    reference.init_app(app)
    app.register_blueprint(bp)
