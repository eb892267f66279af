"""Webhook endpoints: create (the secret is shown once), change, enable and disable, delete,
rotate the secret (the old one keeps signing for 24 hours), and the secrets that sign now."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import select

import clock
from errors import FieldError, validation_failed
from extensions import db
from models import WebhookEndpoint
from services.audit import audit_log
from services.core import outbound, signals, transaction
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.webhooks import signing
from services.webhooks.catalogue import DIRECT_ONLY, EVENT_TYPES, WILDCARD

ROTATION_OVERLAP = timedelta(hours=24)
MAX_EVENT_TYPES = 100
_EDITABLE = ("url", "events", "description", "enabled")


def get_endpoint(tenant_id: str, endpoint_id: str) -> WebhookEndpoint:
    """The tenant's endpoint, or 404 (another tenant's id included)."""
    return WebhookEndpoint.get_for_tenant(endpoint_id, tenant_id)


def list_endpoints(
    tenant_id: str, limit: int, after: Sequence[Any] | None
) -> tuple[list[WebhookEndpoint], bool]:
    """Newest first, a page at a time (keyset on the time-ordered id)."""
    return keyset_page(
        WebhookEndpoint.query_for_tenant(tenant_id), [(WebhookEndpoint.id, True)], limit, after
    )


def _checked(url: str | None, events: list[str] | None) -> list[str] | None:
    """One 422 for every bad field; the event list normalised (`*` alone, no duplicates)."""
    errors: list[FieldError] = []
    if url is not None:
        problem = outbound.url_problem(
            url,
            allow_http=current_app.config["DMS_WEBHOOK_ALLOW_HTTP"],
            allow_private=current_app.config["DMS_WEBHOOK_ALLOW_PRIVATE"],
        )
        if problem:
            errors.append(FieldError("VALIDATION_ERROR", f"url: {problem}", "url"))
    clean = None
    if events is not None:
        clean = list(dict.fromkeys(events))
        unknown = [t for t in clean if t != WILDCARD and (t not in EVENT_TYPES or t in DIRECT_ONLY)]
        if not clean:
            errors.append(
                FieldError("VALIDATION_ERROR", "events: name at least one type, or '*'.", "events")
            )
        elif unknown:
            errors.append(
                FieldError(
                    "VALIDATION_ERROR",
                    f"events: unknown type {unknown[0]!r} (see GET /api/v1/webhooks/event-types).",
                    "events",
                )
            )
        elif len(clean) > MAX_EVENT_TYPES:
            errors.append(
                FieldError("VALIDATION_ERROR", f"events: at most {MAX_EVENT_TYPES}.", "events")
            )
        elif WILDCARD in clean:
            clean = [WILDCARD]
    if errors:
        raise validation_failed(errors)
    return clean


def create_endpoint(
    tenant_id: str,
    url: str,
    events: list[str],
    actor: Actor,
    *,
    description: str | None = None,
    enabled: bool = True,
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its `whsec_` secret, which is never shown again."""
    event_types = _checked(url, events)
    secret = signing.generate_secret()
    endpoint = WebhookEndpoint(
        tenant_id=tenant_id,
        url=url,
        event_types=event_types,
        description=description,
        enabled=enabled,
        disabled_reason=None if enabled else "Created disabled.",
        secret_encrypted=signing.seal(secret),
        created_by=actor.ref,
    )
    db.session.add(endpoint)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "webhook.created",
        target_type="webhook_endpoint",
        target_id=endpoint.id,
        details={"url": url, "events": event_types, "enabled": enabled},
    )
    return endpoint, secret


def update_endpoint(endpoint: WebhookEndpoint, changes: dict[str, Any], actor: Actor) -> None:
    """Change url, events, description or enabled; enabling clears the disabled reason."""
    event_types = _checked(changes.get("url"), changes.get("events"))
    before = {
        "url": endpoint.url,
        "events": endpoint.event_types,
        "description": endpoint.description,
        "enabled": endpoint.enabled,
    }
    after = {**before, **{k: v for k, v in changes.items() if k in _EDITABLE}}
    if event_types is not None:
        after["events"] = event_types
    endpoint.url = after["url"]
    endpoint.event_types = after["events"]
    endpoint.description = after["description"]
    if after["enabled"] != endpoint.enabled:
        endpoint.enabled = after["enabled"]
        endpoint.disabled_reason = None if endpoint.enabled else f"Disabled by {actor.ref}."
    diff = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
    if diff:
        db.session.flush()
        audit_log.record(
            endpoint.tenant_id,
            actor,
            "webhook.updated",
            target_type="webhook_endpoint",
            target_id=endpoint.id,
            details=diff,
        )


def delete_endpoint(endpoint: WebhookEndpoint, actor: Actor) -> None:
    """Gone with its deliveries and their attempts."""
    audit_log.record(
        endpoint.tenant_id,
        actor,
        "webhook.deleted",
        target_type="webhook_endpoint",
        target_id=endpoint.id,
        details={"url": endpoint.url},
    )
    signals.webhook_endpoint_deleting.send(endpoint)
    db.session.delete(endpoint)
    db.session.flush()


def rotate_secret(endpoint: WebhookEndpoint, actor: Actor) -> str:
    """A new secret; the current one keeps signing beside it for ROTATION_OVERLAP, so that
    receivers can switch without dropping a delivery. Returns the new secret (shown once).
    Rotating again within the overlap drops the oldest secret at once (a leaked secret can be
    replaced twice in a row)."""
    secret = signing.generate_secret()
    endpoint.previous_secret_encrypted = endpoint.secret_encrypted
    endpoint.previous_secret_expires_at = clock.now() + ROTATION_OVERLAP
    endpoint.secret_encrypted = signing.seal(secret)
    db.session.flush()
    audit_log.record(
        endpoint.tenant_id,
        actor,
        "webhook.secret_rotated",
        target_type="webhook_endpoint",
        target_id=endpoint.id,
        details={"previousValidUntil": clock.rfc3339(endpoint.previous_secret_expires_at)},
    )
    return secret


def signing_secrets(endpoint: WebhookEndpoint) -> list[str]:
    """The secrets that sign a delivery now: the current one, and the previous one while its
    overlap lasts."""
    keys = [signing.unseal(endpoint.secret_encrypted)]
    expires = endpoint.previous_secret_expires_at
    if endpoint.previous_secret_encrypted and expires and expires > clock.now():
        keys.append(signing.unseal(endpoint.previous_secret_encrypted))
    return keys


def disable(endpoint: WebhookEndpoint, reason: str) -> None:
    """Stop deliveries to `endpoint` (a 410 from it, or failing for days); the tenant's admins
    are told (signals.webhook_endpoint_disabled)."""
    endpoint.enabled = False
    endpoint.disabled_reason = reason[:300]
    db.session.flush()
    signals.webhook_endpoint_disabled.send(endpoint, reason=endpoint.disabled_reason)


def subscribers(tenant_id: str, event_type: str) -> list[WebhookEndpoint]:
    """The tenant's enabled endpoints that want `event_type` (read once per tenant inside a
    `transaction.memoized` batch, whose documents' events all ask)."""
    enabled = transaction.memo(("webhook-endpoints", tenant_id), lambda: _enabled(tenant_id))
    return [e for e in enabled if e.subscribes_to(event_type)]


def _enabled(tenant_id: str) -> list[WebhookEndpoint]:
    # The pending event needs no flush to be fanned out: it is flushed with its deliveries.
    with db.session.no_autoflush:
        return list(
            db.session.scalars(
                select(WebhookEndpoint).where(
                    WebhookEndpoint.tenant_id == tenant_id, WebhookEndpoint.enabled.is_(True)
                )
            )
        )
