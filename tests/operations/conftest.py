"""Fixtures for whole-installation and whole-tenant operations: a populated installation
(tenants, users, keys, documents with versions, audit entries). The fresh one to restore
into, `fresh_install`, is in tests/installations.py."""

from __future__ import annotations

import pytest

from tests.operations.ops_support import Content, Populated, upload


@pytest.fixture
def populated(app, client, create_tenant, create_key, create_user):
    """acme and globex, each with a user, a key and two documents (one with two versions);
    both tenants hold the same bytes once (same content address, separate blobs)."""
    result = Populated()
    for slug in ("acme", "globex"):
        tenant = create_tenant(slug)
        create_user(tenant, email=f"admin@{slug}.test")
        _, secret = create_key(tenant)
        result.secrets[slug] = secret
        shared = upload(client, secret, slug, b"the same bytes in both tenants\n", tags="shared")
        result.contents.append(Content(slug, shared["id"], 1, b"the same bytes in both tenants\n"))
        first = f"{slug} report, first draft\n".encode()
        doc = upload(client, secret, slug, first, title=f"{slug} report", tags="report")
        result.contents.append(Content(slug, doc["id"], 1, first))
        second = f"{slug} report, final\n".encode() * 50
        upload(client, secret, slug, second, path=f"/api/v1/documents/{doc['id']}/versions")
        result.contents.append(Content(slug, doc["id"], 2, second))
    return result
