"""Statements built once per shape of query and reused with bind parameters (the page's in
search.py; the PostgreSQL engine's settings and snippets): building and compiling one costs
more Python than the rest of a search. Each kind keeps its own dict, emptied when it holds
MAX_SHAPES, so queries of many shapes never grow it without bound."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from sqlalchemy import Select

MAX_SHAPES = 256


def built(statements: dict[Hashable, Select], key: Hashable, build: Callable[[], Select]) -> Select:
    """The statement of `key`, built by `build` the first time."""
    statement = statements.get(key)
    if statement is None:
        if len(statements) >= MAX_SHAPES:
            statements.clear()
        statement = statements[key] = build()
    return statement
