"""The real app plus trivial routes for bench/auth_overhead.py: the same empty answer behind
the API's authentication + rate limiting (`/api/bench/protected`) and without it
(`/bench/open`); `/bench/sql`, how many SQL statements this process has sent (to check
which credentials need the database per request); and `/bare/rows`, fifty document-shaped
rows from a plain `Flask()` app with nothing of ours in it, mounted in the same WSGI
process (the framework's ceiling that bench/list_bench.py compares the documents list
with). Served by gunicorn as `bench.auth_overhead_app:create_bench_app()`."""

from __future__ import annotations

from flask import Blueprint, Flask, jsonify
from sqlalchemy import event
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from api.auth import authenticate_request
from app import create_app
from extensions import db


def _bare_rows() -> list[dict]:
    """Fifty rows shaped like a page of documents, built once: the bare route only
    serialises them, as a Flask app with nothing of ours in the way would."""
    return [
        {
            "id": f"doc_{i:026d}",
            "title": f"Quarterly report {i}",
            "filename": f"report-{i}.pdf",
            "contentType": "application/pdf",
            "size": 1000 + i,
            "sha256": "0" * 64,
            "status": "active",
            "tags": ["finance", "q3"],
            "metadata": {"department": "finance"},
            "textStatus": "done",
            "textError": None,
            "textTruncated": False,
            "currentVersion": 1,
            "createdBy": "key_bench",
            "createdAt": "2026-11-23T10:00:00Z",
            "updatedAt": "2026-11-23T10:00:00Z",
            "deletedAt": None,
            "workflow": None,
        }
        for i in range(50)
    ]


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
    app.wsgi_app = DispatcherMiddleware(app.wsgi_app, {"/bare": _bare_app()})
    return app


def _bare_app() -> Flask:
    """Flask as it comes (its own JSON provider, no hooks): one route, fifty rows."""
    bare = Flask("bare")
    rows = _bare_rows()

    @bare.get("/rows")
    def rows_route():
        return jsonify({"success": True, "data": rows})

    return bare
