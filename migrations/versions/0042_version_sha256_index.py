"""Documents' versions found by their content: an index on (tenant_id, sha256)

Revision ID: 0042
Revises: 0041
Create Date: 2026-11-28 13:50:00

- `ix_document_versions_tenant_sha256`: the folder import skips a file whose bytes the tenant
  already stores (docs/ingestion.md), and the blob store asks whether any row still names a
  blob before deleting it; both look a version up by its tenant and SHA-256.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0042"
down_revision = "0041"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_document_versions_tenant_sha256", "document_versions", ["tenant_id", "sha256"]
    )


def downgrade() -> None:
    op.drop_index("ix_document_versions_tenant_sha256", table_name="document_versions")
