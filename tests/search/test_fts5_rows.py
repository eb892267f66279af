"""SQLite's `document_search_ids` (migration 0029, services/search/fts5_rows.py) says, for every
FTS5 row, the same document and tenant: after indexing, re-indexing, the purge and a
tenant's deletion; and a search finds the documents through it, another tenant's never."""

from __future__ import annotations

from sqlalchemy import text

from extensions import db
from models import Document
from services.documents.filters import DocumentFilters
from services.search import indexing, search


def _rows() -> tuple[set, set]:
    """(rowid, document, tenant) of the FTS5 table and of the ids table."""
    fts = db.session.execute(text("SELECT rowid, document_id, tenant_id FROM document_search"))
    ids = db.session.execute(
        text("SELECT fts_rowid, document_id, tenant_id FROM document_search_ids")
    )
    return {tuple(r) for r in fts}, {tuple(r) for r in ids}


def test_the_ids_follow_the_index(app, sqlite_only, index_documents, tenant, other_tenant):
    ours = index_documents(tenant, *[{"title": f"Ledger {i}", "text": "ledger"} for i in range(3)])
    theirs = index_documents(other_tenant, {"title": "Ledger", "text": "ledger"})
    with app.app_context():
        fts, ids = _rows()
        assert len(fts) == 4 and fts == ids
        document = db.session.get(Document, ours[0])
        document.title = "Renamed ledger"
        indexing.refresh(document)
        db.session.commit()
        fts, ids = _rows()
        assert fts == ids and len(ids) == 4
        indexing.remove(tenant.id, ours[1])
        db.session.commit()
        fts, ids = _rows()
        assert fts == ids and {r[1] for r in ids} == {ours[0], ours[2], *theirs}
        hits = search.search(tenant.id, "ledger", DocumentFilters(), 20).hits
        assert {h.id for h in hits} == {ours[0], ours[2]}
    result = app.test_cli_runner().invoke(args=["tenants", "delete", tenant.id, "--yes"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        fts, ids = _rows()
        assert fts == ids and {r[1] for r in ids} == set(theirs)
