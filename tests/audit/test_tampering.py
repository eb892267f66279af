"""Tampering with the audit chain from the database alone: each case is reported, by the tail
check, the key, or (when the counter is lowered too) an anchor kept outside the database."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from datetime import UTC

import pytest
from sqlalchemy import select, text, update

from config import parse_audit_keys
from extensions import db
from models import AuditEntry, Tenant
from services.audit import audit_log
from services.core.actors import Actor

LENGTH = 20
OLD_KEY = "k1:" + "o" * 43
NEW_KEY = "k2:" + "n" * 43


@pytest.fixture
def chain(ctx, create_tenant):
    """acme with LENGTH entries: tenant.created, then logins."""
    tenant = create_tenant("acme")
    for i in range(LENGTH - 1):
        audit_log.record(tenant.id, Actor("user", f"usr_{i}", f"u{i}@x.test"), "user.login")
    db.session.commit()
    return tenant


def _cli(app, *args: str):
    return app.test_cli_runner().invoke(args=list(args))


def _delete_from(tenant_id: str, first_seq: int) -> None:
    db.session.execute(
        text("DELETE FROM audit_entries WHERE tenant_id = :t AND seq >= :s"),
        {"t": tenant_id, "s": first_seq},
    )
    db.session.commit()


def _set_counter(tenant_id: str, value: int) -> None:
    db.session.execute(update(Tenant).where(Tenant.id == tenant_id).values(audit_seq=value))
    db.session.commit()


def _payload(entry: AuditEntry) -> bytes:
    """What an attacker who has read the code (but holds no key) would seal."""
    fields = {
        "seq": entry.seq,
        "tenant": entry.tenant_id,
        "actorType": entry.actor_type,
        "actorId": entry.actor_id,
        "actorLabel": entry.actor_label,
        "action": entry.action,
        "targetType": entry.target_type,
        "targetId": entry.target_id,
        "ip": entry.ip,
        "userAgent": entry.user_agent,
        "details": entry.details,
        "createdAt": entry.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
        "prev": entry.prev_hash,
    }
    if entry.key_id is not None:
        fields["key"] = entry.key_id
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _plain_sha256(entry: AuditEntry) -> str:
    return hashlib.sha256(_payload(entry)).hexdigest()


def _hmac_with(secret: bytes) -> Callable[[AuditEntry], str]:
    return lambda entry: hmac.new(secret, _payload(entry), hashlib.sha256).hexdigest()


def _forge(
    tenant_id: str,
    from_seq: int,
    seal: Callable[[AuditEntry], str],
    drop_key: bool = False,
    through: int = 10**6,
) -> None:
    """Change entry `from_seq`, then re-link and re-seal it and the later entries."""
    entries = list(
        db.session.scalars(
            AuditEntry.query_for_tenant(tenant_id)
            .where(AuditEntry.seq.between(from_seq, through))
            .order_by(AuditEntry.seq)
        )
    )
    entries[0].actor_label = "someone-else@x.test"
    prev_hash = entries[0].prev_hash
    for entry in entries:
        entry.prev_hash = prev_hash
        if drop_key:
            entry.key_id = None
        entry.hash = seal(entry)
        prev_hash = entry.hash
    db.session.commit()


def _seal_head(tenant_id: str, keyed_since: int) -> None:
    """What only a holder of the audit key can do (and migration 0032 does once): seal the
    tenant row's head over the chain as it stands."""
    seq, head = db.session.execute(
        select(AuditEntry.seq, AuditEntry.hash)
        .where(AuditEntry.tenant_id == tenant_id)
        .order_by(AuditEntry.seq.desc())
        .limit(1)
    ).one()
    key_id = audit_log.sealing_key_id()
    seal = audit_log.head_seal(tenant_id, seq, head, keyed_since, key_id)
    db.session.execute(
        update(Tenant)
        .where(Tenant.id == tenant_id)
        .values(audit_keyed_since=keyed_since, audit_head_seal=seal, audit_head_key=key_id)
    )
    db.session.commit()


def _verdict(tenant_id: str) -> tuple[bool, int | None, str | None]:
    report = audit_log.verify_chain(tenant_id)
    return report.ok, report.broken_seq, report.reason


def test_deleting_the_last_entry_is_reported(app, chain):
    _delete_from(chain.id, LENGTH)
    assert _verdict(chain.id) == (False, LENGTH, f"entry {LENGTH} is missing at the end")
    result = _cli(app, "audit", "verify", "acme")
    assert result.exit_code == 2
    assert f"BROKEN at entry #{LENGTH}: entry {LENGTH} is missing at the end" in result.output


def test_deleting_the_last_five_entries_is_reported(chain):
    _delete_from(chain.id, LENGTH - 4)
    assert _verdict(chain.id) == (False, 16, "entries 16..20 are missing at the end")


def test_deleting_every_entry_is_reported(app, chain):
    _delete_from(chain.id, 1)
    assert _verdict(chain.id) == (False, 1, "entries 1..20 are missing at the end")
    assert _cli(app, "audit", "verify", "acme").exit_code == 2


@pytest.mark.parametrize("drop_key", [False, True], ids=["keeping-key-id", "dropping-key-id"])
def test_a_forgery_resealed_with_plain_sha256_is_reported(chain, drop_key):
    # The attacker has the database and the code, not the key: plain SHA-256 is all they have.
    _forge(chain.id, 10, _plain_sha256, drop_key=drop_key)
    reason = "sealed without a key after keyed entries" if drop_key else "contents do not match"
    ok, broken_seq, report_reason = _verdict(chain.id)
    assert (ok, broken_seq) == (False, 10)
    assert reason in report_reason


def test_a_forgery_resealed_with_a_wrong_key_is_reported(app, chain):
    sealing_id, real_secret = next(iter(app.config["DMS_AUDIT_KEYS"].items()))
    tenth = AuditEntry.query_for_tenant(chain.id).where(AuditEntry.seq == 10)
    assert db.session.scalars(tenth).one().key_id == sealing_id
    _forge(chain.id, 10, _hmac_with(b"w" * 43))
    assert _verdict(chain.id) == (False, 10, "contents do not match the hash")
    # The same rewrite with the real key, the head resealed too, verifies: it is the key,
    # not the rewrite, that tells.
    _forge(chain.id, 10, _hmac_with(real_secret))
    assert "head seal does not match" in _verdict(chain.id)[2]
    _seal_head(chain.id, keyed_since=1)
    assert _verdict(chain.id) == (True, None, None)


def test_lowering_the_counter_to_hide_edits_is_reported(chain):
    _set_counter(chain.id, 12)
    assert _verdict(chain.id) == (
        False,
        13,
        "the tenant's audit counter is 12 but the chain runs to 20",
    )


def test_deleting_the_tail_and_lowering_the_counter_is_reported(app, chain):
    # The attack: the newest five rows go, and the counter is lowered by as many.
    _delete_from(chain.id, 16)
    _set_counter(chain.id, 15)
    ok, broken_seq, reason = _verdict(chain.id)
    assert (ok, broken_seq) == (False, 16)
    assert "head seal" in reason
    result = _cli(app, "audit", "verify", "acme")
    assert result.exit_code == 2
    assert "BROKEN at entry #16" in result.output


def test_deleting_the_tail_and_lowering_the_counter_is_caught_by_the_anchor(app, chain, tmp_path):
    line = _cli(app, "audit", "anchor", "acme").output.strip()
    slug, seq, head_hash, _created_at = line.split(" ")
    assert (slug, seq) == ("acme", str(LENGTH))
    anchor_file = tmp_path / "anchors"
    anchor_file.write_text(line + "\n")

    _delete_from(chain.id, 16)
    _set_counter(chain.id, 15)

    for option in (("--anchor", f"{seq}:{head_hash}"), ("--anchor-file", str(anchor_file))):
        result = _cli(app, "audit", "verify", "acme", *option)
        assert result.exit_code == 2
        assert "BROKEN at entry #16: entries 16..20 are missing at the end" in result.output


def test_a_whole_chain_resealed_without_a_key_is_reported(app, chain):
    # The attack: edit an entry, then re-seal the whole chain as the code before keyed
    # chains did (no key id, plain SHA-256, chained). acme was created keyed.
    _forge(chain.id, 1, _plain_sha256, drop_key=True)
    ok, broken_seq, reason = _verdict(chain.id)
    assert (ok, broken_seq) == (False, 1)
    assert "sealed without a key" in reason
    result = _cli(app, "audit", "verify", "acme")
    assert result.exit_code == 2
    assert "BROKEN at entry #1: sealed without a key" in result.output


def test_a_whole_chain_resealed_without_a_key_is_caught_by_the_anchor(app, chain):
    head = _cli(app, "audit", "anchor", "acme").output.split()
    _forge(chain.id, 1, _plain_sha256, drop_key=True)
    result = _cli(app, "audit", "verify", "acme", "--anchor", f"{head[1]}:{head[2]}")
    assert result.exit_code == 2
    assert "BROKEN at entry #1" in result.output


def test_rotation_verifies_old_entries_with_the_old_key_and_reports_a_removed_one(
    app, ctx, create_tenant, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_AUDIT_KEYS", parse_audit_keys(OLD_KEY))
    tenant = create_tenant("acme")
    audit_log.record(tenant.id, Actor.system(), "before.rotation")
    db.session.commit()
    # Rotation: the new key goes first and seals; the old one stays, to verify.
    monkeypatch.setitem(app.config, "DMS_AUDIT_KEYS", parse_audit_keys(f"{NEW_KEY},{OLD_KEY}"))
    audit_log.record(tenant.id, Actor.system(), "after.rotation")
    db.session.commit()

    key_ids = db.session.scalars(
        select(AuditEntry.key_id).where(AuditEntry.tenant_id == tenant.id).order_by(AuditEntry.seq)
    ).all()
    assert key_ids == ["k1", "k1", "k2"]
    assert _verdict(tenant.id) == (True, None, None)

    monkeypatch.setitem(app.config, "DMS_AUDIT_KEYS", parse_audit_keys(NEW_KEY))
    assert _verdict(tenant.id) == (False, 1, "sealed with unknown key k1")


def test_unkeyed_entries_from_before_the_upgrade_still_verify(chain):
    # Make entries 1..20 what the code before keyed chains wrote: plain SHA-256, no key id.
    entries = list(db.session.scalars(AuditEntry.query_for_tenant(chain.id)))
    prev_hash = audit_log.GENESIS_HASH
    for entry in sorted(entries, key=lambda e: e.seq):
        entry.key_id, entry.prev_hash = None, prev_hash
        entry.hash = prev_hash = _plain_sha256(entry)
    db.session.commit()
    # The upgrade (migration 0032) finds no keyed entry: keyed from the next one.
    _seal_head(chain.id, keyed_since=LENGTH + 1)
    assert _verdict(chain.id) == (True, None, None)

    audit_log.record(chain.id, Actor.system(), "after.upgrade")
    db.session.commit()
    newest = db.session.scalars(AuditEntry.query_for_tenant(chain.id).where(AuditEntry.seq == 21))
    assert newest.one().key_id is not None
    assert audit_log.verify_chain(chain.id).checked == 21

    # The first keyed entry seals the last unkeyed hash: rewriting the old ones, even relinking
    # the keyed entry to the rewrite, breaks it.
    _forge(chain.id, 5, _plain_sha256, through=20)
    forged_20 = db.session.scalar(
        select(AuditEntry.hash).where(AuditEntry.tenant_id == chain.id, AuditEntry.seq == 20)
    )
    db.session.execute(
        update(AuditEntry)
        .where(AuditEntry.tenant_id == chain.id, AuditEntry.seq == 21)
        .values(prev_hash=forged_20)
    )
    db.session.commit()
    assert _verdict(chain.id) == (False, 21, "contents do not match the hash")


def test_moving_keyed_since_to_allow_an_unkeyed_rewrite_is_reported(chain):
    _forge(chain.id, 1, _plain_sha256, drop_key=True)
    db.session.execute(
        update(Tenant).where(Tenant.id == chain.id).values(audit_keyed_since=LENGTH + 1)
    )
    db.session.commit()
    ok, broken_seq, reason = _verdict(chain.id)
    assert (ok, broken_seq) == (False, LENGTH + 1)
    assert "keyed-since was changed" in reason


def test_an_upgraded_chain_refuses_unkeyed_entries_from_keyed_since_on(chain):
    # As migration 0032 leaves a chain that was wholly unkeyed: keyed from #21 on.
    entries = list(db.session.scalars(AuditEntry.query_for_tenant(chain.id)))
    prev_hash = audit_log.GENESIS_HASH
    for entry in sorted(entries, key=lambda e: e.seq):
        entry.key_id, entry.prev_hash = None, prev_hash
        entry.hash = prev_hash = _plain_sha256(entry)
    db.session.commit()
    _seal_head(chain.id, keyed_since=LENGTH + 1)
    audit_log.record(chain.id, Actor.system(), "after.upgrade")
    db.session.commit()
    assert _verdict(chain.id) == (True, None, None)

    _forge(chain.id, LENGTH + 1, _plain_sha256, drop_key=True)
    assert _verdict(chain.id) == (
        False,
        LENGTH + 1,
        f"sealed without a key, but the tenant's chain is keyed from #{LENGTH + 1}",
    )
