"""The real app plus two trivial routes for bench/auth_overhead.py: the same empty answer
behind the API's authentication + rate limiting (`/api/bench/protected`) and without it
(`/bench/open`). Served by gunicorn as `bench.auth_overhead_app:create_bench_app()`."""

from __future__ import annotations

from flask import Blueprint

from api.auth import authenticate_request
from app import create_app


def create_bench_app():
    app = create_app(commands=False)  # as wsgi.py builds it
    protected = Blueprint("bench_protected", __name__, url_prefix="/api/bench")
    protected.before_request(authenticate_request)  # the API blueprint's own hook
    open_ = Blueprint("bench_open", __name__, url_prefix="/bench")

    @protected.get("/protected")
    def protected_ping():
        return {"success": True, "data": {}}

    @open_.get("/open")
    def open_ping():
        return {"success": True, "data": {}}

    app.register_blueprint(protected)
    app.register_blueprint(open_)
    return app
