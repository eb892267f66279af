"""Portal sessions that end on the server: one row per sign-in, named by the signed cookie.

A session is live while its row exists, belongs to the principal the cookie names and is not
revoked. Signing out revokes the row, so a copy of the cookie kept by anyone is worthless
afterwards; a password change, a deactivation and "sign out everywhere" revoke every row of
the person. Operations flush; the caller commits."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

import clock
from extensions import db
from models import PortalSession, SupportStaff, User

# last_seen_at is kept to this resolution: one UPDATE per session per minute at most.
LAST_SEEN_RESOLUTION = timedelta(minutes=1)


def start(principal: User | SupportStaff, ip: str | None, user_agent: str | None) -> PortalSession:
    row = PortalSession(
        principal_id=principal.id,
        tenant_id=principal.tenant_id,
        ip=ip,
        user_agent=(user_agent or None) and user_agent[:300],
    )
    db.session.add(row)
    db.session.flush()
    return row


def is_live(session_id: str | None, principal_id: str) -> bool:
    """Whether the cookie's session may act for `principal_id` now; notes the visit."""
    if not session_id:
        return False
    row = db.session.get(PortalSession, session_id)
    if row is None or row.principal_id != principal_id or row.revoked_at is not None:
        return False
    now = clock.now()
    if now - row.last_seen_at >= LAST_SEEN_RESOLUTION:
        row.last_seen_at = now
        db.session.flush()
    return True


def end(session_id: str | None, reason: str) -> None:
    if session_id:
        _revoke(PortalSession.id == session_id, reason)


def end_all(principal_id: str, reason: str) -> int:
    """Revoke every live session of the person; returns how many."""
    return _revoke(PortalSession.principal_id == principal_id, reason)


def live_sessions(principal_id: str) -> list[PortalSession]:
    return list(
        db.session.scalars(
            select(PortalSession)
            .where(PortalSession.principal_id == principal_id, PortalSession.revoked_at.is_(None))
            .order_by(PortalSession.last_seen_at.desc())
        )
    )


def _revoke(condition, reason: str) -> int:
    result = db.session.execute(
        update(PortalSession)
        .where(condition, PortalSession.revoked_at.is_(None))
        .values(revoked_at=clock.now(), revoked_reason=reason)
        .execution_options(synchronize_session=False)
    )
    return result.rowcount or 0
