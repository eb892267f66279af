"""Owns a document's extracted text and its search-index entry, on both database engines.

PostgreSQL: `document_texts.search_vector`, a tsvector of the title (weight A), the tags and
metadata values (B), the text (C) and the notes (D), under a GIN index. SQLite: one row per
document in the `document_search` FTS5 table (title, keywords, body, notes). Notes find a
document but never rank it: they are left out of PostgreSQL's rank vector and weigh 0 in
SQLite's bm25 (docs/notes.md). `refresh(document)` rebuilds the entry and must run whenever
the title, tags, metadata, text or notes change, in the same transaction."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from sqlalchemy import inspect, select, text

import clock
from extensions import db
from models import Document, TextStatus
from models.notes import Note
from models.search import DocumentText
from services.core import transaction
from services.search import fts5_rows, passages
from services.search.scoring import MARK_END, MARK_START, unmarked

log = logging.getLogger(__name__)

# The text search configuration (stemming, stop words) for PostgreSQL; SQLite's FTS5 table
# uses the Porter stemmer over unicode61 to behave alike.
PG_CONFIG = "english"
# tsvector values are capped at 1 MB; beyond this many characters the text is stored (and
# shown) but not indexed.
INDEX_MAX_CHARS = 250_000
# PostgreSQL ranks on the title, tags, metadata and this lead of the text (docs/search.md).
RANK_LEAD_CHARS = 1000
# The notes' words indexed per document, the newest notes first (a tsvector holds 1 MB).
NOTES_INDEX_MAX_CHARS = 100_000
# The unit of work's documents whose index entries are written at its commit.
_REFRESH = "search.refresh"


def dialect() -> str:
    return db.session.get_bind().dialect.name


def text_of(tenant_id: str, document_id: str) -> DocumentText | None:
    return db.session.scalar(
        select(DocumentText).where(
            DocumentText.document_id == document_id, DocumentText.tenant_id == tenant_id
        )
    )


def text_row(document: Document, *, new: bool = False) -> DocumentText:
    """The document's own text row, kept by the session once loaded (the text may be long);
    `new`: the document is being created in this unit of work, so it has none yet."""
    if new:  # written with the document's own rows, at the unit of work's next flush
        row = DocumentText(document_id=document.id, tenant_id=document.tenant_id, text="")
        db.session.add(row)
        return row
    row = db.session.get(DocumentText, document.id)
    if row is None:
        row = DocumentText(document_id=document.id, tenant_id=document.tenant_id, text="")
        db.session.add(row)
        db.session.flush()
    return row


def keywords_of(document: Document) -> str:
    """The words of the tags and of the metadata values, indexed with weight B."""
    values = [str(v) for v in (document.meta or {}).values()]
    return " ".join([*document.tag_names, *values])


def refresh(document: Document) -> None:
    """Rebuild the document's index entry from its current title, tags, metadata, text and
    notes, just before the unit of work commits: once however often it changed, and in one
    statement with every other document the unit of work changed (a bulk edit's batch, an
    import's). A search inside the same unit of work does not see the new entry yet.

    Call it in the transaction that changed any of them (PATCH, upload, extraction, a note)."""
    transaction.before_commit_collect(_REFRESH, document, write_entries)


def write_entries(documents: list[Document]) -> None:
    """Write the index entries of `documents` now (refresh's work at the commit)."""
    live = [d for d in documents if not inspect(d).was_deleted]
    if not live:
        return
    db.session.flush()  # the statements read the text and notes rows as they are now
    if dialect() == "postgresql":
        missing = _pg_write(live)
        if missing:  # documents without their text row yet: made empty, then indexed
            for document in missing:
                text_row(document)
            _pg_write(missing)
        return
    texts = {
        row.document_id: row
        for row in db.session.scalars(
            select(DocumentText).where(
                DocumentText.document_id.in_([d.id for d in live]),
                DocumentText.tenant_id.in_({d.tenant_id for d in live}),
            )
        )
    }
    notes = _notes_of(live)
    fts5_rows.write(
        [
            entry(
                d.id,
                d.tenant_id,
                d.title or "",
                keywords_of(d),
                (texts.get(d.id) or text_row(d)).text,
                notes.get(d.id, ""),
            )
            for d in live
        ]
    )


def _notes_of(documents: list[Document]) -> dict[str, str]:
    """The words of each document's notes, newest first, up to NOTES_INDEX_MAX_CHARS."""
    rows = db.session.execute(
        select(Note.document_id, Note.body)
        .where(
            Note.document_id.in_([d.id for d in documents]),
            Note.tenant_id.in_({d.tenant_id for d in documents}),
        )
        .order_by(Note.document_id, Note.id.desc())
    )
    kept: dict[str, list[str]] = {}
    sizes: dict[str, int] = {}
    for document_id, body in rows:
        size = sizes.get(document_id, 0)
        if size >= NOTES_INDEX_MAX_CHARS:
            continue
        cut = body[: NOTES_INDEX_MAX_CHARS - size]
        kept.setdefault(document_id, []).append(cut)
        sizes[document_id] = size + len(cut) + 1
    return {document_id: "\n".join(bodies) for document_id, bodies in kept.items()}


def _pg_write(documents: list[Document]) -> list[Document]:
    """One UPDATE for the lot; PostgreSQL reads the text and the notes itself, so neither
    crosses the wire. The documents that have no text row."""
    fields = [entry(d.id, d.tenant_id, d.title or "", keywords_of(d), "") for d in documents]
    statement = text(
        _pg_update_sql("v.title", "v.keywords", _PG_STORED_BODY, _PG_STORED_NOTES)
        + " FROM unnest(CAST(:ids AS text[]), CAST(:titles AS text[]), CAST(:keywords AS text[]))"
        " AS v(id, title, keywords) WHERE dt.document_id = v.id RETURNING dt.document_id"
    )
    written = set(
        db.session.scalars(
            statement,
            {
                "ids": [f["id"] for f in fields],
                "titles": [f["title"] for f in fields],
                "keywords": [f["keywords"] for f in fields],
                "cfg": PG_CONFIG,
                "lead": RANK_LEAD_CHARS,
                "marks": MARK_START + MARK_END,
            },
        )
    )
    return [d for d in documents if d.id not in written]


def entry(
    document_id: str,
    tenant_id: str,
    title: str,
    keywords: str,
    body: str | None,
    notes: str = "",
) -> dict:
    """The indexed fields of one document, without the highlight markers (SQLite builds
    snippets from these copies) and with the text cut at INDEX_MAX_CHARS."""
    return {
        "id": document_id,
        "tenant": tenant_id,
        "title": unmarked(title),
        "keywords": unmarked(keywords),
        "body": unmarked((body or "")[:INDEX_MAX_CHARS]),
        "notes": unmarked(notes[:NOTES_INDEX_MAX_CHARS]),
    }


# The tsvector of one document: title A, tags and metadata values B, text C.
_PG_VECTOR = (
    "setweight(to_tsvector(CAST(:cfg AS regconfig), {title}), 'A')"
    " || setweight(to_tsvector(CAST(:cfg AS regconfig), {keywords}), 'B')"
    " || setweight(to_tsvector(CAST(:cfg AS regconfig), {body}), 'C')"
)


# The notes, in the matching vector only: weight D, which no ranking reads.
_PG_NOTES = " || setweight(to_tsvector(CAST(:cfg AS regconfig), {notes}), 'D')"


# The stored text and notes as `entry` cuts and cleans them, read inside the statement.
_PG_STORED_BODY = f"translate(left(coalesce(dt.text, ''), {INDEX_MAX_CHARS}), :marks, '')"
_PG_STORED_NOTES = (
    "translate(left(coalesce((SELECT string_agg(n.body, E'\\n' ORDER BY n.id DESC)"  # noqa: S608 (constant fragments)
    f" FROM notes n WHERE n.document_id = dt.document_id), ''), {NOTES_INDEX_MAX_CHARS}),"
    " :marks, '')"
)


def _pg_update_sql(title: str, keywords: str, body: str, notes: str) -> str:
    """UPDATE document_texts SET both vectors: `search_vector` (matching: full text and
    notes) and `rank_vector` (ranking: the same fields with only the lead of the text, kept
    small, and no notes)."""
    full = _PG_VECTOR.format(title=title, keywords=keywords, body=body)
    full += _PG_NOTES.format(notes=notes)
    lead = _PG_VECTOR.format(title=title, keywords=keywords, body=f"left({body}, :lead)")
    return f"UPDATE document_texts dt SET search_vector = {full}, rank_vector = {lead}"  # noqa: S608 (constant fragments; values are bound)


def rebuild_vectors(tenant_id: str, batch_size: int = 2000) -> Iterator[int]:
    """PostgreSQL: recompute every tsvector of a tenant in SQL, a batch per transaction
    (after a change of configuration or weights, or a bulk load); yields rows done."""
    keywords = (
        "concat_ws(' ',"
        " (SELECT string_agg(t.tag, ' ') FROM document_tags t WHERE t.document_id = d.id),"
        " (SELECT string_agg(m.value, ' ') FROM json_each_text(d.metadata) m))"
    )
    after = ""
    while True:
        ids = list(
            db.session.scalars(
                select(DocumentText.document_id)
                .where(DocumentText.tenant_id == tenant_id, DocumentText.document_id > after)
                .order_by(DocumentText.document_id)
                .limit(batch_size)
            )
        )
        if not ids:
            return
        db.session.execute(
            text(
                _pg_update_sql("d.title", keywords, _PG_STORED_BODY, _PG_STORED_NOTES)
                + " FROM documents d WHERE d.id = dt.document_id"
                " AND d.id = ANY(:ids) AND dt.document_id = ANY(:ids)"
            ),
            {"cfg": PG_CONFIG, "ids": ids, "lead": RANK_LEAD_CHARS, "marks": MARK_START + MARK_END},
        )
        db.session.commit()  # a batch at a time: a crash keeps the batches already done
        after = ids[-1]
        yield len(ids)


def remove(tenant_id: str, document_id: str) -> None:
    """Drop the document's text, passages and index entry (the purge job; FTS5 has no
    foreign keys)."""
    transaction.uncollect(_REFRESH, lambda document: document.id == document_id)
    if dialect() != "postgresql":
        fts5_rows.delete(document_id)
    passages.remove(document_id)
    row = text_of(tenant_id, document_id)
    if row is not None:
        db.session.delete(row)


def mark_pending(document: Document, *, new: bool = False) -> DocumentText:
    """The document's text is (again) to be extracted; its index entry follows its fields.
    `new`: the document is being created in this unit of work."""
    document.text_status = TextStatus.PENDING.value
    document.text_error = None
    document.text_truncated = False
    row = text_row(document, new=new)
    row.error = None
    row.enqueued_at = clock.now()
    row.updated_at = clock.now()
    refresh(document)
    return row
