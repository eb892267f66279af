"""One error path: every exception on a path whose class answers in the envelope
(tenancy.PATH_CLASSES) becomes the envelope, never HTML, never a redirect. Portal paths keep
Flask's HTML pages, which the portal styles."""

from __future__ import annotations

import logging

from flask import Flask, g, request
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException

from api.envelope import error_response
from errors import DomainError
from tenancy import wants_envelope

log = logging.getLogger("dms.errors")

# Werkzeug's HTTP errors mapped onto CONTRACT §2 codes.
_HTTP_CODES = {
    400: ("INVALID_PARAMETER", "The request is malformed."),
    401: ("UNAUTHENTICATED", "Authentication is required."),
    403: ("FORBIDDEN", "You may not do this."),
    404: ("NOT_FOUND", "No such resource."),
    405: ("METHOD_NOT_ALLOWED", "This method is not allowed on this path."),
    409: ("CONFLICT", "The request conflicts with the resource's state."),
    413: ("PAYLOAD_TOO_LARGE", "The request body is larger than this endpoint accepts."),
    414: ("URI_TOO_LONG", "The path and query are too long."),
    415: ("UNSUPPORTED_MEDIA_TYPE", "This Content-Type is not accepted here."),
    431: ("HEADERS_TOO_LARGE", "The request headers are too large."),
}


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(DomainError)
    def handle_domain_error(error: DomainError):
        if wants_envelope():
            return error_response(error)
        return _portal_error(error.status, error.message)

    @app.errorhandler(HTTPException)
    def handle_http_exception(error: HTTPException):
        if not wants_envelope():
            return error
        status = error.code or 500
        code, message = _HTTP_CODES.get(status, ("HTTP_ERROR", error.description or ""))
        if status == 404 and request.url_rule is not None:
            message = error.description if error.description else message
        domain = DomainError(status, code, message)
        if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
            domain.headers["Allow"] = ", ".join(sorted(error.valid_methods))  # type: ignore[attr-defined]
        return error_response(domain)

    @app.errorhandler(OperationalError)
    @app.errorhandler(InterfaceError)
    def handle_database_down(error: Exception):
        # The driver's own first line ("database is locked", "connection refused"), not
        # SQLAlchemy's text of the error, which quotes the statement and its parameters.
        cause = getattr(error, "orig", None) or error
        reason = (str(cause).splitlines() or [""])[0][:200]
        log.error("database unavailable: %s: %s", type(cause).__name__, reason)
        return _unavailable("The service cannot reach its database; try again shortly.")

    @app.errorhandler(Exception)
    def handle_unexpected(error: Exception):
        log.exception("unhandled error", extra={"request_id": g.get("request_id")})
        if not wants_envelope():
            return _portal_error(500, "Something went wrong on our side.")
        return error_response(
            DomainError(
                500,
                "INTERNAL_ERROR",
                "An internal error occurred. Quote request id "
                f"{g.get('request_id', '-')} when contacting support.",
            )
        )


def _unavailable(message: str):
    error = DomainError(503, "SERVICE_UNAVAILABLE", message, headers={"Retry-After": "5"})
    if wants_envelope():
        return error_response(error)
    return _portal_error(503, message)


def _portal_error(status: int, message: str):
    from flask import render_template
    from jinja2 import TemplateNotFound

    try:
        return render_template("errors/error.html", status=status, message=message), status
    except TemplateNotFound:
        return f"{status}: {message}", status, {"Content-Type": "text/plain; charset=utf-8"}
