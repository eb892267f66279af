"""The versioned JSON API blueprint (/api/v1). Every resource module attaches its routes to
`bp`, and every view authenticates unless it is marked @public (api/auth.py): the hook is the
blueprint's, so no route can forget it."""

from __future__ import annotations

from flask import Blueprint

from api.auth import authenticate_request

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.before_request(authenticate_request)
