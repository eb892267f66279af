"""PostgreSQL: the tiers of a one-word search, GIN indexes on the words of each document's rank
vector that weigh more than 3.0, 1.0 and 0.3 there (docs/search.md, "Common words")

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-26 01:30:00

A common word's lead matches tens of thousands of documents at 100,000, and ranking them all
would be most of its search. The few hundred where the word weighs most
(in titles, tags, or many times in the text) are ranked first; every other match scores at most
the tier's bound, so a full page above it is the exact page (services/search/engines/postgres.py).

dms_rank_tier(rank_vector, weights, X) is the rank vector's words whose occurrences weigh more
than X in all, with the weights ts_rank_cd ranks by (D, C, B, A). Expression indexes: no column
to keep in step, and no table rewrite; building them at 100,000 documents takes 12-20 s each.

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

WEIGHTS = "{0.1, 0.1, 0.3, 1.0}"
TIERS = {"3_0": "3.0", "1_0": "1.0", "0_3": "0.3"}

FUNCTION = """
CREATE OR REPLACE FUNCTION dms_rank_tier(tsvector, float4[], float8) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(u.lexeme)), ''::tsvector)
  FROM unnest($1) AS u
  WHERE (SELECT sum($2[CASE w WHEN 'D' THEN 1 WHEN 'C' THEN 2 WHEN 'B' THEN 3 ELSE 4 END]::float8)
         FROM unnest(u.weights) AS w) > $3
$$
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    for suffix, above in TIERS.items():
        op.execute(
            f"CREATE INDEX IF NOT EXISTS ix_document_texts_rank_tier_{suffix} ON document_texts"
            f" USING gin (dms_rank_tier(rank_vector, '{WEIGHTS}'::float4[], {above}::float8))"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for suffix in TIERS:
        op.execute(f"DROP INDEX IF EXISTS ix_document_texts_rank_tier_{suffix}")
    op.execute("DROP FUNCTION IF EXISTS dms_rank_tier(tsvector, float4[], float8)")
