"""The PostgreSQL tsquery of a parsed search query, shared by the ranking (postgres.py), the
snippets (postgres_highlights.py) and the knowledge graph's phrase lookup (phrases.py)."""

from __future__ import annotations

from functools import reduce
from itertools import count

from sqlalchemy import (
    String,
    bindparam,
    case,
    cast,
    literal,
    literal_column,
    null,
    select,
)
from sqlalchemy.dialects.postgresql import TSQUERY
from sqlalchemy.sql.functions import Function, func

from services.search.indexing import PG_CONFIG
from services.search.query_syntax import SearchQuery, Term


def tsquery(query: SearchQuery, *, as_parameters: bool = False):
    """The query's tsquery, combined in SQL from one websearch_to_tsquery per term: every
    group must match, any term of a group may, no excluded term may (docs/search.md).
    (websearch_to_tsquery of the whole text reads `"a b" or c -d` as `a <-> b | (c & !d)`:
    the exclusion would bind to the last word only.) Groups of English stop words only match
    nothing, exclusions or not (docs/search.md). `as_parameters`: each term is the bind
    parameter term_<i> (term_values()), so the expression depends on the query's shape only."""
    return tsqueries(query, as_parameters)[0]


def term_query(term: Term, number: int, as_parameters: bool) -> Function:
    """websearch_to_tsquery of one term: of the bind parameter term_<number> (term_values()
    numbers the groups' terms, then the excluded ones), or of the term's words."""
    config = literal_column(f"'{PG_CONFIG}'::regconfig")
    if as_parameters:
        return func.websearch_to_tsquery(config, bindparam(f"term_{number}", String))
    return func.websearch_to_tsquery(config, literal(term.websearch()))


def term_vector(term: Term, number: int, as_parameters: bool) -> Function:
    """to_tsvector of the same words term_query() reads: the lexemes at their positions."""
    config = literal_column(f"'{PG_CONFIG}'::regconfig")
    words = bindparam(f"term_{number}", String) if as_parameters else term.websearch()
    return func.to_tsvector(config, words)


def either(query: SearchQuery, numbers: list[int], as_parameters: bool) -> Function:
    """The tsquery of the terms of the query's first group numbered `numbers`, or-ed."""
    terms = [term_query(query.groups[0][i], i, as_parameters) for i in numbers]
    return reduce(func.tsquery_or, terms)


def tsqueries(query: SearchQuery, as_parameters: bool) -> tuple:
    """The query's tsquery, and that of its groups alone (without the exclusions)."""
    numbered = count()

    def term(t) -> Function:
        return term_query(t, next(numbered), as_parameters)

    groups = None
    for group in query.groups:
        either = reduce(func.tsquery_or, (term(t) for t in group))
        groups = either if groups is None else func.tsquery_and(groups, either)
    combined = groups
    for excluded in query.excluded:
        combined = func.tsquery_and(combined, func.tsquery_not(term(excluded)))
    if query.excluded:  # groups of stop words only are empty, and `'' & !d` is `!d`: nothing
        combined = case((func.numnode(groups) == 0, null()), else_=combined)
    return combined, groups


def term_lexemes(query: SearchQuery, numbers: range, as_parameters: bool):
    """The lexemes PostgreSQL makes of the terms numbered `numbers` (as tsqueries() numbers
    them: term_values()), one row each, from to_tsvector of the same words websearch_to_tsquery
    reads: a table-valued `lexeme`, computed once per statement where it is a scalar
    subquery's FROM."""
    terms = _terms(query)
    vectors = [term_vector(terms[i], i, as_parameters) for i in numbers]
    return lexemes_of(reduce(lambda a, b: a.op("||")(b), vectors))


def lexemes_of(vector):
    """The lexemes of a tsvector expression, one row each: a table-valued `lexeme`."""
    return func.unnest(func.tsvector_to_array(vector)).table_valued("lexeme").render_derived()


def any_excluded_word(query: SearchQuery, as_parameters: bool):
    """A tsquery of every word of the excluded terms, or-ed (`d | e | f` for `-d -"e f"`): a
    vector it does not match holds none of them. NULL when they are all stop words. Each
    lexeme is quoted for tsquery's input, so it is taken as it is."""
    first = sum(len(g) for g in query.groups)  # excluded terms are numbered after the groups
    lexeme = term_lexemes(query, range(first, first + len(query.excluded)), as_parameters)
    return select(joined_lexemes(lexeme.c.lexeme, " | ")).select_from(lexeme).scalar_subquery()


def joined_lexemes(lexeme, operator: str):
    """The tsquery of the lexemes in column `lexeme` joined by `operator` (" | " or " & "),
    each quoted for tsquery's input, so it is taken as it is; NULL when there is none."""
    escaped = func.replace(func.replace(lexeme, "\\", "\\\\"), "'", "''")
    return cast(func.string_agg(func.concat("'", escaped, "'"), operator), TSQUERY)


def terms_shape(query: SearchQuery) -> tuple:
    """What a tsquery built with bind parameters depends on: how many terms each group has and
    how many are excluded (the words themselves are bind values)."""
    return tuple(len(g) for g in query.groups), len(query.excluded)


def term_values(query: SearchQuery) -> dict[str, str]:
    """The bind values of a tsquery built with `as_parameters=True`."""
    return {f"term_{i}": t.websearch() for i, t in enumerate(_terms(query))}


def _terms(query: SearchQuery) -> list[Term]:
    """The query's terms in the order tsquery() numbers them."""
    return [t for group in query.groups for t in group] + list(query.excluded)
