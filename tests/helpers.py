"""Small helpers shared by tests (fixtures live in conftest.py): API headers, and signing in
through the portal's real /login form with a real CSRF token."""

from __future__ import annotations

import re


def auth_headers(secret: str, tenant_id: str | None = None, **extra: str) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {secret}"}
    if tenant_id is not None:
        headers["X-Tenant-Id"] = tenant_id
    headers.update(extra)
    return headers


PASSWORD = "correct horse battery"

# serve_forever's poll interval for the tests' local HTTP servers (fake providers, receivers,
# the app behind a real server): shutdown() waits up to this long for the loop to notice, and
# every test that starts a server stops it (the standard library's default is half a second).
POLL = 0.02
_TOKEN_RE = re.compile(r'name="csrf-token" content="([^"]+)"')


def csrf_token(client, path: str = "/login") -> str:
    """The token the portal puts in every page's <meta>, as a browser would read it."""
    page = client.get(path, follow_redirects=True)
    match = _TOKEN_RE.search(page.get_data(as_text=True))
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def sign_in(client, workspace: str | None, email: str, password: str = PASSWORD, **extra):
    token = csrf_token(client)
    form = {"csrf_token": token, "email": email, "password": password, **extra}
    if workspace is not None:
        form["workspace"] = workspace
    return client.post("/login", data=form)


def post(client, path: str, data: dict | None = None, **kwargs):
    """A form POST carrying the CSRF token of the page it would be sent from."""
    token = csrf_token(client, "/")
    return client.post(path, data={"csrf_token": token, **(data or {})}, **kwargs)


def audit_actions(app, tenant_id: str) -> list[str]:
    from sqlalchemy import select

    from extensions import db
    from models import AuditEntry

    with app.app_context():
        return list(
            db.session.scalars(
                select(AuditEntry.action)
                .where(AuditEntry.tenant_id == tenant_id)
                .order_by(AuditEntry.seq)
            )
        )


def notifications_of(app, user) -> list[tuple[str, str, dict]]:
    """(type, title, data) of each notification a person has, oldest first."""
    from sqlalchemy import select

    from extensions import db
    from models import Notification

    with app.app_context():
        rows = db.session.scalars(
            select(Notification).where(Notification.user_id == user.id).order_by(Notification.id)
        ).all()
        return [(n.type, n.title, n.data) for n in rows]


def forget_jobs() -> None:
    """Lose the default queue's waiting and scheduled jobs, as a Redis flush would (only this
    test run's queue: other test processes may share the Redis server). In an app context."""
    from rq.registry import ScheduledJobRegistry

    from services.core import queue

    registry = ScheduledJobRegistry(queue=queue.queue())
    for job_id in registry.get_job_ids():
        registry.remove(job_id, delete_job=True)
    queue.queue().empty()


def user_token(app, user, scopes=None, host: str = "localhost") -> str:
    """An access token of `user` (every scope unless `scopes`), issued as a sign-in at `host`
    issues it: with its refresh-token family stored, for that host's issuer."""
    from models import SCOPES
    from services.accounts import tokens as access_tokens
    from services.core import transaction
    from services.oauth import tokens

    with app.test_request_context(base_url=f"http://{host}"):
        pair = tokens.issue(
            user,
            tokens.FIRST_PARTY,
            sorted(SCOPES if scopes is None else scopes),
            issuer=access_tokens.issuer(f"http://{host}"),
        )
        transaction.commit()
        return pair.access_token


def bearer(app, tenant, user) -> dict[str, str]:
    return auth_headers(user_token(app, user), tenant.id)
