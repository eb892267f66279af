"""Small helpers shared by tests (fixtures live in conftest.py)."""

from __future__ import annotations


def auth_headers(secret: str, tenant_id: str | None = None, **extra: str) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {secret}"}
    if tenant_id is not None:
        headers["X-Tenant-Id"] = tenant_id
    headers.update(extra)
    return headers
