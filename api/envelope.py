"""The response envelope of CONTRACT §1: one shape for every JSON answer."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from errors import DomainError


def ok(data: Any, status: int = 200, meta: dict | None = None, headers: dict | None = None):
    body: dict[str, Any] = {"success": True, "data": data}
    if meta:
        body["meta"] = meta
    return _respond(body, status, headers)


def ok_list(
    items: list, *, limit: int, next_cursor: str | None, extra_meta: dict | None = None
) -> Response:
    pagination: dict[str, Any] = {"limit": limit, "hasMore": next_cursor is not None}
    if next_cursor is not None:
        pagination["nextCursor"] = next_cursor
    return ok(items, meta={"pagination": pagination, **(extra_meta or {})})


def error_response(error: DomainError) -> Response:
    body = {"success": False, "errors": [e.as_dict() for e in error.errors]}
    response = _respond(body, error.status, error.headers)
    if error.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="api", error="invalid_token"'
    return response


def _respond(body: dict, status: int, headers: dict | None) -> Response:
    response = jsonify(body)
    response.status_code = status
    if headers:
        response.headers.update(headers)
    return response
