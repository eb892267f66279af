"""Lifecycle fixtures: a temporary deprecation on a live route, so headers can be checked
on a working endpoint; the clock is moved with clock.freeze."""

from __future__ import annotations

from datetime import date

import pytest


@pytest.fixture
def deprecated_documents_list():
    """Registers GET /api/v1/documents as deprecated (sunset 2030-01-01) for one test."""
    from services.lifecycle import deprecations

    item = deprecations.Deprecation(
        id="documents-list-test",
        method="GET",
        path="/api/v1/documents",
        deprecated_at=date(2026, 6, 1),
        sunset=date(2030, 1, 1),
        replacement="/api/v1/search",
        summary="A test deprecation.",
    )
    deprecations.REGISTRY.append(item)
    yield item
    deprecations.REGISTRY.remove(item)
