"""The documents list's hot path (GET /documents): one SQL statement per page that brings
each row's columns, its tags and its latest workflow instance, read as plain rows rather than
ORM objects. The ORM path (documents.list_documents, the portal's) loads the same page with
three statements and builds an object per row; profiled through gunicorn, that was most of a
list request (bench/RESULTS.md, issue 16). wire.listed_documents_data turns these rows into
exactly what DocumentOut produces (tests/documents/test_list_serialiser.py holds them equal)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import JSON, Row, Select, func, literal_column, select, type_coerce
from sqlalchemy.dialects.postgresql import aggregate_order_by

from extensions import db
from models.document import Document, DocumentTag
from models.workflow import WorkflowInstance
from services.core import paging
from services.documents.filters import DocumentFilters, apply_filters, sort_columns

# The document columns a page needs, labelled as the ORM attributes are named, so
# filters.position_of reads a row as it reads a Document.
COLUMNS = (
    Document.id,
    Document.title,
    Document.filename,
    Document.content_type,
    Document.size,
    Document.sha256,
    Document.status,
    Document.meta,
    Document.text_status,
    Document.text_error,
    Document.text_truncated,
    Document.current_version,
    Document.created_by,
    Document.created_at,
    Document.updated_at,
    Document.deleted_at,
)


@cache  # built once per dialect: constructing it was a visible share of a request
def _tags(dialect: str):
    """The row's tags in tag order, as a JSON array (one correlated index lookup)."""
    if dialect == "postgresql":
        ordered = aggregate_order_by(DocumentTag.tag, DocumentTag.tag)
        aggregate = select(
            func.coalesce(func.json_agg(ordered), literal_column("'[]'::json"))
        ).where(DocumentTag.document_id == Document.id)
    else:  # SQLite 3.40 has no ORDER BY in aggregates; it keeps the subquery's order
        tags = (
            select(DocumentTag.tag)
            .where(DocumentTag.document_id == Document.id)
            .order_by(DocumentTag.tag)
            .correlate(Document)
            .subquery()
        )
        aggregate = select(func.json_group_array(tags.c.tag))
    return type_coerce(aggregate.scalar_subquery(), JSON).label("tags")


@cache
def _workflow(dialect: str):
    """The row's newest workflow instance (ids sort by time) as {"id", "state"}, or null."""
    build = func.json_build_object if dialect == "postgresql" else func.json_object
    latest = (
        select(build("id", WorkflowInstance.id, "state", WorkflowInstance.state))
        .where(
            WorkflowInstance.subject_type == "document",
            WorkflowInstance.subject_id == Document.id,
        )
        .order_by(WorkflowInstance.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    return type_coerce(latest, JSON).label("workflow")


def list_page(
    tenant_id: str, filters: DocumentFilters, limit: int, position: Sequence[Any] | None
) -> tuple[list[Row], bool]:
    """One keyset page of the tenant's documents in `filters.sort` order after `position`,
    as rows of COLUMNS plus `tags` and `workflow`, and whether more follow."""
    dialect = db.session.get_bind().dialect.name
    stmt: Select = select(*COLUMNS, _tags(dialect), _workflow(dialect))
    stmt = apply_filters(stmt, tenant_id, filters)
    stmt = paging.paged(stmt, sort_columns(filters.sort), limit, position)
    rows = _read_alone(stmt) if dialect == "postgresql" else db.session.execute(stmt).all()
    return rows[:limit], len(rows) > limit


def _read_alone(stmt: Select) -> list[Row]:
    """Run one read-only statement outside a transaction (autocommit): a statement is its
    own snapshot, and psycopg then sends neither BEGIN before it nor ROLLBACK when the
    connection goes back to the pool, two of the four round trips a list request made."""
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        return conn.execute(stmt).all()
