"""Generate the search benchmark's corpus: one tenant with N documents of realistic text.

Words follow a Zipf distribution (rank-frequency ~ 1/rank^1.07, as in English prose) over a
vocabulary of common English function words followed by synthetic pronounceable words, so
a few terms are in almost every document and most are rare. One seed gives the same
documents, vocabulary and text on either database (only the random document ids differ).

PostgreSQL: rows are loaded with COPY and the tsvectors are built by
services.search.indexing.rebuild_vectors, the same SQL the app uses; then VACUUM (ANALYZE).

    createdb -h 127.0.0.1 -U postgres dms_bench_search
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_search \\
        .venv/bin/python bench/generate_search_corpus.py --documents 100000

SQLite (the embedded default): rows are inserted with executemany, 5,000 documents per
transaction, and each batch's FTS5 rows of `document_search` are written in the same
transaction by services.search.fts5_rows.write, the statements the app runs.
Use a fresh file and a state file of its own, so the PostgreSQL state is kept:

    DATABASE_URL=sqlite:////abs/path/instance/bench-search.sqlite3 \\
        .venv/bin/python bench/generate_search_corpus.py --documents 100000 \\
        --state instance/search-bench-sqlite.json
    DATABASE_URL=sqlite:////abs/path/instance/bench-search.sqlite3 \\
    REDIS_URL=redis://127.0.0.1:6379/11 DMS_REDIS_PREFIX=bench-sqlite \\
        .venv/bin/python bench/search_bench.py --state instance/search-bench-sqlite.json \\
        --port 5091 --limit 20 --requests 100

Prints nothing secret; writes the tenant, an API key and the vocabulary to --state
(instance/, git-ignored, mode 0600)."""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _words(text: str) -> list[str]:
    return text.split()


FUNCTION_WORDS = _words(
    "the of and to a in is that for it as was with be by on not he this are or his from at "
    "which but have an they you were her she there been one all we their has would when if "
    "so no will more can its about what up out them into only some than other time"
)
ONSETS = _words("b c d f g h j k l m n p r s t v w z br cr dr fl gr pl pr st tr ch sh th")
VOWELS = _words("a e i o u ai ea ou io ee")
CODAS = ["", "", "n", "r", "s", "t", "l", "m", "nd", "st", "rk"]
TAGS = [f"tag-{i}" for i in range(50)]
DEPARTMENTS = ["finance", "legal", "ops", "sales", "hr", "it", "research", "support"]
ZIPF_EXPONENT = 1.07


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words = list(FUNCTION_WORDS)
    seen = set(words)
    while len(words) < size:
        syllables = rng.choice((2, 2, 3, 3, 4))
        word = "".join(
            rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(syllables)
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def zipf_cumulative(size: int) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank**ZIPF_EXPONENT) for rank in range(1, size + 1)))


def draw(words: list[str], cumulative: list[float], k: int, rng: random.Random) -> list[str]:
    total = cumulative[-1]
    return [words[bisect.bisect_left(cumulative, rng.random() * total)] for _ in range(k)]


def document_text(words, cumulative, rng) -> str:
    length = min(4000, max(30, int(rng.lognormvariate(5.6, 0.7))))  # median ~270 words
    tokens = draw(words, cumulative, length, rng)
    sentences, start = [], 0
    while start < len(tokens):
        end = start + rng.randint(8, 22)
        sentence = " ".join(tokens[start:end])
        sentences.append(sentence[:1].upper() + sentence[1:] + ".")
        start = end
    return " ".join(sentences)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--tenant", default="bench-search")
    parser.add_argument("--vocabulary", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--state", default="instance/search-bench.json")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres", "sqlite")):
        sys.exit("DATABASE_URL must point at the PostgreSQL or SQLite benchmark database")

    from flask_migrate import upgrade

    from app import create_app
    from extensions import db
    from models import SCOPES, Plan
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.keys import api_keys
    from services.search import indexing

    rng = random.Random(args.seed)
    words = vocabulary(args.vocabulary, rng)
    cumulative = zipf_cumulative(len(words))
    app = create_app({"DMS_LOG_JSON": False})
    with app.app_context():
        upgrade(revision="heads")
        actor = Actor.cli()
        tenant = tenants.get_tenant(args.tenant)
        if tenant is None:
            tenant = tenants.create_tenant(args.tenant, Plan.ENTERPRISE.value, actor)
        tenants.set_limits(tenant, actor, hourly=10_000_000, burst=1_000_000)
        key, secret = api_keys.create_key(tenant, "search bench", list(SCOPES), actor)
        db.session.commit()
        key_id = key.id
        batches = _batches(tenant.id, args.documents, words, cumulative, rng)
        if indexing.dialect() == "postgresql":
            _load_postgres(db, indexing, tenant.id, args.documents, batches)
        else:
            _load_sqlite(db, indexing, args.documents, batches)
    Path(args.state).write_text(
        json.dumps(
            {
                "tenant": args.tenant,
                "key": secret,
                "keyId": key_id,
                "documents": args.documents,
                "vocabulary": words[:20_000],
            }
        )
    )
    os.chmod(args.state, 0o600)
    print(f"tenant {args.tenant}: {args.documents} documents; state in {args.state}")


BATCH = 5000


def _batches(tenant_id: str, count: int, words, cumulative, rng) -> Iterator[tuple]:
    """(documents, texts, tags) as dicts, BATCH documents at a time: the same draws from
    `rng` in the same order on both databases, so one seed gives one corpus."""
    from models.base import new_id

    start = datetime(2024, 1, 1, tzinfo=UTC)
    for offset in range(0, count, BATCH):
        documents, texts, tags = [], [], []
        for _ in range(min(BATCH, count - offset)):
            doc_id = new_id("doc")
            created = start + timedelta(minutes=rng.randint(0, 1_000_000))
            title = " ".join(draw(words[60:], cumulative[: len(words) - 60], 5, rng))
            text = document_text(words, cumulative, rng)
            documents.append(
                {"id": doc_id, "tenant_id": tenant_id, "title": title.title(),
                 "filename": "doc.txt", "content_type": "text/plain", "size": len(text),
                 "sha256": "0" * 64, "status": "active",
                 "metadata": {"department": rng.choice(DEPARTMENTS)}, "text_status": "done",
                 "current_version": 1, "created_by": "bench", "created_at": created,
                 "updated_at": created}
            )  # fmt: skip
            texts.append(
                {"document_id": doc_id, "tenant_id": tenant_id, "text": text,
                 "version_number": 1, "attempts": 1, "updated_at": created}
            )  # fmt: skip
            tags += [
                {"document_id": doc_id, "tag": t, "tenant_id": tenant_id}
                for t in rng.sample(TAGS, rng.randint(0, 3))
            ]
        yield documents, texts, tags


def _load_postgres(db, indexing, tenant_id: str, count: int, batches) -> None:
    """COPY documents, their tags and their texts, a batch per round trip; then both
    tsvectors with indexing.rebuild_vectors (the app's SQL), then VACUUM (ANALYZE)."""
    raw = db.session.connection().connection.driver_connection
    with tqdm(total=count, desc="documents", unit="doc") as bar:
        for documents, texts, tags in batches:
            with raw.cursor() as cur:
                with cur.copy(
                    "COPY documents (id, tenant_id, title, filename, content_type, size, sha256,"
                    " status, metadata, text_status, current_version, created_by, created_at,"
                    " updated_at) FROM STDIN"
                ) as copy:
                    for d in documents:
                        copy.write_row(
                            (d["id"], d["tenant_id"], d["title"], d["filename"],
                             d["content_type"], d["size"], d["sha256"], d["status"],
                             json.dumps(d["metadata"]), d["text_status"], d["current_version"],
                             d["created_by"], d["created_at"], d["updated_at"])
                        )  # fmt: skip
                with cur.copy("COPY document_tags (document_id, tag, tenant_id) FROM STDIN") as c:
                    for t in tags:
                        c.write_row((t["document_id"], t["tag"], t["tenant_id"]))
                with cur.copy(
                    "COPY document_texts (document_id, tenant_id, text, version_number,"
                    " attempts, updated_at) FROM STDIN"
                ) as copy:
                    for t in texts:
                        copy.write_row(
                            (t["document_id"], t["tenant_id"], t["text"], t["version_number"],
                             t["attempts"], t["updated_at"])
                        )  # fmt: skip
            raw.commit()
            bar.update(len(documents))
    with tqdm(total=count, desc="tsvectors", unit="doc") as bar:
        for done in indexing.rebuild_vectors(tenant_id):
            bar.update(done)
    db.session.commit()
    # Building the vectors rewrote every row: VACUUM (as autovacuum eventually would) so
    # the benchmark does not read 100,000 dead rows and an unset visibility map.
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(db.text("VACUUM (ANALYZE) documents, document_texts"))


def _load_sqlite(db, indexing, count: int, batches) -> None:
    """INSERT documents, tags and texts with executemany, a batch per transaction, and
    their FTS5 rows in the same transaction with fts5_rows.write (the statements
    indexing.refresh runs for each document in the app). No ANALYZE: the app never runs it,
    so the benchmark plans queries as a quick start does. The WAL is checkpointed."""
    from sqlalchemy import insert

    from models import Document, DocumentTag
    from models.search import DocumentText
    from services.search import fts5_rows

    with tqdm(total=count, desc="documents + FTS5", unit="doc") as bar:
        for documents, texts, tags in batches:
            db.session.execute(insert(Document.__table__), documents)
            if tags:
                db.session.execute(insert(DocumentTag.__table__), tags)
            db.session.execute(insert(DocumentText.__table__), texts)
            keywords: dict[str, list[str]] = {d["id"]: [] for d in documents}
            for t in tags:
                keywords[t["document_id"]].append(t["tag"])
            entries = []
            for d, t in zip(documents, texts, strict=True):
                words = " ".join([*keywords[d["id"]], *map(str, d["metadata"].values())])
                entries.append(
                    indexing.entry(d["id"], d["tenant_id"], d["title"], words, t["text"])
                )
            fts5_rows.write(entries)
            db.session.commit()
            bar.update(len(documents))
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(db.text("PRAGMA wal_checkpoint(TRUNCATE)"))


if __name__ == "__main__":
    main()
