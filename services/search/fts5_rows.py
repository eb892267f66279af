"""SQLite's index rows: each document's row of the FTS5 table `document_search` (title,
keywords, body; its document and tenant UNINDEXED) and its row of `document_search_ids`
(migration 0029), which says the same document and tenant by rowid without FTS5 reading the
stored row, text included (services/search/engines/sqlite.py joins it). Both are written and
deleted together, here only."""

from __future__ import annotations

import hashlib

from sqlalchemy import text

from extensions import db


def rowid(document_id: str) -> int:
    """A stable 63-bit FTS5 rowid for a document id, so updates replace by primary key."""
    return int.from_bytes(hashlib.sha256(document_id.encode()).digest()[:8], "big") >> 1


def write(entries: list[dict]) -> None:
    """Replace the rows of these `indexing.entry()`s (one statement each, executemany)."""
    rows = [{**e, "rowid": rowid(e["id"])} for e in entries]
    delete_rows = [{"rowid": r["rowid"]} for r in rows]
    db.session.execute(text("DELETE FROM document_search WHERE rowid = :rowid"), delete_rows)
    db.session.execute(
        text(
            "INSERT INTO document_search (rowid, document_id, tenant_id, title, keywords, body)"
            " VALUES (:rowid, :id, :tenant, :title, :keywords, :body)"
        ),
        rows,
    )
    db.session.execute(
        text(
            "INSERT OR REPLACE INTO document_search_ids (fts_rowid, document_id, tenant_id)"
            " VALUES (:rowid, :id, :tenant)"
        ),
        rows,
    )


def delete(document_id: str) -> None:
    """Drop the document's rows (the purge; FTS5 has no foreign keys)."""
    params = {"rowid": rowid(document_id)}
    db.session.execute(text("DELETE FROM document_search WHERE rowid = :rowid"), params)
    db.session.execute(text("DELETE FROM document_search_ids WHERE fts_rowid = :rowid"), params)


def delete_tenant(tenant_id: str) -> None:
    """Drop every row of a tenant (the tenant's deletion)."""
    params = {"t": tenant_id}
    db.session.execute(text("DELETE FROM document_search WHERE tenant_id = :t"), params)
    db.session.execute(text("DELETE FROM document_search_ids WHERE tenant_id = :t"), params)


def delete_all() -> None:
    """Drop every row, and the common words' lists of them (the tests' reset between tests)."""
    db.session.execute(text("DELETE FROM document_search"))
    db.session.execute(text("DELETE FROM document_search_ids"))
    db.session.execute(text("DELETE FROM document_search_common"))
    db.session.execute(text("DELETE FROM document_search_common_terms"))
