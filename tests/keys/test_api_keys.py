"""Key lifecycle in the service layer: validation, rotation per spec 5.1.8, revocation, edits."""

from __future__ import annotations

from datetime import timedelta

import pytest

import clock
from errors import DomainError
from extensions import db
from models import ApiKey, AuditEntry, Event, Tenant
from services.core.actors import Actor
from services.keys import api_keys, key_cache

ACTOR = Actor("user", "usr_test", "admin@example.com", "192.0.2.10", "pytest")


@pytest.fixture
def acme(ctx, create_tenant):
    tenant = create_tenant("acme")
    return db.session.get(Tenant, tenant.id)


def _actions(tenant_id: str) -> list[str]:
    return [
        e.action
        for e in db.session.scalars(AuditEntry.query_for_tenant(tenant_id).order_by(AuditEntry.seq))
    ]


def test_create_validates_every_field_at_once(acme):
    with pytest.raises(DomainError) as caught:
        api_keys.create_key(
            acme,
            "  ",
            ["documents:read", "documents:destroy"],
            ACTOR,
            allowed_ips="10.0.0.0/8\nnot-an-ip\n2001:db8::/129",
            hourly_quota=0,
        )
    error = caught.value
    assert error.status == 422
    fields = [e.field for e in error.errors]
    assert fields == ["name", "scopes", "allowedIps", "allowedIps", "hourlyQuota"]
    assert "documents:destroy" in error.errors[1].message
    assert "Line 2" in error.errors[2].message and "Line 3" in error.errors[3].message
    assert db.session.query(ApiKey).count() == 0


def test_create_normalises_and_audits(acme):
    key, secret = api_keys.create_key(
        acme,
        "ci",
        ["documents:write", "documents:read", "documents:read"],
        ACTOR,
        allowed_ips=["10.1.2.3/8", "2001:DB8::/32"],
    )
    db.session.commit()
    assert key.scopes == ["documents:read", "documents:write"]
    assert key.allowed_ips == ["10.0.0.0/8", "2001:db8::/32"]
    assert key_cache.lookup(secret).id == key.id
    assert _actions(acme.id)[-1] == "api_key.created"
    entry = db.session.scalars(
        AuditEntry.query_for_tenant(acme.id).order_by(AuditEntry.seq.desc())
    ).first()
    assert (entry.actor_id, entry.ip, entry.user_agent, entry.target_id) == (
        "usr_test",
        "192.0.2.10",
        "pytest",
        key.id,
    )
    assert secret not in str(entry.details)
    event = db.session.scalars(Event.query_for_tenant(acme.id)).one()
    assert event.type == "api_key.created" and event.data["keyId"] == key.id


def test_duplicate_live_name_is_refused_but_revoked_names_are_free(acme):
    key, _ = api_keys.create_key(acme, "ci", ["documents:read"], ACTOR)
    with pytest.raises(DomainError) as caught:
        api_keys.create_key(acme, "ci", ["documents:read"], ACTOR)
    assert caught.value.field == "name"
    api_keys.revoke_key(key, ACTOR)
    again, _ = api_keys.create_key(acme, "ci", ["documents:read"], ACTOR)
    assert again.name == "ci"


def test_rotation_follows_the_spec(acme):
    old, old_secret = api_keys.create_key(
        acme,
        "billing sync",
        ["documents:read", "workflows:write"],
        ACTOR,
        allowed_ips=["203.0.113.0/24"],
        hourly_quota=50,
    )
    new, new_secret = api_keys.rotate_key(old, ACTOR)
    db.session.commit()
    assert new.id != old.id and new_secret != old_secret
    assert (new.scopes, new.allowed_ips, new.hourly_quota) == (old.scopes, old.allowed_ips, 50)
    assert new.predecessor_id == old.id and old.successor.id == new.id
    assert old.rotated_at is not None
    assert old.is_active, "the old key stays active until someone revokes it"
    assert new.name.startswith("billing sync (rotated ")
    actions = _actions(acme.id)
    assert actions[-1] == "api_key.rotated" and actions.count("api_key.created") == 1
    with pytest.raises(DomainError) as caught:
        api_keys.rotate_key(old, ACTOR)
    assert caught.value.code == "CONFLICT"
    # Rotating the successor again strips the suffix rather than stacking it.
    newer, _ = api_keys.rotate_key(new, ACTOR)
    assert newer.name.count("(rotated") == 1


def test_revoked_key_cannot_be_rotated_or_revoked_twice(acme):
    key, _ = api_keys.create_key(acme, "x", ["documents:read"], ACTOR)
    api_keys.revoke_key(key, ACTOR)
    for operation in (api_keys.rotate_key, api_keys.revoke_key):
        with pytest.raises(DomainError) as caught:
            operation(key, ACTOR)
        assert caught.value.status == 409


def test_update_allowlist_and_quota_is_audited_with_the_change(acme):
    key, _ = api_keys.create_key(acme, "x", ["documents:read"], ACTOR)
    api_keys.update_key(key, ACTOR, allowed_ips="192.0.2.0/24\n", hourly_quota=10)
    db.session.commit()
    assert key.allowed_ips == ["192.0.2.0/24"] and key.hourly_quota == 10
    entry = db.session.scalars(
        AuditEntry.query_for_tenant(acme.id).where(AuditEntry.action == "api_key.updated")
    ).one()
    assert entry.details == {"allowedIps": [[], ["192.0.2.0/24"]], "hourlyQuota": [None, 10]}
    with pytest.raises(DomainError):
        api_keys.update_key(key, ACTOR, allowed_ips="300.1.1.1")
    assert key.allowed_ips == ["192.0.2.0/24"]


def test_rotation_due_after_90_days(acme):
    key, _ = api_keys.create_key(acme, "x", ["documents:read"], ACTOR)
    assert not key.rotation_due
    clock.shift(timedelta(days=90))
    assert key.rotation_due
    api_keys.rotate_key(key, ACTOR)
    assert not key.rotation_due


def test_secret_format_has_a_checksum():
    secret = api_keys.generate_secret()
    assert api_keys.secret_well_formed(secret)
    flipped = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    assert not api_keys.secret_well_formed(flipped)
    assert len({api_keys.generate_secret() for _ in range(100)}) == 100


def test_find_by_secret_does_not_leak_across_tenants(acme, create_tenant):
    other = db.session.get(Tenant, create_tenant("globex").id)
    _, secret = api_keys.create_key(other, "x", ["documents:read"], ACTOR)
    key = key_cache.lookup(secret)
    assert key.tenant_id == "globex"
    with pytest.raises(DomainError) as caught:
        ApiKey.get_for_tenant(key.id, acme.id)
    assert caught.value.status == 404
