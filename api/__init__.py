"""The versioned JSON API blueprint (/api/v1): one module per resource, routes only."""

from __future__ import annotations

from flask import Blueprint, Flask

from api.auth import authenticate_request

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# Every API view authenticates unless it is marked @public: no route can forget.
bp.before_request(authenticate_request)


def register(app: Flask) -> None:
    """Import the resource modules (they attach routes to `bp`) and mount the blueprints."""
    # documents and search attach their routes to `bp` when imported.
    from api import documents, lifecycle, openapi, search  # noqa: F401
    from api.internal import bp as internal_bp

    app.register_blueprint(bp)
    app.register_blueprint(internal_bp)
    lifecycle.init_app(app)
    openapi.init_app(app)
