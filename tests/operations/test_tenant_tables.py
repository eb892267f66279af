"""The metadata walk that export, import and deletion share: every table is either a
tenant's (a tenant_id column, or a foreign key leading to a table with one) or named, with a
reason, as global. A new table that is neither fails here until it is one or the other."""

from __future__ import annotations

from extensions import db
from services.operations.tenant_tables import GLOBAL_TABLES, owner_path, tenant_tables


def test_every_table_is_a_tenants_or_listed_as_global(app):
    unaccounted = [
        t.name for t in db.metadata.sorted_tables
        if t.name not in GLOBAL_TABLES and owner_path(t) is None
    ]  # fmt: skip
    assert unaccounted == [], (
        "these tables reach no tenant: give them a tenant_id (or a foreign key to a tenant's "
        "table), or add them to GLOBAL_TABLES with the reason"
    )


def test_the_global_list_names_only_real_tables(app):
    for name in set(GLOBAL_TABLES) - {"alembic_version"}:
        assert name in db.metadata.tables, f"GLOBAL_TABLES names {name}, which no longer exists"
    # The operator's log names tenants but outlives them: excepted, so deletion keeps it.
    assert "operator_records" not in {t.name for t in tenant_tables()}


def test_children_without_a_tenant_column_are_reached_through_their_parent(app):
    names = [t.name for t in tenant_tables()]
    for child, parent in [
        ("form_versions", "forms"),
        ("webhook_attempts", "webhook_deliveries"),
        ("workflow_actions", "workflow_instances"),
    ]:
        assert child in names and names.index(parent) < names.index(child)
        assert owner_path(db.metadata.tables[child])[0].column.table.name == parent
    assert names.index("documents") < names.index("document_versions")
