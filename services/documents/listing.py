"""The documents list's hot path (GET /documents): one SQL statement per page, in which the
database writes each row as the JSON object DocumentOut would produce (its tags and latest
workflow instance included), so Python only joins the page's texts. Building those objects in
Python (a row object, three timestamps, a JSON parse of the metadata and a dict per row) would
be most of a list request's time. The ORM path
(documents.list_documents, the portal's) and every other document answer go through the
pydantic model; tests/documents/test_list_serialiser.py holds the two equal, on both
databases.

The plain list (no filter but status and sort: what most calls ask) reuses one statement per
shape with its values bound at execution, rather than building a new one per request:
SQLAlchemy then also skips matching the new statement's columns to its cached compilation,
which costs more than building it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    Integer,
    Row,
    Select,
    String,
    Text,
    TypeDecorator,
    bindparam,
    case,
    cast,
    func,
    literal_column,
    select,
    type_coerce,
)

from extensions import db
from models.base import id_list
from models.customfields import CustomField, CustomFieldValue
from models.documents import Document, DocumentTag
from models.workflows import WorkflowInstance
from services.core import paging, read_engine
from services.documents.filters import (
    DocumentFilters,
    apply_filters,
    sort_columns,
    status_only,
)

# The start of wire.thumbnail_path, which the database completes with the id.
THUMBNAIL_PREFIX = "/api/v1/documents/"


@cache  # built once per dialect: constructing it is a visible share of a request
def _document_json(dialect: str):
    """The row as DocumentOut's compact JSON text (keys in the order the encoder sorts them),
    built with each database's own JSON functions: on PostgreSQL row_to_json of the row's
    fields as a one-row subquery (compact, and cheaper than json_build_object, which also
    writes `"key" : value`), on SQLite json_object. Strings are escaped by the database;
    RFC 3339 timestamps are cut to the second, as clock.rfc3339 cuts them."""
    postgres = dialect == "postgresql"

    def timestamp(column):
        if postgres:
            utc = func.timezone(_constant("UTC"), column)
            return func.to_char(utc, _constant('YYYY-MM-DD"T"HH24:MI:SS"Z"'))
        return func.strftime(_constant("%Y-%m-%dT%H:%M:%SZ"), column)  # SQLite keeps UTC text

    def embedded(json_text):  # SQLite: text that is JSON, not a string to quote
        return json_text if postgres else func.json(json_text)

    truncated = Document.text_truncated
    if not postgres:  # SQLite's booleans are 0 and 1
        truncated = func.json(
            case((Document.text_truncated, _constant("true")), else_=_constant("false"))
        )
    fields = {
        "contentType": Document.content_type,
        "createdAt": timestamp(Document.created_at),
        "createdBy": Document.created_by,
        "currentVersion": Document.current_version,
        "customFields": _custom_fields(postgres),
        "deletedAt": timestamp(Document.deleted_at),
        "filename": Document.filename,
        "id": Document.id,
        "metadata": embedded(Document.meta),
        "sha256": Document.sha256,
        "size": Document.size,
        "source": embedded(Document.source),
        "status": Document.status,
        "tags": _tags(postgres),
        "textError": Document.text_error,
        "textStatus": Document.text_status,
        "textTruncated": truncated,
        "thumbnailUrl": _constant(THUMBNAIL_PREFIX) + Document.id + _constant("/thumbnail"),
        "title": Document.title,
        "updatedAt": timestamp(Document.updated_at),
        "workflow": embedded(_workflow(postgres)),
    }
    if postgres:
        labelled = (value.label(key) for key, value in fields.items())
        row = select(*labelled).correlate(Document).subquery("listed")
        built = select(func.row_to_json(row.table_valued())).scalar_subquery()
        # as text, so the driver hands it over instead of parsing it
        return cast(built, Text).label("document")
    arguments = [part for key, value in fields.items() for part in (_constant(key), value)]
    return func.json_object(*arguments).label("document")


def _constant(value: str):
    """A string constant written into the SQL rather than bound: each bound value is
    converted and sent again on every execution, and the page's JSON names 20 keys."""
    return literal_column("'" + value.replace("'", "''") + "'", String)


def _tags(postgres: bool):
    """The row's tags in tag order (one correlated index lookup), as a JSON array."""
    ordered = (
        select(DocumentTag.tag)
        .where(DocumentTag.document_id == Document.id)
        .order_by(DocumentTag.tag)
        .correlate(Document)
    )
    if postgres:
        return func.array_to_json(func.array(ordered.scalar_subquery()))
    # SQLite 3.40 has no ORDER BY in aggregates; it keeps the subquery's order
    tags = ordered.subquery()
    return func.json(select(func.json_group_array(tags.c.tag)).scalar_subquery())


def _custom_fields(postgres: bool):
    """The row's custom field values by field name, as a JSON array of {fieldId, name,
    value}: value_json is the value's JSON text already."""
    v, f = CustomFieldValue, CustomField
    value = cast(v.value_json, JSON) if postgres else func.json(v.value_json)
    build = func.json_build_object if postgres else func.json_object
    item = build(_constant("fieldId"), f.id, _constant("name"), f.name, _constant("value"), value)
    ordered = (
        select(item.label("item"))
        .select_from(v)
        .join(f, f.id == v.field_id)
        .where(v.document_id == Document.id, v.tenant_id == Document.tenant_id)
        .order_by(f.name_key, f.id)
        .correlate(Document)
    )
    if postgres:
        return func.array_to_json(func.array(ordered.scalar_subquery()))
    items = ordered.subquery()
    return func.json(select(func.json_group_array(func.json(items.c.item))).scalar_subquery())


def _workflow(postgres: bool):
    """The row's newest workflow instance (ids sort by time) as {"id", "state"}, or null."""
    build = func.json_build_object if postgres else func.json_object
    w = WorkflowInstance
    return (
        select(build(_constant("id"), w.id, _constant("state"), w.state))
        .where(
            w.subject_type == _constant("document"),
            w.subject_id == Document.id,
        )
        .order_by(w.id.desc())
        .limit(literal_column("1", Integer))
        .correlate(Document)
        .scalar_subquery()
    )


def documents_json(tenant_id: str, ids: Sequence[str]) -> dict[str, str]:
    """The tenant's documents `ids` as the list writes them (_document_json), by id: a search
    page's documents in one statement, where loading and serialising them through the ORM
    and DocumentOut would cost a fifth of a search request."""
    if not ids:
        return {}
    stmt = _by_ids_statement(db.session.get_bind().dialect.name)
    return dict(db.session.execute(stmt, {"tenant_id": tenant_id, "ids": list(ids)}).all())


@cache
def _by_ids_statement(dialect: str) -> Select:
    ids = id_list("ids", dialect)
    tenant_id = bindparam("tenant_id", type_=String)
    return select(Document.id, _document_json(dialect)).where(
        Document.found_in_tenant(ids, tenant_id, dialect)
    )


def list_page(
    tenant_id: str,
    filters: DocumentFilters,
    limit: int,
    position: Sequence[Any] | None,
    condition: ColumnElement[bool] | None = None,
) -> tuple[list[Row], bool]:
    """One keyset page of the tenant's documents in `filters.sort` order after `position`,
    and whether more follow; `condition` narrows it further (a customFieldQuery, compiled by
    services/customfields/query.py). Each row has the keyset's columns (what
    filters.position_of reads) and `document`, the document's JSON text."""
    dialect = db.session.get_bind().dialect.name
    status = status_only(filters)
    if status is not None and condition is None:
        stmt = _plain_statement(dialect, filters.sort, status, position is not None)
        params = {"tenant_id": tenant_id, "limit": limit}
        if position is not None:
            params |= {"after_value": position[0], "after_id": position[1]}
    else:
        stmt, params = _statement(dialect, filters, tenant_id, limit, position, condition), {}
    if condition is None:
        rows = read_engine.read_alone(stmt, params)
    else:  # planned for its values every time: a prepared plan read a 10% range as 0.5%
        rows = list(db.session.execute(stmt, params).all())
    return rows[:limit], len(rows) > limit


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


def _statement(
    dialect: str, filters: DocumentFilters, tenant_id, limit, position, condition=None
) -> Select:
    """The page's statement, with values or (the plain list's) bind parameters."""
    keyset = sort_columns(filters.sort)
    stmt = select(*(_driver_value(column) for column, _ in keyset), _document_json(dialect))
    stmt = apply_filters(stmt, tenant_id, filters)
    if condition is not None:
        stmt = stmt.where(condition)
    return paging.paged(stmt, keyset, limit, position)


def _driver_value(column):
    """The keyset column as the driver gives it, under its own name: only the last row's
    value becomes a cursor (filters.position_of converts it), so the page's other rows skip
    UTCDateTime's conversion of their timestamps."""
    if isinstance(column.type, TypeDecorator):
        return type_coerce(column, column.type.impl).label(column.key)
    return column
