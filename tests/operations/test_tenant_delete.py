"""`flask tenants delete SLUG --yes`: two tenants holding the same bytes, one deleted; every
row and blob and Redis key of it goes, the other's documents, keys, audit chain, blobs and
rate windows stay, and the operator's log (not the tenant's) records the deletion."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import func, select

from extensions import db, redis_store
from models import AuditEntry, OperatorRecord, Tenant
from services.documents.blobs import blob_store
from services.operations.tenant_tables import tenant_filter, tenant_tables
from tests.helpers import auth_headers
from tests.operations.ops_support import cli, download


def _rows_of(app, tenant_id: str) -> dict[str, int]:
    with app.app_context():
        counts = {}
        for table in tenant_tables():
            where = tenant_filter(table, tenant_id)
            counts[table.name] = db.session.scalar(
                select(func.count()).select_from(table).where(where)
            )
        return {name: n for name, n in counts.items() if n}


def _redis_keys(app, fragment: str) -> list[str]:
    with app.app_context():
        client = redis_store.client
        return [
            k.decode()
            for k in client.scan_iter(match=redis_store.key("*"))
            if fragment in k.decode()
        ]


def test_refused_without_the_confirmation_flag(app, populated):
    result = cli(app, "tenants", "delete", "acme")
    assert result.exit_code == 1 and "--yes" in result.output
    assert _rows_of(app, "acme")


def test_an_unknown_tenant_is_an_error(app, populated):
    result = cli(app, "tenants", "delete", "initech", "--yes")
    assert result.exit_code == 1 and "initech" in result.output


def test_deleting_one_tenant_leaves_the_other_intact(app, client, populated):
    for slug in ("acme", "globex"):  # rate windows and usage counters for both
        client.get("/api/v1/documents", headers=auth_headers(populated.secrets[slug], slug))
    with app.app_context():
        store = blob_store()
        acme_blobs = {c.sha256 for c in populated.contents if c.tenant_id == "acme"}
        assert all(store.exists("acme", sha) for sha in acme_blobs)
    assert _rows_of(app, "acme")["documents"] == 2
    assert _redis_keys(app, "tenant/acme/")
    globex_before = _rows_of(app, "globex")

    result = cli(app, "tenants", "delete", "acme", "--yes")
    assert result.exit_code == 0, result.output
    assert "deleted tenant acme" in result.output

    assert _rows_of(app, "acme") == {}
    with app.app_context():
        assert db.session.get(Tenant, "acme") is None
        assert not any(store.exists("acme", sha) for sha in acme_blobs)
        assert [o for o, _ in store.iter_blobs(0) if o == "acme"] == []
        record = db.session.scalars(select(OperatorRecord)).one()
        assert (record.action, record.tenant_id) == ("tenant.deleted", "acme")
        assert record.details["rows"]["documents"] == 2 and record.operator.startswith("cli:")
        # Not in any tenant's audit log: acme's went with it, globex's does not mention it.
        assert db.session.scalar(select(func.count()).where(AuditEntry.tenant_id == "acme")) == 0
        actions = db.session.scalars(select(AuditEntry.action)).all()
        assert "tenant.deleted" not in actions
    assert _redis_keys(app, "tenant/acme/") == []
    assert _redis_keys(app, ":acme:") == []
    assert _redis_keys(app, "tenant/globex/")

    # globex: rows, blobs (the same bytes as acme's deleted ones included), key, audit chain.
    assert _rows_of(app, "globex") == globex_before
    for content in populated.contents:
        if content.tenant_id == "globex":
            response = download(client, populated.secrets["globex"], content)
            assert response.status_code == 200
            assert hashlib.sha256(response.data).hexdigest() == content.sha256
    assert cli(app, "audit", "verify", "globex").exit_code == 0
    # acme's key no longer authenticates, even in this process that remembered it.
    refused = client.get(
        "/api/v1/documents", headers=auth_headers(populated.secrets["acme"], "acme")
    )
    assert refused.status_code in (401, 404)


def test_an_orphan_blob_of_the_tenant_goes_too(app, populated):
    """A blob stored by an upload that never committed is named by no row: still the
    tenant's, still deleted."""
    import io

    with app.app_context():
        store = blob_store()
        orphan = store.save("acme", io.BytesIO(b"never committed"), max_bytes=100)
        store.release("acme", orphan, committed=True)
    assert cli(app, "tenants", "delete", "acme", "--yes").exit_code == 0
    with app.app_context():
        assert not store.exists("acme", orphan.sha256)


@pytest.mark.parametrize("slug", ["acme", "globex"])
def test_the_slug_can_be_created_again_empty(app, populated, slug):
    assert cli(app, "tenants", "delete", slug, "--yes").exit_code == 0
    assert cli(app, "tenants", "create", slug, "--plan", "free").exit_code == 0
    assert cli(app, "audit", "verify", slug).exit_code == 0
    assert set(_rows_of(app, slug)) == {"audit_entries"}
