"""Merging SQLite's full-text index into one segment (docs/search.md, "Merging SQLite's index").

FTS5 writes each transaction's index entries as a new segment (a b-tree of its own) and
merges segments level by level as they pile up (its `automerge`), so an index written a
document at a time holds about 20 segments. A query looks every term it names up in every
segment, and highlight() and snippet() find each hit of a page again by rowid, once per term
and segment: a page of highlights costs about as many times more as there are segments.

`merge()` runs FTS5's 'merge' command in steps of STEP_PAGES pages, each step its own short
transaction, so an upload waits for one step (about 30 ms), never for the whole merge (7.5 s
at 100,000 documents). As FTS5's documentation says ("The 'merge' command"): the first step asks
for a negative number of pages, which makes every segment of any level eligible; the next ones
a positive number, which finishes that merge even when uploads add segments meanwhile; a step
that changed fewer than 2 rows (sqlite3's total_changes()) found nothing left to merge.
Search's daily job (jobs/search.py) runs it; `flask documents merge-index` runs it now.

Between two merges, writes add segments again (21 after 2,000 documents re-indexed one at a
time: highlights 9.2 ms). `tidy()`, run by the recovery job every 5 minutes, merges only the
segments that share a level, which leaves a few (3: 3.8 ms) for a fraction of the work (0.5 s
there). PostgreSQL's GIN indexes have no segments to merge: there both do nothing."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import text

from extensions import db
from services.core import transaction
from services.search import indexing

# About 2 MB of index pages written per step: 30 ms at 100,000 documents (1,000 pages: 63 ms).
STEP_PAGES = 500


def segments() -> int:
    """How many segments the FTS5 index holds (SQLite; 0 on PostgreSQL): the distinct segids
    of its %_idx shadow table, which holds a row per segment and leaf page."""
    if indexing.dialect() == "postgresql":
        return 0
    return db.session.scalar(text("SELECT count(DISTINCT segid) FROM document_search_idx"))


def merge(step_pages: int = STEP_PAGES, progress: Callable[[int], None] | None = None) -> int:
    """Merge the FTS5 index's segments into one, committing after each step; how many steps
    merged something (0: already one segment, or PostgreSQL). `progress(steps)` after each."""
    return _steps(-step_pages, step_pages, progress)


def tidy(step_pages: int = STEP_PAGES) -> int:
    """Merge the segments that share a level, leaving one a level; how many steps merged
    something. Cheap: the writes since the last merge are small segments, and a level holding
    one segment (the daily merge's) is left as it is. FTS5 merges a level only once it holds
    `usermerge` segments: 2 since migration 0030 (FTS5's default, 4, would leave three)."""
    return _steps(step_pages, step_pages, None)


def _steps(first_pages: int, pages: int, progress: Callable[[int], None] | None) -> int:
    """FTS5's 'merge' with `first_pages`, then `pages`, a transaction each, until a step
    changed fewer than 2 rows (it found nothing to merge)."""
    if indexing.dialect() == "postgresql":
        return 0
    steps, asked = 0, first_pages
    while True:
        before = db.session.scalar(text("SELECT total_changes()"))
        db.session.execute(
            text("INSERT INTO document_search (document_search, rank) VALUES ('merge', :pages)"),
            {"pages": asked},
        )
        merged = db.session.scalar(text("SELECT total_changes()")) - before >= 2
        transaction.commit()  # a step at a time: the index's write lock is held for one step
        if not merged:
            return steps
        steps, asked = steps + 1, pages
        if progress is not None:
            progress(steps)
