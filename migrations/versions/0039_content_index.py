"""Documents by content: an index on (tenant_id, sha256) (docs/portal.md)

Revision ID: 0039
Revises: 0038
Create Date: 2026-11-28 14:00:00

- `ix_documents_tenant_sha256`: finds a tenant's document with the same bytes, which the
  portal's upload asks before storing a duplicate and the blob clean-up asks before deleting.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0039"
down_revision = "0038"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.create_index("ix_documents_tenant_sha256", ["tenant_id", "sha256"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.drop_index("ix_documents_tenant_sha256")
