"""The audit chain: entries link per tenant, verification finds the first broken link."""

from __future__ import annotations

import itertools
import threading

import pytest
from sqlalchemy import text, update

from extensions import db
from models import AuditEntry
from services.audit import audit_log
from services.core.actors import Actor


@pytest.fixture
def chained(ctx, create_tenant):
    tenant = create_tenant("acme")
    for i in range(5):
        audit_log.record(tenant.id, Actor("user", f"usr_{i}", f"u{i}@x.test"), "user.login")
    db.session.commit()
    return tenant


def test_a_fresh_chain_verifies(chained):
    report = audit_log.verify_chain(chained.id)
    # tenant.created + 5 logins
    assert (report.ok, report.checked) == (True, 6)


def test_an_edited_row_is_detected(chained):
    db.session.execute(
        update(AuditEntry)
        .where(AuditEntry.tenant_id == chained.id, AuditEntry.seq == 4)
        .values(actor_label="someone-else@x.test")
    )
    db.session.commit()
    report = audit_log.verify_chain(chained.id)
    assert (report.ok, report.broken_seq) == (False, 4)
    assert "hash" in report.reason


def test_a_deleted_row_is_detected(chained):
    db.session.execute(
        text("DELETE FROM audit_entries WHERE tenant_id = :t AND seq = 3"), {"t": chained.id}
    )
    db.session.commit()
    report = audit_log.verify_chain(chained.id)
    assert (report.ok, report.broken_seq) == (False, 3)


def test_a_rehashed_edit_still_breaks_the_next_link(chained):
    entry = db.session.scalars(
        AuditEntry.query_for_tenant(chained.id).where(AuditEntry.seq == 2)
    ).one()
    entry.action = "user.logout"
    entry.hash = audit_log.entry_hash(entry)  # a forger recomputes this entry's own hash...
    db.session.commit()
    report = audit_log.verify_chain(chained.id)
    assert (report.ok, report.broken_seq) == (False, 3)  # ...but the next one no longer links


def test_chains_are_per_tenant(chained, create_tenant):
    other = create_tenant("globex")
    audit_log.record(other.id, Actor.system(), "tenant.touched")
    db.session.commit()
    assert audit_log.verify_chain(other.id).checked == 2
    assert audit_log.verify_chain(chained.id).checked == 6


def test_concurrent_writers_never_fork_the_chain(app, create_tenant):
    tenant = create_tenant("busy")
    errors: list[Exception] = []

    def write(n: int) -> None:
        try:
            with app.app_context():
                for i in range(5):
                    audit_log.record(
                        tenant.id, Actor("key", f"key_{n}"), "api_key.used", details={"i": i}
                    )
                    db.session.commit()
        except Exception as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with app.app_context():
        report = audit_log.verify_chain(tenant.id)
    assert (report.ok, report.checked) == (True, 21)


def test_entries_recorded_together_chain_and_seal_like_single_ones(chained):
    actor = Actor("user", "usr_bulk", "bulk@x.test")
    changes = [audit_log.Change("document.bulk_edited", "document", f"doc_{i}") for i in range(4)]
    entries = audit_log.record_many(chained.id, actor, changes)
    audit_log.record(chained.id, actor, "user.logout")  # a single one after them links on
    db.session.commit()
    assert [e.seq for e in entries] == [7, 8, 9, 10]
    assert [e.target_id for e in entries] == ["doc_0", "doc_1", "doc_2", "doc_3"]
    assert all(later.prev_hash == earlier.hash for earlier, later in itertools.pairwise(entries))
    report = audit_log.verify_chain(chained.id)
    assert (report.ok, report.checked) == (True, 11)


def test_recording_nothing_writes_nothing(chained):
    assert audit_log.record_many(chained.id, Actor("user", "usr_0", "u0@x.test"), []) == []
    db.session.commit()
    assert audit_log.verify_chain(chained.id).checked == 6
