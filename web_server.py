"""The web server's worker class (gunicorn.conf.py's `worker_class`): gunicorn's threaded
worker, whose answers to the requests its parser refuses before the app sees them (past
gunicorn.conf.py's limits, or not HTTP at all) are CONTRACT §1's error envelope, in JSON with
an `X-Request-Id`, instead of gunicorn's HTML page.

gunicorn's master process imports this module to find the class, so it imports nothing of the
app: what the master imports, the workers a HUP reload starts inherit unchanged. The codes are
those the app gives the same statuses (api/errors.py)."""

from __future__ import annotations

import json
import ssl
import uuid

from gunicorn import util
from gunicorn.http import errors as http
from gunicorn.workers.gthread import ThreadWorker

MALFORMED = "INVALID_PARAMETER"  # the app's code for a malformed request (api/errors.py)

# gunicorn's refusals, most specific first: (exception, status, reason, code, message).
REFUSALS: tuple[tuple[type[BaseException], int, str, str, str], ...] = (
    (http.LimitRequestHeaders, 431, "Request Header Fields Too Large", "HEADERS_TOO_LARGE",
     "The request headers are too large: over 500 headers or one over 32 KiB."),
    (http.LimitRequestLine, 414, "URI Too Long", "URI_TOO_LONG", "The request line is too long."),
    (http.UnsupportedTransferCoding, 501, "Not Implemented", "NOT_IMPLEMENTED",
     "This Transfer-Encoding is not supported."),
    (http.ExpectationFailed, 417, "Expectation Failed", "EXPECTATION_FAILED",
     "Only the Expect: 100-continue expectation is supported."),
    (http.ForbiddenProxyRequest, 403, "Forbidden", "FORBIDDEN",
     "PROXY protocol lines are not accepted from this address."),
    (ssl.SSLError, 403, "Forbidden", "FORBIDDEN", "The TLS handshake failed."),
    (http.InvalidRequestMethod, 400, "Bad Request", MALFORMED, "The method is not a valid token."),
    (http.InvalidHTTPVersion, 400, "Bad Request", MALFORMED, "The HTTP version is not supported."),
    (http.InvalidRequestLine, 400, "Bad Request", MALFORMED, "The request line is malformed."),
    (http.InvalidHeaderName, 400, "Bad Request", MALFORMED, "A header name is malformed."),
    (http.ObsoleteFolding, 400, "Bad Request", MALFORMED, "A header is folded over lines."),
    (http.InvalidHeader, 400, "Bad Request", MALFORMED, "A header is malformed."),
    (http.InvalidSchemeHeaders, 400, "Bad Request", MALFORMED,
     "The headers that name the scheme contradict each other."),
    (http.InvalidChunkSize, 400, "Bad Request", MALFORMED, "The chunked body is malformed."),
    (http.ChunkMissingTerminator, 400, "Bad Request", MALFORMED, "The chunked body is malformed."),
    (http.InvalidChunkExtension, 400, "Bad Request", MALFORMED, "The chunked body is malformed."),
    (http.InvalidProxyLine, 400, "Bad Request", MALFORMED, "The PROXY protocol line is malformed."),
    (http.InvalidH2CPreface, 400, "Bad Request", MALFORMED, "The HTTP/2 preface is malformed."),
)  # fmt: skip


def refusal(exc: BaseException) -> tuple[int, str, str, str]:
    """(status, reason, code, message) of the answer to `exc`; 500 for what is not the
    client's fault (an error of the server itself, a response header the app got wrong)."""
    if not isinstance(exc, (http.InvalidResponseHeader, http.InvalidResponseHeaderName)):
        for kind, status, reason, code, message in REFUSALS:
            if isinstance(exc, kind):
                return status, reason, code, message
    return 500, "Internal Server Error", "INTERNAL_ERROR", "An internal error occurred."


def envelope_answer(status: int, reason: str, code: str, message: str, request_id: str) -> bytes:
    """The whole HTTP answer: the envelope, then the connection closes."""
    if status == 500:
        message = f"{message} Quote request id {request_id} when contacting support."
    body = json.dumps({"success": False, "errors": [{"code": code, "message": message}]})
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"X-Request-Id: {request_id}\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "\r\n"
    )
    return (head + body).encode("latin-1")


class EnvelopeThreadWorker(ThreadWorker):
    """gunicorn's gthread worker, answering its own refusals in the envelope."""

    def handle_error(self, req, client, addr, exc) -> None:
        status, reason, code, message = refusal(exc)
        request_id = f"req_{uuid.uuid4().hex}"
        if status == 500:
            self.log.exception("Error handling request (request id %s)", request_id)
        else:
            peer = addr[0] if addr else ""
            self.log.warning("Invalid request from ip=%s: %s (%s)", peer, exc, request_id)
        try:
            util.write_nonblock(client, envelope_answer(status, reason, code, message, request_id))
        except Exception:
            self.log.debug("Failed to send error message.")
