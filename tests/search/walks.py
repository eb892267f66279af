"""Walks of every page of a search, for the tests that compare a bounded path's walk with the
exact path's hit for hit (SQLite's candidates, listed common words and ties)."""

from __future__ import annotations

from services.documents.filters import DocumentFilters
from services.search import search
from services.search.engines import sqlite


def walk(app, tenant_id, q, limit, *, filters=None, recency=True, as_of=None, keywords=False):
    """(id, score) of every hit, page after page (with `keywords`, (id, score, keyword))."""
    seen, cursor = [], None
    with app.app_context():
        while True:
            page = search.search(
                tenant_id, q, filters or DocumentFilters(), limit, cursor, recency=recency,
                as_of=as_of, with_highlights=False,
            )  # fmt: skip
            for hit in page.hits:
                seen.append((hit.id, hit.score, hit.signals["keyword"])[: 3 if keywords else 2])
            if page.next_position is None:
                return seen
            cursor = page.next_position


def exact_walk(app, monkeypatch, *args, **kwargs):
    """The same walk by the exact path: SQLite's engine names no bounded ranking to try."""
    with monkeypatch.context() as patch:
        patch.setattr(sqlite, "prepare", lambda *_: ())
        return walk(app, *args, **kwargs)
