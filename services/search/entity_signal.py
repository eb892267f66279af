"""The `entity` ranking signal: when the query names a knowledge-graph entity (its name or
an alias, compared casefolded), the matching documents that mention it rank higher.

entity = n / (n + ENTITY_SATURATION), n = how many times the document mentions the named
entities (0 when it does not), so one mention gives 1/3, two 1/2, ten 5/6; and
score = base x (1 + ENTITY_WEIGHT x entity), base being the keyword (x recency) score, rounded
like every score so keyset pages over (score, id) compare exactly. Mentions are read from
models (entity_names, entity_mentions), never through the graph capability above search."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Float, Numeric, Subquery, cast, func, select

from extensions import db
from models import EntityMention, EntityName
from models.graph import name_key
from services.search.scoring import SCORE_DECIMALS

ENTITY_WEIGHT = 1.0  # a document naming the entity often scores up to twice as high
ENTITY_SATURATION = 2.0
MAX_WORDS_PER_NAME = 8
# Tokens as typed (names like "AT&T" keep their punctuation), minus quotes and a trailing
# comma or full stop; and words alone (as the engines split them).
_TOKEN = re.compile(r"\S+")
_WORD = re.compile(r"[^\W_]+")
_EDGE_PUNCTUATION = "\"'\u2018\u2019\u201c\u201d,.;:!?()[]"


@dataclass(frozen=True)
class EntityBoost:
    entity_ids: tuple[str, ...]

    def apply(self, ranked: Subquery) -> Subquery:
        """`ranked` (id, keyword, recency, score) with an `entity` column and the boosted
        score."""
        mentions = (
            select(
                EntityMention.document_id.label("document_id"),
                func.sum(EntityMention.count).label("n"),
            )
            .where(EntityMention.entity_id.in_(self.entity_ids))
            .group_by(EntityMention.document_id)
            .subquery("entity_mentions_named")
        )
        n = cast(func.coalesce(mentions.c.n, 0), Float)
        entity = n / (n + ENTITY_SATURATION)
        return (
            select(
                ranked.c.id,
                ranked.c.keyword,
                ranked.c.recency,
                _rounded(ranked.c.score * (1.0 + ENTITY_WEIGHT * entity)).label("score"),
                _rounded(entity).label("entity"),
            )
            .outerjoin(mentions, mentions.c.document_id == ranked.c.id)
            .subquery("entity_ranked")
        )


def _rounded(expression):
    if db.session.get_bind().dialect.name == "postgresql":
        return cast(func.round(cast(expression, Numeric), SCORE_DECIMALS), Float)
    return func.round(expression, SCORE_DECIMALS)


def candidate_names(q: str) -> set[str]:
    """Every run of up to MAX_WORDS_PER_NAME consecutive tokens of the query, in the compared
    form: the names the query could be saying."""
    found: set[str] = set()
    q = q.replace("\x00", " ")  # PostgreSQL takes no NUL in a string; it is no name anyway
    tokens = [t.strip(_EDGE_PUNCTUATION) for t in _TOKEN.findall(q) if not t.startswith("-")]
    for sequence in ([t for t in tokens if t], _WORD.findall(q)):
        sequence = sequence[:64]
        for start in range(len(sequence)):
            for end in range(start + 1, min(start + MAX_WORDS_PER_NAME, len(sequence)) + 1):
                key = name_key(" ".join(sequence[start:end]))
                if key and len(key) <= 200:
                    found.add(key)
    return found


def for_query(tenant_id: str, q: str) -> EntityBoost | None:
    """The boost for the entities `q` names, or None when it names none (the search then
    runs exactly as without the signal)."""
    names = candidate_names(q)
    if not names:
        return None
    ids = db.session.scalars(
        select(EntityName.entity_id)
        .where(EntityName.tenant_id == tenant_id, EntityName.key.in_(sorted(names)))
        .distinct()
    ).all()
    return EntityBoost(tuple(sorted(ids))) if ids else None
