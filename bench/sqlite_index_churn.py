"""Rewrite N random FTS5 entries of the SQLite benchmark corpus, one transaction each, as a
day of document edits would (services/search/fts5_rows.write: the app's own
statements), then print how many segments the index holds. The texts do not change, so the
search benchmark's answers stay the same; only the index's layout does (docs/search.md,
"Merging SQLite's index").

    DATABASE_URL=sqlite:////abs/path/instance/bench-search.sqlite3 \\
        .venv/bin/python bench/sqlite_index_churn.py --entries 2000"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from sqlalchemy import text
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app
from extensions import db
from services.search import fts5_rows, index_merge, indexing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    app = create_app()
    with app.app_context():
        rowids = list(db.session.scalars(text("SELECT rowid FROM document_search")))
        chosen = random.Random(args.seed).sample(rowids, min(args.entries, len(rowids)))
        started = time.perf_counter()
        for rowid in tqdm(chosen, desc="rewrite", unit="entry", file=sys.stderr, disable=None):
            row = db.session.execute(
                text(
                    "SELECT document_id, tenant_id, title, keywords, body FROM document_search"
                    " WHERE rowid = :rowid"
                ),
                {"rowid": rowid},
            ).one()
            fts5_rows.write([indexing.entry(*row)])
            db.session.commit()
        elapsed = time.perf_counter() - started
        now = index_merge.segments()
        print(f"rewrote {len(chosen)} entries in {elapsed:.1f} s; segments now {now}")


if __name__ == "__main__":
    main()
