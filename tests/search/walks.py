"""Walks of every page of a search, for the tests that compare a bounded path's walk with the
exact path's hit for hit (SQLite's candidates, listed common words and ties), and the small
SQLite corpus those tests build once per module."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from services.documents.filters import DocumentFilters
from services.search import common_words, search
from services.search.engines import sqlite
from tests.support import built_once


def small_lists(patch) -> None:
    """Common-word lists of 8 rows, for terms matched by 4 rows or more."""
    patch.setattr(common_words, "LIST_SIZE", 8)
    patch.setattr(common_words, "MIN_MATCHES", 4)


def sqlite_corpus(app, database_url: str, build: Callable[[], dict]) -> Iterator[tuple]:
    """A module fixture's body: `build` run once with small lists, and (the copy each test
    restores, what `build` returned); skipped where the FTS5 index is not."""
    if not database_url.startswith("sqlite"):
        pytest.skip("the FTS5 index is SQLite's")
    with pytest.MonkeyPatch.context() as patch:
        small_lists(patch)
        copy, corpus = built_once(app, build)
    yield copy, corpus
    copy.close()


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
