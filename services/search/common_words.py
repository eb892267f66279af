"""SQLite: each common word's best matches, listed ahead of time, so a search for it ranks
those and the rows written since instead of every match (docs/search.md, "Common words on
SQLite: the listed matches"; migration 0031).

Ranking a common word's page costs bm25 over every match (35,000 at 100,000 documents: 30-80
ms), because FTS5 computes bm25 only when asked and its sorter must see every value. For a
term matched by at least MIN_MATCHES rows, `refresh()` (search's daily job, after the index
merge; `flask documents list-common-words`) keeps its LIST_SIZE best rowids by bm25 in
`document_search_common`. A search for the word ranks the listed rows and the rows written
after the list was made (`document_search_ids.written`, numbered by a trigger from a counter
that only grows), and keeps its
page only when the page is provably the exact one (services/search/engines/sqlite.py):

For one term, FTS5's bm25 is idf * (k1 + 1) * r / (1 + r), with r = f / (k1 * (1 - b + b *
D / avgdl)), f the row's column-weighted count of the term and D its length in tokens. The
idf is the same for every row, so the list holds the rows of the highest r. A row left out
and unchanged since had r ≤ the last listed row's (`ratio_ceiling`) then; its f and D are the
same now and only avgdl moved, so its r now is at most `ratio_ceiling` * max(1, avgdl now /
avgdl then) (r scales by (1 - b + b * D / a) / (1 - b + b * D / a'), between 1 and a' / a),
and its keyword at most `keyword_ceiling()` of the statistics now. FTS5 keeps those (rows,
tokens per column) in its averages record; the search statement reads it, and counts the
term's matches, in its own snapshot, through the SQL function registered on each connection
(app._configure_sqlite), so the bound and the scores it bounds are of the same instant."""

from __future__ import annotations

import functools
import math
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import text

import clock
from extensions import db
from services.core import transaction
from services.search import fts5_rows, indexing

# How many rows a list holds (the same as the bounded path's candidates: at 100,000
# documents a page is proven from them as often, docs/search.md).
LIST_SIZE = 1000
# A term with fewer matches ranks them all quickly enough (5,000: about 5 ms of bm25).
MIN_MATCHES = 5000
# At most this many terms are listed, the most frequent first (2,000 lists: about 40 MB).
MAX_TERMS = 2000
# A list is left aside once this many rows were written after it was made: each would be
# ranked with the listed ones (5,000: a few ms more a search).
STALE_AFTER = 5000
# document_search's tokenizer (migration 0003): words are turned into terms as it does.
TOKENIZE = "porter unicode61 remove_diacritics 2"
SQL_FUNCTION = "common_keyword_ceiling"
# FTS5's bm25 constants (ext/fts5/fts5_aux.c) and its floor for an idf of 0 or less.
_K1, _IDF_FLOOR = 1.2, 1e-6
# The ceilings are raised by this relative margin against floating-point rounding: bm25's
# values are about 1-20, so it adds 1e-6 to 2e-5, which proves a page about as often.
_MARGIN = 1e-6


def match_of(term: str) -> str:
    """The MATCH expression of exactly this term (listed terms are their own term: refresh())."""
    return f'"{term}"'


@functools.lru_cache(maxsize=8192)
def term_of(word: str) -> str | None:
    """The term document_search indexes `word` as (porter: `running` → `run`), from FTS5's own
    tokenizer on a private in-memory database; None when the word is not one token."""
    connection = _tokenizer()
    connection.execute("BEGIN")
    try:
        connection.execute("INSERT INTO words (word) VALUES (?)", (word,))
        terms = [term for (term,) in connection.execute("SELECT term FROM words_vocab")]
    finally:
        connection.execute("ROLLBACK")
    return terms[0] if len(terms) == 1 else None


_tokenizers = threading.local()


def _tokenizer() -> sqlite3.Connection:
    connection = getattr(_tokenizers, "connection", None)
    if connection is None:
        connection = sqlite3.connect(":memory:", isolation_level=None)
        connection.execute(f"CREATE VIRTUAL TABLE words USING fts5(word, tokenize = '{TOKENIZE}')")
        connection.execute("CREATE VIRTUAL TABLE words_vocab USING fts5vocab(words, instance)")
        _tokenizers.connection = connection
    return connection


def is_listed(term: str) -> bool:
    """Whether a search for `term` should try its listed rows first: the term has a list, and
    fewer than STALE_AFTER rows were written after it was made (each is ranked with the
    listed ones: after a large import or reindex the bounded path is cheaper, until the next
    listing)."""
    written_since = db.session.scalar(
        text(
            "SELECT (SELECT count(*) FROM (SELECT 1 FROM document_search_ids"
            " WHERE written > t.listed_through LIMIT :stale))"
            " FROM document_search_common_terms AS t WHERE t.term = :term"
        ),
        {"term": term, "stale": STALE_AFTER},
    )
    return written_since is not None and written_since < STALE_AFTER


def keyword_ceiling(
    averages: bytes | None, hits: int | None, ratio_ceiling: float | None, average_length: float
) -> float | None:
    """The SQL function: the highest keyword (-bm25) a row left out of the term's list and
    unchanged since can score now, from FTS5's averages record and the term's match count
    now, and the list's `ratio_ceiling` and average row length then. None (nothing proven)
    without a list or an averages record."""
    if averages is None or hits is None or ratio_ceiling is None or not average_length:
        return None
    try:
        rows, tokens = _totals(averages)
    except IndexError:
        return None
    if rows <= 0:
        return None
    ratio = ratio_ceiling * max(1.0, (tokens / rows) / average_length)
    return _idf(rows, hits) * (_K1 + 1.0) * ratio / (1.0 + ratio) * (1.0 + _MARGIN)


def _idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else _IDF_FLOOR


def _totals(averages: bytes) -> tuple[int, int]:
    """(rows, tokens) of FTS5's averages record: a varint of the row count, then one of the
    token count per column (fts5_storage.c, fts5StorageLoadTotals)."""
    rows, at = _varint(averages, 0)
    tokens = 0
    while at < len(averages):
        column, at = _varint(averages, at)
        tokens += column
    return rows, tokens


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's varint (FTS5 uses the core's): big-endian groups of 7 bits, each byte's high
    bit saying another follows, the ninth byte whole."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


@dataclass
class Refreshed:
    listed: int  # terms listed (or listed again)
    dropped: int  # terms no longer common: their lists removed


def refresh(progress: Callable[[int], None] | None = None) -> Refreshed:
    """List the best rows of every term matched by MIN_MATCHES rows or more (at most
    MAX_TERMS), a term at a time: one statement reads its list and the statistics (one
    snapshot), one short transaction writes them, so searches and uploads go on meanwhile.
    `progress(n)` after each term. PostgreSQL: nothing to do."""
    if indexing.dialect() == "postgresql":
        return Refreshed(0, 0)
    vocabulary = db.session.execute(
        text(
            "SELECT term FROM document_search_vocab WHERE doc >= :least"
            " ORDER BY doc DESC, term LIMIT :most"
        ),
        {"least": MIN_MATCHES, "most": MAX_TERMS},
    )
    # A term that its own tokenizing changes (porter is not idempotent: rare) has no MATCH
    # of exactly itself: it is left to the bounded path.
    terms = [term for (term,) in vocabulary if term_of(term) == term]
    listed = []
    for done, term in enumerate(terms, start=1):
        if _list(term):
            listed.append(term)
        transaction.commit()  # a term at a time: searches and uploads go on in between
        if progress is not None:
            progress(done)
    known = [
        t for (t,) in db.session.execute(text("SELECT term FROM document_search_common_terms"))
    ]
    dropped = sorted(set(known) - set(listed))
    for term in dropped:
        _drop(term)
        transaction.commit()  # a term at a time, as above
    return Refreshed(len(listed), len(dropped))


def _list(term: str) -> bool:
    found = db.session.execute(
        text(
            f"SELECT rowid, bm25(document_search, {fts5_rows.WEIGHTS_SQL}) AS bm25,"  # noqa: S608 (constant weights; values are bound)
            " (SELECT count FROM document_search_writes WHERE id = 1) AS written,"
            " (SELECT block FROM document_search_data WHERE id = 1) AS averages,"
            " (SELECT count(*) FROM document_search WHERE document_search MATCH :match) AS hits"
            " FROM document_search WHERE document_search MATCH :match ORDER BY bm25 LIMIT :size"
        ),
        {"match": match_of(term), "size": LIST_SIZE},
    ).all()
    if len(found) < LIST_SIZE:  # deleted meanwhile: the bounded path ranks it
        _drop(term)
        return False
    last = found[-1]
    rows, tokens = _totals(last.averages)
    # The last listed row's keyword is idf * (k1 + 1) * r / (1 + r): its r, the most a row
    # left out had.
    keyword, most = -last.bm25, _idf(rows, last.hits) * (_K1 + 1.0)
    if not 0.0 < keyword < most:  # rounding at an idf of about 0: nothing to prove with
        _drop(term)
        return False
    ratio_ceiling = keyword / (most - keyword) * (1.0 + _MARGIN)
    _drop(term)
    db.session.execute(
        text("INSERT INTO document_search_common (term, fts_rowid) VALUES (:term, :rowid)"),
        [{"term": term, "rowid": row.rowid} for row in found],
    )
    db.session.execute(
        text(
            "INSERT INTO document_search_common_terms"
            " (term, listed_through, ratio_ceiling, average_length, listed_at)"
            " VALUES (:term, :written, :ratio, :average, :at)"
        ),
        {
            "term": term,
            "written": last.written,
            "ratio": ratio_ceiling,
            "average": tokens / rows,
            "at": clock.now().isoformat(),
        },
    )
    return True


def _drop(term: str) -> None:
    params = {"term": term}
    db.session.execute(text("DELETE FROM document_search_common WHERE term = :term"), params)
    db.session.execute(text("DELETE FROM document_search_common_terms WHERE term = :term"), params)
