"""The documents whose lead holds one of a query's phrases, for the bounded rankings (the lead's
matches, postgres.py; a tier's candidates, postgres_tiers.py), found through the adjacent word
pairs of the rank vector (migration 0028; docs/search.md, "Phrases").

dms_lead_pairs(vector) holds `first second` for every two lexemes at adjacent positions. A lead
that holds a phrase holds each of the phrase's own pairs (the same parser places the words of
both, and the phrase's words follow one another), so the documents holding all of a phrase's
pairs include every one whose lead holds the phrase, and far fewer than those holding its
words apart: the phrase is then checked on their rank vectors alone. A phrase without a pair
(one word, or two words around a stop word: `"x the y"` is `x <2> y`) has nothing to look up:
then the phrase is checked on every lead holding its words, as without the index.

The matches are an array of ids, computed once per statement (an InitPlan) and joined by
primary key: an OR of index conditions would have PostgreSQL recheck dms_lead_pairs on rows
the other condition found."""

from __future__ import annotations

from functools import reduce

from sqlalchemy import String, any_, case, cast, literal_column, select
from sqlalchemy.dialects.postgresql import ARRAY, TSVECTOR
from sqlalchemy.sql.functions import func

from models import DocumentText
from services.search.engines.postgres_tsquery import (
    either,
    joined_lexemes,
    lexemes_of,
    term_vector,
)
from services.search.query_syntax import SearchQuery

PAIRS_INDEX = "ix_document_texts_rank_pairs"  # migration 0028


def pairs_expression(column: str) -> str:
    return f"dms_lead_pairs({column})"


_PAIRS = literal_column(pairs_expression("document_texts.rank_vector"), TSVECTOR)


def _pairs_query(query: SearchQuery, numbers: list[int], as_parameters: bool):
    """A tsquery the pairs of a lead holding one of the phrases numbered `numbers` match: each
    phrase's pairs and-ed, the phrases or-ed; NULL when one of them has no pair."""
    queries = []
    for number in numbers:
        term = term_vector(query.groups[0][number], number, as_parameters)
        pair = lexemes_of(func.dms_lead_pairs(term))
        queries.append(
            select(joined_lexemes(pair.c.lexeme, " & ")).select_from(pair).scalar_subquery()
        )
    return reduce(func.tsquery_or, queries)  # NULL if one is NULL


def matching(query: SearchQuery, numbers: list[int], tenant_id, rank_vector, *,
             as_parameters: bool, indexed: bool):  # fmt: skip
    """Where clause over document_texts: the document is one of the tenant's whose rank vector
    matches one of the phrases of the query's one group numbered `numbers` (an array of ids,
    computed once per statement); `indexed`: found through the pairs' index (module
    docstring), where it exists."""
    phrases = either(query, numbers, as_parameters)

    def ids(found):
        return cast(found.scalar_subquery(), ARRAY(String))

    in_lead = select(func.array_agg(DocumentText.document_id)).where(
        DocumentText.tenant_id == tenant_id, rank_vector.op("@@")(phrases)
    )
    if not indexed:
        return DocumentText.document_id == any_(ids(in_lead))
    pairs = _pairs_query(query, numbers, as_parameters)
    holding = (
        select(DocumentText.document_id, rank_vector.label("rank_vector"))
        .where(DocumentText.tenant_id == tenant_id, _PAIRS.op("@@")(pairs))
        .offset(0)  # the phrase is checked after: with both index conditions in one scan, each
        .subquery("holding")  # row's recheck would compute dms_lead_pairs (0.15 ms a row)
    )
    checked = select(func.array_agg(holding.c.document_id)).where(
        holding.c.rank_vector.op("@@")(phrases)
    )
    # A serial plan evaluates an InitPlan on first use, so only the branch taken; a parallel
    # one evaluates them all up front, to hand them to its workers. The scan without pairs is
    # gated on their absence (a one-time filter), so there it costs nothing, where it would
    # take 9 ms of a 46 ms phrase statement at 100,000 documents.
    in_lead = in_lead.where(pairs.is_(None))
    found = case((pairs.is_(None), ids(in_lead)), else_=ids(checked))
    # = ANY(array): `IN (subquery)` would hide the ids from the primary key's index
    return DocumentText.document_id == any_(found)
