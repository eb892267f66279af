"""The tiers of a query of one group (migration 0027; docs/search.md, "Common words"): the
bounded rankings postgres.py tries first, for `word`, `a or b`, or `"x y" or z`, exclusions
allowed.

A tier X holds the documents where a word weighs more than X in the rank vector (a GIN index
on dms_rank_tier(rank_vector, weights, X)). A tier's candidates are the documents where one of
the group's words is in the tier, and those whose lead holds one of the group's phrases. A
match that is neither has each of the n words weighing at most X and none of the phrases
in its lead, so each of its covers is a single occurrence of a word: ts_rank_cd sums their
weights, at most n·X, and the match scores at most n·X / (n·X + 1) (ceiling()).

The phrases' lead matches are found by their own scan (postgres_pairs: through the pairs of
adjacent words, migration 0028) and joined to the tier's by id."""

from __future__ import annotations

from sqlalchemy import Select, bindparam, case, literal_column, or_, select
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.sql.functions import func

from models import DocumentText
from services.search.engines import postgres_pairs
from services.search.engines.postgres_tsquery import either
from services.search.query_syntax import SearchQuery

# ts_rank_cd weights for D, C (text), B (tags and metadata), A (title).
WEIGHTS = "{0.1, 0.1, 0.3, 1.0}"
# Best first: the documents where a word's occurrences in the rank vector weigh more than X
# in all (3.0: three titles, or a title and many mentions; 1.0: a title and more; 0.3: a
# title, or a tag and a mention, or four mentions).
TIERS = (3.0, 1.0, 0.3)
_PREFIX = "tier:"  # an attempt's name: "tier:3.0"


def attempt(above: float) -> str:
    return f"{_PREFIX}{above}"


def tier_of(name: str) -> float | None:
    """The X of a tier's attempt; None for any other attempt."""
    return float(name.removeprefix(_PREFIX)) if name.startswith(_PREFIX) else None


def tier_index(above: float) -> str:
    return f"ix_document_texts_rank_tier_{str(above).replace('.', '_')}"


def tier_expression(column: str, above: float) -> str:
    return f"dms_rank_tier({column}, '{WEIGHTS}'::float4[], {above}::float8)"


def _vector(above: float):
    """The tier's vector of the row, as the index of migration 0027 holds it."""
    return literal_column(tier_expression("document_texts.rank_vector", above), TSVECTOR)


def applies(query: SearchQuery) -> bool:
    """One group holding at least one word (the others may be phrases)."""
    return len(query.groups) == 1 and any(len(t.words) == 1 for t in query.groups[0])


def shape(query: SearchQuery) -> tuple[bool, ...]:
    """Which of the group's terms are words (the rest are phrases): what a statement built
    with bind parameters depends on, beside terms_shape()."""
    return tuple(len(t.words) == 1 for t in query.groups[0]) if applies(query) else ()


def split(query: SearchQuery) -> tuple[list[int], list[int]]:
    """The numbers of the group's one-word terms and of its phrases (tsquery's term_<i>)."""
    group = query.groups[0]
    words = [i for i, t in enumerate(group) if len(t.words) == 1]
    return words, [i for i in range(len(group)) if i not in words]


def single_lexemes(query: SearchQuery, as_parameters: bool):
    """True where PostgreSQL reads each of the group's words as one word: `x²y` is one to our
    parser but `'x' <-> 'y'` to PostgreSQL's, a phrase no tier holds (a tier's vector keeps no
    positions), for which the bound does not hold; such a query takes no tier."""
    words, _ = split(query)
    return func.greatest(*(func.numnode(either(query, [i], as_parameters)) for i in words)) <= 1


def counts(query: SearchQuery, above: tuple[float, ...]) -> Select:
    """For postgres.prepare(): whether each of the group's words is one word to PostgreSQL too
    (single_lexemes), and the position in `above` (best first) of the first tier holding
    `rows` of the tenant's documents with one of them (len(above): none); bind parameters
    tenant_id, rows and the terms. A lower tier holds every document of a higher one, so
    every tier after that one is full too, and is not counted: a CASE stops at its first true
    condition, and each count is an InitPlan, run on first use (a common word's tier above
    0.3 holds 13,000 documents at 100,000, 4-7 ms to find)."""
    tenant, rows = bindparam("tenant_id"), bindparam("rows")
    full = [(held(query, x, tenant, rows) >= rows, i) for i, x in enumerate(above)]
    return select(single_lexemes(query, True), case(*full, else_=len(above)))


def held(query: SearchQuery, above: float, tenant_id, rows):
    """How many of the tenant's documents have one of the group's words in the tier, up to
    `rows` (a tier holding fewer is not tried: its page could not fill on the words alone)."""
    words, _ = split(query)
    found = (
        select(DocumentText.document_id)
        .where(
            DocumentText.tenant_id == tenant_id,
            _vector(above).op("@@")(either(query, words, True)),
        )
        .limit(rows)
        .subquery()
    )
    return select(func.count()).select_from(found).scalar_subquery()


def candidates(
    query: SearchQuery, above: float, tenant_id, rank_vector, as_parameters: bool, pairs: bool
):
    """The tier's candidates (module docstring): where clause over document_texts; `pairs`:
    the phrases' lead matches are found through the pairs' index (postgres_pairs)."""
    words, phrases = split(query)
    in_tier = _vector(above).op("@@")(either(query, words, as_parameters))
    if not phrases:
        return in_tier
    lead = postgres_pairs.matching(
        query, phrases, tenant_id, rank_vector, as_parameters=as_parameters, indexed=pairs
    )
    return or_(in_tier, lead)


def ceiling(query: SearchQuery, above: float) -> float:
    """The most a match outside the tier can score, before recency: n·X / (n·X + 1) for the
    group's n words (module docstring). The tier's index adds the same float4 weights as
    ts_rank_cd, so 1e-6 a word covers their rounding apart."""
    words, _ = split(query)
    weight = len(words) * (above + 1e-6)
    return weight / (weight + 1.0)
