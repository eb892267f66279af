"""The real app plus trivial routes for bench/auth_overhead.py: the same empty answer behind
the API's authentication + rate limiting (`/api/bench/protected`) and without it
(`/bench/open`), and `/bench/sql`, how many SQL statements this process has sent (to check
which credentials need the database per request). Served by gunicorn as
`bench.auth_overhead_app:create_bench_app()`."""

from __future__ import annotations

from flask import Blueprint
from sqlalchemy import event

from api.auth import authenticate_request
from app import create_app
from extensions import db


def create_bench_app():
    app = create_app(commands=False)  # as wsgi.py builds it
    protected = Blueprint("bench_protected", __name__, url_prefix="/api/bench")
    protected.before_request(authenticate_request)  # the API blueprint's own hook
    open_ = Blueprint("bench_open", __name__, url_prefix="/bench")
    statements = [0]

    def count(*_args) -> None:
        statements[0] += 1

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)

    @protected.get("/protected")
    def protected_ping():
        return {"success": True, "data": {}}

    @open_.get("/open")
    def open_ping():
        return {"success": True, "data": {}}

    @open_.get("/sql")
    def sql_statements():
        return {"success": True, "data": {"statements": statements[0]}}

    app.register_blueprint(protected)
    app.register_blueprint(open_)
    return app
