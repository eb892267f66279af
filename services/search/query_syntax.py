"""Owns reading a user's search text into a small, safe query: words, "phrases", `or` and
`-exclusions` (web-search syntax), rendered for each engine from tokens only.

No user syntax ever reaches an engine: PostgreSQL receives a websearch string rebuilt from
the words, SQLite FTS5 a MATCH expression whose every token is double-quoted. Anything else
the user typed (operators, brackets, colons, NUL bytes, stray quotes) only separates words."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from errors import invalid_parameter

MAX_QUERY_CHARS = 500
MAX_TERMS = 32
# Letters and digits (no underscore), as both engines' tokenizers split words.
_WORD = re.compile(r"[^\W_]+")
# A quoted phrase, excluded by a `-` just before it (the closing quote may be missing), or a
# run of non-space characters.
_CHUNK = re.compile(r'(-?)"([^"]*)"?|([^\s"]+)')


@dataclass(frozen=True)
class Term:
    words: tuple[str, ...]

    def websearch(self) -> str:
        """For PostgreSQL's websearch_to_tsquery (the engine combines the terms' queries)."""
        return self.words[0] if len(self.words) == 1 else '"' + " ".join(self.words) + '"'

    def fts5(self) -> str:
        return '"' + " ".join(self.words) + '"'


@dataclass
class SearchQuery:
    """All groups must match; inside a group any term may match; no excluded term may."""

    groups: list[list[Term]] = field(default_factory=list)
    excluded: list[Term] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return [w for group in self.groups for term in group for w in term.words]

    def fts5(self) -> str:
        """An FTS5 MATCH expression built only from quoted tokens and operators."""

        def group_expr(group: list[Term]) -> str:
            if len(group) == 1:
                return group[0].fts5()
            return "(" + " OR ".join(t.fts5() for t in group) + ")"

        expr = " AND ".join(group_expr(g) for g in self.groups)
        for term in self.excluded:
            expr = f"{expr} NOT {term.fts5()}"
        return expr


def parse(text: str) -> SearchQuery:
    """Parse `q`; 400 INVALID_PARAMETER when it has nothing to search for or too much."""
    query = SearchQuery()
    pending_or = False
    for match in _CHUNK.finditer(text.replace("\x00", " ")):
        negated, phrase, bare = bool(match.group(1)), match.group(2), match.group(3)
        if bare is not None:
            if bare.lower() == "or":
                pending_or = bool(query.groups)
                continue
            negated = bare.startswith("-")
        words = tuple(w.lower() for w in _WORD.findall(phrase if phrase is not None else bare))
        if not words:
            continue
        term = Term(words)
        if negated:
            query.excluded.append(term)
        elif pending_or:
            query.groups[-1].append(term)
        else:
            query.groups.append([term])
        pending_or = False
    if not query.groups:
        raise invalid_parameter("q has no words to search for.", "q")
    if len(query.words) + sum(len(t.words) for t in query.excluded) > MAX_TERMS:
        raise invalid_parameter(f"q may hold at most {MAX_TERMS} words.", "q")
    return query
