"""API lifecycle on the wire: deprecation headers and 410 for sunset items (from the
registry in services/lifecycle/deprecations.py), the retired /api/v1/entities routes, and the beta
tier's header. /internal/* is closed to customer credentials by api/operations.py."""

from __future__ import annotations

import logging

from flask import Flask, g, request

from api.auth import current_credential, require_scope
from api.blueprint import bp
from services.core import transaction
from services.lifecycle import deprecations
from tenancy import current_tenant, path_class

log = logging.getLogger("dms.lifecycle")

BETA_PREFIX = "/api/v1/beta/"
# Spec 9: beta endpoints are stable for 30 days at a time.
BETA_HEADER = ("X-API-Tier", 'beta; stability-window="30 days"')


def mount(app: Flask) -> None:
    app.after_request(lifecycle_headers)


def _deprecated_item() -> deprecations.Deprecation | None:
    if "deprecation" not in g:
        g.deprecation = deprecations.match(request.method, request.path, request.mimetype)
    return g.deprecation


@bp.before_request
def check_lifecycle() -> None:
    """After authentication (registered after it on the blueprint): count the use of a
    deprecated item against the caller, then refuse it if its sunset has passed."""
    item = _deprecated_item()
    if item is None:
        return
    if "credential" in g:
        record_deprecated_use(item)
    if item.is_sunset():
        raise deprecations.sunset_error(item)


def record_deprecated_use(item: deprecations.Deprecation) -> None:
    """A unit of work of its own, before the view's: the record stands whatever the view does."""
    try:
        transaction.transactional(deprecations.record_use)(
            current_tenant.id,
            item,
            current_credential.id,
            current_credential.kind,
            current_credential.label,
        )
    except Exception:  # rolled back; the request goes on
        log.exception("deprecated use of %s not recorded", item.id)


def lifecycle_headers(response):
    path = request.path
    if path.startswith(BETA_PREFIX):
        response.headers[BETA_HEADER[0]] = BETA_HEADER[1]
    if path_class().lifecycle:
        item = _deprecated_item()
        if item is not None:
            response.headers.update(deprecations.headers(item, request.host_url))
    return response


_ENTITIES = deprecations.find("entities")
_ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


@bp.route("/entities", methods=_ALL_METHODS)
@bp.route("/entities/<entity_id>", methods=_ALL_METHODS)
@bp.route("/entities/<entity_id>/<path:rest>", methods=_ALL_METHODS)
@require_scope("knowledge-graph:read")  # never reached after the sunset: the 410 comes first
def retired_entities(entity_id: str | None = None, rest: str | None = None):
    """Retired (spec 9); the routes remain so that callers get 410 and the way forward."""
    assert _ENTITIES is not None
    raise deprecations.sunset_error(_ENTITIES)


retired_entities.api_doc = {  # type: ignore[attr-defined]
    "summary": "Retired: use /api/v1/knowledge-graph/entities",
    "deprecated": True,
    # One operation for the whole catch-all (every method, every subpath answers 410), so a
    # generated client gets one deprecated function, not one per method and path.
    "operation_id": "listRetiredEntities",
    "listed": ("GET", "/api/v1/entities"),
    "operation": {"responses": {}},  # no success: only 410 and the way forward
}
