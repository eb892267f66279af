"""SQLite's index rows: each document's row of the FTS5 table `document_search` (title,
keywords, body; its document and tenant UNINDEXED; its notes, migration 0032) and its row of
`document_search_ids`
(migration 0029), which says the same document and tenant by rowid without FTS5 reading the
stored row, text included (services/search/engines/sqlite.py joins it). Both are written and
deleted together, here only."""

from __future__ import annotations

import hashlib

from sqlalchemy import text

from extensions import db

# bm25's column weights, in the table's column order: title, keywords (tags and metadata),
# body, the two unindexed ids, notes. A note's words find its document but weigh nothing, so
# a document matching only in a note ranks below every one matching in its own fields
# (docs/notes.md); FTS5 weighs a column left out of the list 1.0, so every call names all six.
WEIGHTS = (10.0, 4.0, 1.0, 0.0, 0.0, 0.0)
WEIGHTS_SQL = ", ".join(str(w) for w in WEIGHTS)


def rowid(document_id: str) -> int:
    """A stable 63-bit FTS5 rowid for a document id, so updates replace by primary key."""
    return int.from_bytes(hashlib.sha256(document_id.encode()).digest()[:8], "big") >> 1


def write(entries: list[dict]) -> None:
    """Replace the rows of these `indexing.entry()`s (one statement each, executemany)."""
    rows = [{"notes": "", **e, "rowid": rowid(e["id"])} for e in entries]
    delete_rows = [{"rowid": r["rowid"]} for r in rows]
    db.session.execute(text("DELETE FROM document_search WHERE rowid = :rowid"), delete_rows)
    db.session.execute(
        text(
            "INSERT INTO document_search"
            " (rowid, document_id, tenant_id, title, keywords, body, notes)"
            " VALUES (:rowid, :id, :tenant, :title, :keywords, :body, :notes)"
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
