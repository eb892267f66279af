"""The JSON API: one module per capability (routes only; capabilities.py lists them and the
app factory imports each), with shared plumbing beside them (auth, envelope, errors,
pagination, validation, idempotency, the OpenAPI document)."""

from __future__ import annotations

from flask import Flask

from api import openapi  # noqa: F401  (attaches the document's route)
from api.blueprint import bp


def register(app: Flask) -> None:
    """Mount the API blueprint, once every capability's module has attached its routes."""
    app.register_blueprint(bp)
