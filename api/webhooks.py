"""Webhooks resource (CONTRACT §4, §9): endpoints, their secret's rotation, a test event, the
event catalogue, and each endpoint's deliveries with a retry. Routes only: the work is in
services/webhooks."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.webhooks import deliveries, endpoints, replay, wire
from services.webhooks.wire import (
    DeliveryListQuery,
    ReplayBody,
    ReplayOut,
    WebhookCreate,
    WebhookDeliveryOut,
    WebhookEndpointOut,
    WebhookEndpointWithSecretOut,
    WebhookEventTypeOut,
    WebhookListQuery,
    WebhookPatch,
)
from tenancy import current_tenant


@bp.post("/webhooks")
@require_scope("webhooks:write")
@idempotent()
@json_body(WebhookCreate)
@responds(WebhookEndpointWithSecretOut, status=201)
def create_webhook(body: WebhookCreate):
    """Register an endpoint. The answer carries its signing secret (`whsec_…`) this once.
    Accepts Idempotency-Key."""
    endpoint, secret = endpoints.create_endpoint(
        current_tenant.id,
        body.url,
        body.events,
        current_credential.actor(),
        description=body.description,
        enabled=body.enabled,
    )
    location = url_for("api.get_webhook", webhook_id=endpoint.id)
    return ok(wire.endpoint_data(endpoint, secret), status=201, headers={"Location": location})


@bp.get("/webhooks")
@require_scope("webhooks:read")
@query_args(WebhookListQuery)
@responds(WebhookEndpointOut, many=True)
def list_webhooks(query: WebhookListQuery):
    binding = binding_of(current_tenant.id, resource="webhooks")
    rows, more = endpoints.list_endpoints(
        current_tenant.id, query.limit, id_position(query.cursor, binding)
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.endpoints_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/webhooks/event-types")
@require_scope("webhooks:read")
@responds(WebhookEventTypeOut, many=True)
def list_webhook_event_types():
    """The event types an endpoint can subscribe to, each with a sample event. New types may
    appear at any time: receivers must ignore types they do not know."""
    data = wire.event_types_data()
    return ok_list(data, limit=max(len(data), 1), next_cursor=None)


@bp.get("/webhooks/<webhook_id>")
@require_scope("webhooks:read")
@responds(WebhookEndpointOut)
def get_webhook(webhook_id: str):
    return ok(wire.endpoint_data(endpoints.get_endpoint(current_tenant.id, webhook_id)))


@bp.patch("/webhooks/<webhook_id>")
@require_scope("webhooks:write")
@transactional
@json_body(WebhookPatch)
@responds(WebhookEndpointOut)
def update_webhook(webhook_id: str, body: WebhookPatch):
    """Change the URL, the events, the description, or enable and disable the endpoint."""
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    endpoints.update_endpoint(endpoint, changes, current_credential.actor())
    return ok(wire.endpoint_data(endpoint))


@bp.delete("/webhooks/<webhook_id>")
@require_scope("webhooks:write")
@transactional
@responds(WebhookEndpointOut)
def delete_webhook(webhook_id: str):
    """Delete the endpoint with its deliveries; answers with what was deleted."""
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    data = wire.endpoint_data(endpoint)
    endpoints.delete_endpoint(endpoint, current_credential.actor())
    return ok(data)


@bp.post("/webhooks/<webhook_id>/rotate-secret")
@require_scope("webhooks:write")
@transactional
@responds(WebhookEndpointWithSecretOut)
@operation(takes_body=False)
def rotate_webhook_secret(webhook_id: str):
    """A new secret, shown this once; the previous one keeps signing for 24 hours (both
    signatures are sent), so receivers can switch without losing a delivery."""
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    secret = endpoints.rotate_secret(endpoint, current_credential.actor())
    return ok(wire.endpoint_data(endpoint, secret))


@bp.post("/webhooks/<webhook_id>/test")
@require_scope("webhooks:write")
@transactional
@responds(WebhookDeliveryOut, status=202)
@operation("sendWebhookTest", takes_body=False)
def test_webhook(webhook_id: str):
    """Send a `webhook.test` event to this endpoint alone; answers with its delivery."""
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    delivery = deliveries.send_test(endpoint, current_credential.actor())
    return ok(wire.delivery_data(delivery), status=202)


@bp.get("/webhooks/<webhook_id>/deliveries")
@require_scope("webhooks:read")
@query_args(DeliveryListQuery)
@responds(WebhookDeliveryOut, many=True)
def list_webhook_deliveries(webhook_id: str, query: DeliveryListQuery):
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    binding = binding_of(
        current_tenant.id, resource="deliveries", endpoint=endpoint.id, status=query.status
    )
    rows, more = deliveries.list_deliveries(
        endpoint, query.limit, id_position(query.cursor, binding), query.status
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.deliveries_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.post("/webhooks/<webhook_id>/deliveries/<delivery_id>/retry")
@require_scope("webhooks:write")
@transactional
@responds(WebhookDeliveryOut, status=202)
@operation(takes_body=False)
def retry_webhook_delivery(webhook_id: str, delivery_id: str):
    """Attempt the delivery again now (a failed one gets one more attempt)."""
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    delivery = deliveries.get_delivery(endpoint, delivery_id)
    deliveries.retry_delivery(delivery, current_credential.actor())
    return ok(wire.delivery_data(delivery), status=202)


@bp.post("/webhooks/<webhook_id>/replay")
@require_scope("webhooks:write")
@transactional
@json_body(ReplayBody)
@responds(ReplayOut, status=202)
def replay_webhook_events(webhook_id: str, body: ReplayBody):
    """Send every event of a time range again (e.g. after the receiver's outage): each gets an
    attempt now and, if it fails, the whole retry schedule again. `webhook-id` is the event's
    id as before, so receivers can drop what they already have."""
    endpoint = endpoints.get_endpoint(current_tenant.id, webhook_id)
    count = replay.replay(endpoint, body.from_, body.to, current_credential.actor())
    return ok({"events": count}, status=202)
