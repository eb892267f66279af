"""Push subscriptions (CONTRACT §4, §9): a person registers their devices, lists and removes
them. Needs a person (a user's access token; an API key gets 403 USER_CONTEXT_REQUIRED) and the
notifications scopes. Routes only: the work is in services/push."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope, require_user
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.openapi import RATE_LIMIT_HEADERS
from api.pagination import id_position
from api.validation import json_body, operation_documented, query_args, responds
from models import User
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.push import devices, providers, webpush, wire
from services.push.wire import (
    PushSubscriptionCreate,
    PushSubscriptionListQuery,
    PushSubscriptionOut,
    WebPushKeyOut,
)
from tenancy import current_tenant

NO_CONTENT = {
    "description": "Unsubscribed; no body.",
    "headers": {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS},
}


def _caller() -> User:
    return User.get_for_tenant(current_credential.id, current_tenant.id)


@bp.get("/push/web-push-key")
@require_user
@require_scope("notifications:write")
@responds(WebPushKeyOut)
def get_web_push_key():
    """The key a browser needs to subscribe (`applicationServerKey` of
    PushManager.subscribe()); send the resulting subscription as DeviceToken with Platform
    `web`. `publicKey` is null when this server is not configured for Web Push."""
    settings = providers.vapid_settings()
    return ok({"publicKey": webpush.public_key(settings) if settings else None})


@bp.post("/push/subscriptions")
@require_user
@require_scope("notifications:write")
@transactional
@json_body(PushSubscriptionCreate)
@responds(PushSubscriptionOut, status=201)
def create_push_subscription(body: PushSubscriptionCreate):
    """Register this device for the caller's notifications. The same device again answers
    200 with its existing subscription; a device another person of the tenant registered
    moves to the caller (theirs is removed). 422 names `Platform` or `DeviceToken`."""
    subscription, created = devices.subscribe(
        _caller(), body.platform, body.device_token, current_credential.actor()
    )
    location = url_for("api.list_push_subscriptions")
    return ok(
        wire.subscription_json(subscription),
        status=201 if created else 200,
        headers={"Location": f"{location}/{subscription.id}"},
    )


@bp.get("/push/subscriptions")
@require_user
@require_scope("notifications:read")
@query_args(PushSubscriptionListQuery)
@responds(PushSubscriptionOut, many=True)
def list_push_subscriptions(query: PushSubscriptionListQuery):
    """The caller's own devices, newest first."""
    user = _caller()
    binding = binding_of(current_tenant.id, resource="push-subscriptions", user=user.id)
    rows, more = devices.list_own(user, query.limit, id_position(query.cursor, binding))
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.subscriptions_json(rows), limit=query.limit, next_cursor=next_cursor)


@bp.delete("/push/subscriptions/<subscription_id>")
@require_user
@require_scope("notifications:write")
@transactional
@operation_documented({"responses": {"204": NO_CONTENT}})
def delete_push_subscription(subscription_id: str):
    """Stop pushing to this device. Another person's subscription is a 404."""
    subscription = devices.get_own(subscription_id, _caller())
    devices.remove(subscription, current_credential.actor(), "unsubscribed")
    return "", 204
