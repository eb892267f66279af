"""The documents list's hot path (GET /documents): one SQL statement per page that brings
each row's columns, its tags and its latest workflow instance, read as plain rows rather than
ORM objects. The ORM path (documents.list_documents, the portal's) loads the same page with
three statements and builds an object per row; profiled through gunicorn, that was most of a
list request (bench/RESULTS.md, issue 16). wire.listed_documents_data turns these rows into
exactly what DocumentOut produces (tests/documents/test_list_serialiser.py holds them equal).

The plain list (no filter but status and sort: what most calls ask) reuses one statement per
shape with its values bound at execution, rather than building a new one per request:
SQLAlchemy then also skips matching the new statement's columns to its cached compilation,
which cost more than building it (bench/RESULTS.md, issue 16)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import JSON, Integer, Row, Select, String, bindparam, func, select, type_coerce
from sqlalchemy.dialects.postgresql import ARRAY

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
    """The row's tags in tag order (one correlated index lookup): a text array on
    PostgreSQL, which the driver reads without a JSON parse; a JSON array on SQLite."""
    ordered = (
        select(DocumentTag.tag)
        .where(DocumentTag.document_id == Document.id)
        .order_by(DocumentTag.tag)
        .correlate(Document)
    )
    if dialect == "postgresql":
        return func.array(ordered.scalar_subquery(), type_=ARRAY(String)).label("tags")
    # SQLite 3.40 has no ORDER BY in aggregates; it keeps the subquery's order
    tags = ordered.subquery()
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
    if _is_plain(filters):
        status = tuple(filters.status)
        stmt = _plain_statement(dialect, filters.sort, status, position is not None)
        params = {"tenant_id": tenant_id, "limit": limit}
        if position is not None:
            params |= {"after_value": position[0], "after_id": position[1]}
    else:
        stmt, params = _statement(dialect, filters, tenant_id, limit, position), {}
    if dialect == "postgresql":
        rows = _read_alone(stmt, params)
    else:
        rows = db.session.execute(stmt, params).all()
    return rows[:limit], len(rows) > limit


_PLAIN = DocumentFilters()
_FILTERS = set(DocumentFilters.model_fields) - {"status", "sort"}


def _is_plain(filters: DocumentFilters) -> bool:
    """No filter set but status and sort."""
    return all(getattr(filters, name) == getattr(_PLAIN, name) for name in _FILTERS)


@cache  # a handful of shapes: dialect x sort x status set x first page or not
def _plain_statement(dialect: str, sort: str, status: tuple, after: bool) -> Select:
    """The plain list's statement with the tenant, the page size and the position as bind
    parameters (tenant_id, limit, after_value, after_id)."""
    position = None
    if after:
        sorted_by = sort_columns(sort)[0][0]
        position = [
            bindparam("after_value", type_=sorted_by.type),
            bindparam("after_id", type_=String),
        ]
    filters = DocumentFilters(status=status, sort=sort)
    tenant_id, limit = bindparam("tenant_id", type_=String), bindparam("limit", type_=Integer)
    return _statement(dialect, filters, tenant_id, limit, position)


def _statement(dialect: str, filters: DocumentFilters, tenant_id, limit, position) -> Select:
    """The page's statement, with values or (the plain list's) bind parameters."""
    stmt = select(*COLUMNS, _tags(dialect), _workflow(dialect))
    stmt = apply_filters(stmt, tenant_id, filters)
    return paging.paged(stmt, sort_columns(filters.sort), limit, position)


def _read_alone(stmt: Select, params: dict[str, Any]) -> list[Row]:
    """Run one read-only statement outside a transaction (autocommit): a statement is its
    own snapshot, and psycopg then sends neither BEGIN before it nor ROLLBACK when the
    connection goes back to the pool, two of the four round trips a list request made."""
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        return conn.execute(stmt, params).all()
