"""The tenant's share-link switch (admins): off, no link can be created and every existing
link answers 410 until it is on again; nothing is deleted."""

from __future__ import annotations

import clock
from extensions import db
from models import SharingSettings
from services.audit import audit_log
from services.core.actors import Actor


def share_links_enabled(tenant_id: str) -> bool:
    row = db.session.get(SharingSettings, tenant_id)
    return True if row is None else row.share_links_enabled


def set_share_links_enabled(tenant_id: str, enabled: bool, actor: Actor) -> bool:
    """Turn share links on or off for the tenant (audited when it changes)."""
    row = db.session.get(SharingSettings, tenant_id)
    before = True if row is None else row.share_links_enabled
    if before == enabled:
        return enabled
    if row is None:
        row = SharingSettings(tenant_id=tenant_id)
        db.session.add(row)
    row.share_links_enabled = enabled
    row.updated_by = actor.ref
    row.updated_at = clock.now()
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "share_links.enabled" if enabled else "share_links.disabled",
        target_type="tenant",
        target_id=tenant_id,
    )
    return enabled
