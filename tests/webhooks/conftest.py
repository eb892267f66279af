"""Webhook fixtures: a real local receiver, the settings that let deliveries reach it
(DMS_WEBHOOK_ALLOW_PRIVATE and _HTTP, as an operator of a single VM would set them), and
helpers that create endpoints and emit events through the services."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.webhooks.receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver().start()
    yield server
    server.stop()


@pytest.fixture
def local_delivery(app, monkeypatch):
    """Allow http and loopback URLs for this test (the receiver listens on 127.0.0.1)."""
    monkeypatch.setitem(app.config, "DMS_WEBHOOK_ALLOW_PRIVATE", True)
    monkeypatch.setitem(app.config, "DMS_WEBHOOK_ALLOW_HTTP", True)


@pytest.fixture
def make_endpoint(app, local_delivery):
    """(endpoint id, secret) for a tenant, created through the service."""
    from services.core import transaction
    from services.core.actors import Actor
    from services.webhooks import endpoints

    def factory(tenant, url: str, events: list[str] | None = None, **kwargs):
        with app.app_context():
            endpoint, secret = endpoints.create_endpoint(
                tenant.id, url, events or ["*"], Actor.system("tests"), **kwargs
            )
            transaction.commit()
            return endpoint.id, secret

    return factory


@pytest.fixture
def emit(app):
    """Emit an event through the outbox and commit, as any service's boundary would; returns
    the event id (deliveries are fanned out and enqueued by then)."""
    from services.core import events, transaction

    def factory(tenant, type_: str = "document.created", data: dict | None = None) -> str:
        with app.app_context():
            event = events.emit(tenant.id, type_, data or {"document": {"id": "doc_1"}})
            transaction.commit()
            return event.id

    return factory


@pytest.fixture
def deliveries_of(app):
    """The deliveries of an endpoint (newest first) as plain dicts, with their attempts."""
    from sqlalchemy import select

    from extensions import db
    from models import WebhookDelivery
    from services.webhooks import wire

    def factory(endpoint_id: str) -> list[dict]:
        with app.app_context():
            rows = db.session.scalars(
                select(WebhookDelivery)
                .where(WebhookDelivery.endpoint_id == endpoint_id)
                .order_by(WebhookDelivery.id.desc())
            ).all()
            return wire.deliveries_data(list(rows))

    return factory


@pytest.fixture
def reconcile(app):
    from services.core import transaction
    from services.webhooks import reconciler

    def runner() -> int:
        with app.app_context():
            return transaction.transactional(reconciler.reconcile)()

    return runner
