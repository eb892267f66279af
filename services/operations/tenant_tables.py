"""Which rows belong to a tenant, read from the SQLAlchemy metadata so that a table added later
is covered without code here: every table with a `tenant_id` column, and every table that
reaches one through a foreign key (form versions, webhook attempts, workflow actions, ...),
in foreign-key order. The few tables that are not a tenant's are named in GLOBAL_TABLES with
the reason; tests/operations/test_tenant_tables.py fails when a table fits neither."""

from __future__ import annotations

from sqlalchemy import Table, false, select
from sqlalchemy.sql.elements import ColumnElement

from extensions import db

TENANTS = "tenants"
# Tables that hold no tenant's rows, and why.
GLOBAL_TABLES: dict[str, str] = {
    "tenants": "the tenant row itself, handled first (export) and last (delete)",
    "support_staff": "operator support staff, shared by every tenant",
    "operator_records": "the operator's own log (tenant deletions); outlives the tenant",
    "alembic_version": "the schema's migration revision",
}
# What a row of an archive written before a column existed gets in it, where that differs
# from the column's default: a document of such an archive came in through the import.
ARCHIVE_DEFAULTS: dict[str, dict[str, object]] = {"documents": {"source": {"type": "import"}}}
# Columns that name a content-addressed blob of the row's tenant (services/documents/storage).
BLOB_COLUMNS: dict[str, str] = {"documents": "sha256", "document_versions": "sha256"}


def all_tables() -> list[Table]:
    """Every mapped table, parents before children."""
    return list(db.metadata.sorted_tables)


def tenant_tables() -> list[Table]:
    """The tables holding a tenant's rows, parents before children (load in this order,
    delete in the reverse)."""
    return [t for t in all_tables() if t.name not in GLOBAL_TABLES and owner_path(t) is not None]


def owner_path(table: Table, seen: frozenset[str] = frozenset()) -> list | None:
    """How the table's rows reach a tenant: [] when it has `tenant_id`, else the foreign keys
    to follow (the first that leads to a tenant-owned table); None when it does not."""
    if "tenant_id" in table.c:
        return []
    for fk in sorted(table.foreign_keys, key=lambda f: (f.parent.nullable, f.parent.name)):
        parent = fk.column.table
        if parent.name in seen or parent.name == table.name:
            continue
        rest = owner_path(parent, seen | {table.name})
        if rest is not None:
            return [fk, *rest]
    return None


def tenant_filter(table: Table, tenant_id: str) -> ColumnElement[bool]:
    """WHERE clause selecting the tenant's rows of `table` (through its parents if needed)."""
    path = owner_path(table)
    if path is None:
        return false()
    if not path:
        return table.c.tenant_id == tenant_id
    fk = path[0]
    parent = fk.column.table
    return fk.parent.in_(select(fk.column).where(tenant_filter(parent, tenant_id)))


def blob_references(tenant_id: str | None = None) -> select:
    """SELECT (tenant_id, sha256) of every blob committed rows name (one tenant's, or all)."""
    selects = []
    for name, column in BLOB_COLUMNS.items():
        table = db.metadata.tables[name]
        stmt = select(table.c.tenant_id, table.c[column].label("sha256"))
        if tenant_id is not None:
            stmt = stmt.where(table.c.tenant_id == tenant_id)
        selects.append(stmt)
    first, *rest = selects
    return first.union(*rest)
