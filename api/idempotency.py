"""`@idempotent`: the Idempotency-Key header (CONTRACT §6) for every POST that creates.

Put it under `@require_scope` so only authorised callers reach the key table:

    @bp.post("/widgets")
    @require_scope("widgets:write")
    @idempotent()
    def create_widget(): ...

Without the header the view runs as its own unit of work. With it, the first request claims
the key and its 2xx response is stored in the same commit as the view's changes; the same
request again within 24 hours gets that response back with `Idempotent-Replayed: true`; a
different
request gets 422 IDEMPOTENCY_KEY_REUSED; one arriving while the first still runs gets 409
IDEMPOTENCY_KEY_IN_USE. A request that fails
(an error status or an exception) releases the key, so the client may retry with it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps

from flask import Response, current_app, g, request

from api.validation import parse_json_text
from services.core import idempotency, transaction
from tenancy import current_tenant

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"


def request_digest(*parts: bytes | str) -> str:
    """sha256 over length-prefixed parts, so ("ab", "c") and ("a", "bc") differ."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def json_fingerprint() -> str:
    """Method, path, query and the JSON body up to key order and whitespace."""
    raw = request.get_data(cache=True)
    try:
        body = json.dumps(parse_json_text(raw or b"null"), sort_keys=True, separators=(",", ":"))
    except ValueError:
        body = raw.decode("latin-1")
    return request_digest(request.method, request.path, request.query_string, body)


def set_fingerprint(value: str) -> None:
    """For views that consume the body themselves (uploads): the fingerprint of this request."""
    g.idempotency_fingerprint = value


def idempotent(fingerprint: Callable[[], str] = json_fingerprint) -> Callable:
    """The unit of work of a creating view (use it instead of `@transactional`, not beside it).

    `fingerprint()` says what makes two requests the same. It is called for replays only;
    on a first request the view may call `set_fingerprint` (it has read the body), else the
    decorator calls `fingerprint()` after the view."""

    def decorator(view: Callable) -> Callable:
        unit_of_work = transaction.transactional(view)

        @wraps(view)
        def wrapper(*args, **kwargs):
            raw_key = request.headers.get(HEADER)
            if raw_key is None:
                return unit_of_work(*args, **kwargs)
            key = idempotency.validate_key(raw_key)
            claim = idempotency.claim(current_tenant.id, key, request.method, request.path)
            if not claim.owned:
                idempotency.check_same_request(claim.record, fingerprint())
                return _replay(claim.record)
            g.pop("idempotency_fingerprint", None)
            try:
                response = current_app.make_response(view(*args, **kwargs))
            except BaseException:
                idempotency.release(claim.record)
                raise
            if not 200 <= response.status_code < 300:
                idempotency.release(claim.record)
                return response
            if response.is_streamed:  # cannot be stored for replay: keep the work, free the key
                transaction.commit()
                idempotency.release(claim.record)
                return response
            value = g.pop("idempotency_fingerprint", None) or fingerprint()
            try:
                idempotency.complete(
                    claim.record,
                    value,
                    response.status_code,
                    dict(response.headers),
                    response.get_data(as_text=True),
                )
                # The view's changes and the stored response commit together, so a crash in
                # between cannot leave a resource without its record.
                transaction.commit()
            except BaseException:
                idempotency.release(claim.record)  # rolls the view's changes back too
                raise
            return response

        wrapper.api_idempotent = True  # type: ignore[attr-defined]
        return wrapper

    return decorator


def _replay(record) -> Response:
    response = Response(
        record.response_body or "",
        status=record.response_status or 200,
        headers=record.response_headers or {},
    )
    response.headers[REPLAYED_HEADER] = "true"
    return response
