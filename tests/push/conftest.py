"""Push fixtures: the three fake providers with real keys (an APNs .p8 key, an FCM service
account whose token_uri is the fake token endpoint, a VAPID key, and a browser's Web Push
subscription keys), the settings that point the app at them, and helpers that create
notifications the way services do (a row and `notification_created` in one unit of work)."""

from __future__ import annotations

import base64
import json
import os
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from joserfc import jwt
from joserfc.jwk import ECKey, RSAKey

from tests.helpers import bearer
from tests.push.fakes import FakeApns, FakeHttp, Received, Reply

APNS_TOPIC = "com.example.dms"
FCM_PROJECT = "demo-project"
ACCESS_TOKEN = "ya29.fake-access-token"
GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"
FCM_OK = json.dumps({"name": f"projects/{FCM_PROJECT}/messages/0:1"}).encode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


@dataclass
class Browser:
    """A browser's side of a Web Push subscription: its keys, and what it decrypted."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    received: list[dict] = field(default_factory=list)

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self, endpoint: str) -> dict:
        keys = {"p256dh": self.p256dh, "auth": b64url(self.auth)}
        return {"endpoint": endpoint, "expirationTime": None, "keys": keys}


@dataclass
class Providers:
    apns: FakeApns
    fcm: FakeHttp
    web: FakeHttp
    apns_key: ec.EllipticCurvePrivateKey
    fcm_key: rsa.RSAPrivateKey
    vapid_key: ec.EllipticCurvePrivateKey
    browser: Browser
    token_requests: list[dict] = field(default_factory=list)

    def web_endpoint(self, path: str = "/push/abc123") -> str:
        return f"{self.web.url}{path}"


def verify_vapid(received: Received, vapid_public: ec.EllipticCurvePublicKey) -> dict:
    """RFC 8292: `vapid t=<JWT>,k=<key>`; the JWT is ES256 by our VAPID key, for this origin."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.split("=", 1) for p in params.split(","))
    point = vapid_public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert parts["k"] == b64url(point)
    key = ECKey.import_key(vapid_public)
    token = jwt.decode(parts["t"], key, algorithms=["ES256"])
    return token.claims


@pytest.fixture
def providers(app, monkeypatch, tmp_path) -> Iterator[Providers]:
    apns_key = ec.generate_private_key(ec.SECP256R1())
    fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    vapid_key = ec.generate_private_key(ec.SECP256R1())
    fakes = Providers(
        FakeApns().start(),
        FakeHttp().start(),
        FakeHttp().start(),
        apns_key,
        fcm_key,
        vapid_key,
        Browser(),
    )
    fakes.fcm.default = Reply(200, FCM_OK, {"Content-Type": "application/json"})
    fakes.web.default = Reply(201)
    fakes.fcm.handler = _token_endpoint(fakes)
    fakes.web.handler = _web_push_service(fakes)

    p8 = tmp_path / "AuthKey_ABC123DEFG.p8"
    p8.write_bytes(_pem(apns_key))
    account = tmp_path / "service-account.json"
    account.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": FCM_PROJECT,
                "private_key_id": "key-1",
                "private_key": _pem(fcm_key).decode(),
                "client_email": f"push@{FCM_PROJECT}.iam.gserviceaccount.com",
                "client_id": "1234567890",
                "token_uri": f"{fakes.fcm.url}/token",
            }
        )
    )
    vapid = tmp_path / "vapid.pem"
    vapid.write_bytes(_pem(vapid_key))
    settings = {
        "DMS_APNS_URL": fakes.apns.url,
        "DMS_APNS_KEY_PATH": str(p8),
        "DMS_APNS_KEY_ID": "ABC123DEFG",
        "DMS_APNS_TEAM_ID": "TEAM123456",
        "DMS_APNS_TOPIC": APNS_TOPIC,
        "DMS_FCM_URL": fakes.fcm.url,
        "DMS_FCM_CREDENTIALS": str(account),
        "DMS_VAPID_PRIVATE_KEY": str(vapid),
        "DMS_VAPID_SUBJECT": "mailto:ops@example.com",
        # The fake push service listens on 127.0.0.1 over http, as a single-VM operator allows.
        "DMS_WEBPUSH_HOSTS": ["127.0.0.1"],
        "DMS_WEBPUSH_ALLOW_HTTP": True,
        "DMS_WEBPUSH_ALLOW_PRIVATE": True,
        "DMS_PUSH_TIMEOUT_SECONDS": 1,
    }
    for name, value in settings.items():
        monkeypatch.setitem(app.config, name, value)
    yield fakes
    fakes.apns.stop()
    fakes.fcm.stop()
    fakes.web.stop()


def _token_endpoint(fakes: Providers):
    """Google's OAuth token endpoint for a service account (RFC 7523 JWT bearer grant)."""

    def handle(received: Received) -> Reply | None:
        if received.path != "/token":
            return None
        form = dict(urllib.parse.parse_qsl(received.body.decode()))
        assert form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
        key = RSAKey.import_key(fakes.fcm_key.public_key())
        claims = jwt.decode(form["assertion"], key, algorithms=["RS256"]).claims
        fakes.token_requests.append(claims)
        # google-auth names Google's endpoint as the audience, whatever token_uri it posts to.
        assert claims["aud"] in (GOOGLE_TOKEN_URI, f"{fakes.fcm.url}/token")
        assert "firebase.messaging" in claims["scope"]
        body = {"access_token": ACCESS_TOKEN, "expires_in": 3600, "token_type": "Bearer"}
        return Reply(200, json.dumps(body).encode(), {"Content-Type": "application/json"})

    return handle


def _web_push_service(fakes: Providers):
    """Checks VAPID and decrypts the aes128gcm body as the browser would."""

    def handle(received: Received) -> Reply | None:
        claims = verify_vapid(received, fakes.vapid_key.public_key())
        assert claims["aud"] == fakes.web.url and claims["sub"] == "mailto:ops@example.com"
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            received.body,
            private_key=fakes.browser.private_key,
            auth_secret=fakes.browser.auth,
            version="aes128gcm",
        )
        fakes.browser.received.append(json.loads(plain))
        return None

    return handle


# --- people, devices and notifications -------------------------------------------------------


@pytest.fixture
def person(tenant, create_user):
    return create_user(tenant, "member", email="pat@acme.example")


@pytest.fixture
def person_headers(app, tenant, person):
    return bearer(app, tenant, person)


APNS_TOKEN = "a1b2c3d4" * 8
FCM_TOKEN = "fGx1Yk9nQ0O6hR2lUq7w3b:APA91bH" + "x" * 120 + "_-Zz09"


@pytest.fixture
def subscribe(app):
    """A subscription made through the service (as the API's POST does); returns its id."""
    from extensions import db
    from models import User
    from services.core import transaction
    from services.core.actors import Actor
    from services.push import devices

    def factory(user, platform: str, token) -> str:
        with app.app_context():
            row = db.session.get(User, user.id)
            subscription, _ = devices.subscribe(row, platform, token, Actor.system("tests"))
            transaction.commit()
            return subscription.id

    return factory


@pytest.fixture
def notify(app):
    """A notification for `user`, written and announced in one unit of work (as
    services/notifications does); returns its id once committed."""
    from extensions import db
    from models import Notification
    from services.core import signals, transaction

    def factory(user, title: str = "Approval waiting", data: dict | None = None) -> str:
        with app.app_context():
            notification = Notification(
                tenant_id=user.tenant_id,
                user_id=user.id,
                type="workflow.approval_waiting",
                title=title,
                body="Invoice 42 waits for your approval.",
                data=data if data is not None else {"workflowInstanceId": "wfi_1"},
            )
            db.session.add(notification)
            db.session.flush()
            signals.notification_created.send(notification)
            transaction.commit()
            return notification.id

    return factory


@pytest.fixture
def deliveries(app):
    """The push deliveries of a notification, oldest first, as rows detached."""
    from sqlalchemy import select

    from extensions import db
    from models import PushDelivery

    def factory(notification_id: str) -> list:
        with app.app_context():
            rows = db.session.scalars(
                select(PushDelivery)
                .where(PushDelivery.notification_id == notification_id)
                .order_by(PushDelivery.id)
            ).all()
            for row in rows:
                db.session.expunge(row)
            return list(rows)

    return factory


@pytest.fixture
def release_scheduled(app):
    """Move every job booked for later (retries, the reconciler) onto the queue now, as RQ's
    scheduler does when their time comes; the test freezes the clock there."""
    from rq.job import Job

    from extensions import redis_store
    from services.core import queue

    def runner() -> list[str]:
        with app.app_context():
            default = queue.queue()
            registry = default.scheduled_job_registry
            moved = []
            for job_id in registry.get_job_ids():
                job = Job.fetch(job_id, connection=redis_store.client)
                registry.remove(job)
                default.enqueue_job(job)
                moved.append(job.func_name)
            return moved

    return runner
