"""tenants: where the audit chain became keyed, and its head sealed on the tenant row
(services/audit/audit_log.py; docs/decisions.md, "Audit log")

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-28 09:00:00

- `audit_keyed_since`: the first position that must be keyed. For a tenant that already has
  keyed entries, the first of them; for one whose chain is wholly unkeyed (written before
  the chain was keyed), the next position, which the running code seals with a key.
- `audit_head_seal`, `audit_head_key`: HMAC with the first audit key (DMS_AUDIT_KEYS) over
  the tenant, its counter, the hash of the entry at that position and keyed-since. It seals
  the chain as it stands at the upgrade; later entries reseal it.

The payload repeats `head_seal` in services/audit/audit_log.py, so that this revision keeps
doing what it did when that module changes.
"""

import hashlib
import hmac
import json

import sqlalchemy as sa
from alembic import op
from flask import current_app

# revision identifiers, used by Alembic.
revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None

GENESIS_HASH = "0" * 64


def upgrade() -> None:
    # Plain ADD and DROP COLUMN, never a batch copy of the table: on SQLite a copy drops
    # `tenants`, and its ON DELETE CASCADE foreign keys would empty every tenant's tables.
    op.add_column(
        "tenants", sa.Column("audit_keyed_since", sa.Integer(), nullable=False, server_default="1")
    )
    op.add_column("tenants", sa.Column("audit_head_seal", sa.String(length=64), nullable=True))
    op.add_column("tenants", sa.Column("audit_head_key", sa.String(length=40), nullable=True))
    bind = op.get_bind()
    tenants = bind.execute(sa.text("SELECT id, audit_seq FROM tenants")).all()
    if not tenants:
        return
    key_id, secret = next(iter(current_app.config["DMS_AUDIT_KEYS"].items()))
    for tenant_id, audit_seq in tenants:
        first_keyed = bind.execute(
            sa.text(
                "SELECT min(seq) FROM audit_entries WHERE tenant_id = :t AND key_id IS NOT NULL"
            ),
            {"t": tenant_id},
        ).scalar()
        keyed_since = first_keyed if first_keyed is not None else audit_seq + 1
        head = bind.execute(
            sa.text("SELECT hash FROM audit_entries WHERE tenant_id = :t AND seq = :s"),
            {"t": tenant_id, "s": audit_seq},
        ).scalar()
        payload = {
            "purpose": "audit-head",
            "tenant": tenant_id,
            "seq": audit_seq,
            "head": head or GENESIS_HASH,
            "keyedSince": keyed_since,
        }
        seal = hmac.new(
            secret, json.dumps(payload, sort_keys=True, separators=(",", ":")).encode(),
            hashlib.sha256,
        ).hexdigest()  # fmt: skip
        bind.execute(
            sa.text(
                "UPDATE tenants SET audit_keyed_since = :since, audit_head_seal = :seal,"
                " audit_head_key = :key WHERE id = :t"
            ),
            {"since": keyed_since, "seal": seal, "key": key_id, "t": tenant_id},
        )


def downgrade() -> None:
    for column in ("audit_head_key", "audit_head_seal", "audit_keyed_since"):
        op.execute(f"ALTER TABLE tenants DROP COLUMN {column}")
