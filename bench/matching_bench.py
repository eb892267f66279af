"""Matching benchmark, two parts.

`rules`: what 100 enabled rules cost per document on top of its extraction. A tenant with 100
rules (40 any, 20 all, 15 exact, 10 regex, 10 fuzzy, 5 on the title or file name; a few match
each document and tag it), and `--documents` text documents of about 3 kB stored through the
documents service. Each document's extraction job (`jobs.search.extract_document`, in-process,
its own transaction) is timed, then the rules job (`jobs.matching.run_rules`, the same), so
the ratio is of the same run on the same busy machine. Also timed: the matching alone (the
100 rules' algorithms over the document's text, no database), which is what grows with rules.

`train`: the classifier trained on `--train-documents` synthetic documents (40 topics, each
document one or two topic tags and about 120 words), inserted with SQL in batches, then
`services/matching/training.train` with its progress bar: seconds, peak RSS of the process
(`ru_maxrss`) before and after training, and the top suggestion's precision on 1,000 new
documents of known topic.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/matching_bench.py rules
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/matching_bench.py train

DATABASE_URL defaults to a fresh SQLite file under instance/ (removed first; `--reuse`
keeps the training corpus of a last run)."""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

SECRET_KEY = "bench-secret-key-not-for-production"  # noqa: S105  (bench only)
WORDS = [
    "report",
    "meeting",
    "project",
    "budget",
    "review",
    "quarter",
    "customer",
    "order",
    "delivery",
    "service",
    "account",
    "policy",
    "schedule",
    "office",
    "manager",
    "team",
    "plan",
    "update",
    "request",
    "approval",
    "summary",
    "notice",
    "record",
    "statement",
    "letter",
    "agenda",
    "minutes",
    "draft",
    "final",
    "version",
    "copy",
    "file",
    "number",
    "date",
    "period",
    "year",
]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _app(database_url: str):
    os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("SECRET_KEY", SECRET_KEY)
    os.environ["DATABASE_URL"] = database_url
    from app import create_app

    return create_app({"DMS_LOG_JSON": False, "SQLALCHEMY_DATABASE_URI": database_url})


def _prepare(app, slug: str) -> str:
    from flask_migrate import upgrade

    from extensions import db
    from models import Tenant
    from services.accounts import tenants
    from services.core.actors import Actor

    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        actor = Actor.system("bench")
        tenant = db.session.get(Tenant, slug) or tenants.create_tenant(slug, "enterprise", actor)
        tenants.set_limits(tenant, actor, hourly=100_000_000, burst=10_000_000)
        db.session.commit()
        return tenant.id


def _database_url(name: str, reuse: bool = False) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        return url
    path = ROOT / "instance" / f"{name}.sqlite3"
    path.parent.mkdir(exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        if not reuse:
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


# --- rules -------------------------------------------------------------------------------------


def _rules(rng: random.Random) -> list[dict]:
    """100 rules; a handful match each document (the ones naming `invoice`, `acme`)."""
    made = []
    kinds = ["any"] * 40 + ["all"] * 20 + ["exact"] * 15 + ["regex"] * 10 + ["fuzzy"] * 10
    kinds += ["title", "filename"] * 2 + ["any"]
    for n, kind in enumerate(kinds):
        word, other = rng.choice(WORDS) + f"x{n}", rng.choice(WORDS) + f"y{n}"
        where = "content"
        if kind == "any":
            pattern = f'{word} {other} "{other} {word}"' if n else "invoice receipt"
        elif kind == "all":
            pattern = f"{word} {other}" if n != 40 else "invoice total"
        elif kind == "exact":
            pattern = f"{word} {other}" if n != 60 else "total due"
        elif kind == "regex":
            pattern = rf"\b{word}-\d{{4,6}}\b" if n != 75 else r"INV-\d{5}"
        elif kind == "fuzzy":
            pattern = f"{word} corporation" if n != 85 else "Acme Corporation"
        else:
            pattern, where, kind = word, kind, "any"
        made.append(
            {"name": f"rule {n}", "order": n,
             "match": {"algorithm": kind, "pattern": pattern, "in": where},
             "actions": {"addTags": [f"t{n % 7}"]}}
        )  # fmt: skip
    return made


def _document_text(rng: random.Random) -> str:
    body = " ".join(rng.choice(WORDS) for _ in range(400))
    return f"Invoice INV-{rng.randint(10000, 99999)} from ACME Corporaton. {body} total due"


def bench_rules(args) -> None:
    from extensions import db
    from jobs import matching as matching_jobs
    from jobs import search as search_jobs
    from models import Document
    from models.matching import MatchingRule
    from services.core import queue, transaction
    from services.core.actors import Actor
    from services.documents import documents, uploads
    from services.matching import engine
    from services.matching import rules as rule_service
    from services.matching.wire import MatchingRuleCreate

    app = _app(_database_url("bench-matching-rules"))
    tenant_id = _prepare(app, "bench-matching")
    rng = random.Random(11)
    with app.app_context():
        for spec in _rules(rng):
            body = MatchingRuleCreate.model_validate(spec)
            rule_service.create_rule(
                tenant_id, Actor.system("bench"), name=body.name, enabled=True,
                order=body.order, match=body.match, actions=body.actions,
            )  # fmt: skip
        db.session.commit()
        ids = []
        for n in range(args.documents):
            text = _document_text(rng).encode()
            with uploads.receive_file(tenant_id, io.BytesIO(text), f"scan_{n}.txt") as received:
                document = documents.create_document(
                    received, Actor.system("bench"), title=f"Statement {n}", tags=[],
                    metadata={}, source={"type": "api"},
                )  # fmt: skip
            transaction.commit()
            ids.append(document.id)
        queue.queue().empty()
        extraction, rules_job, matching_only, matching_cpu = [], [], [], []
        for document_id in ids:
            started = time.perf_counter()
            search_jobs.extract_document(tenant_id, document_id, 1)
            extraction.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            applied = matching_jobs.run_rules(tenant_id, document_id)
            rules_job.append((time.perf_counter() - started) * 1000)
            assert applied, "the bench's rules should match each document"
        queue.queue().empty()
        loaded = list(db.session.scalars(
            MatchingRule.query_for_tenant(tenant_id).order_by(MatchingRule.order)
        ))  # fmt: skip
        texts = [_document_text(rng) for _ in range(args.documents)]
        for text in texts:
            started, cpu = time.perf_counter(), time.thread_time()
            prepared = engine.Text(text)
            for rule in loaded:
                if rule.match_in == "content":
                    engine.matches(rule.algorithm, rule.pattern, rule.case_sensitive, prepared)
            matching_only.append((time.perf_counter() - started) * 1000)
            matching_cpu.append((time.thread_time() - cpu) * 1000)
        tags = db.session.get(Document, ids[0]).tag_names
    q = statistics.quantiles
    print(f"documents {args.documents}, rules {len(loaded)}, first document's tags {tags}")
    for name, values in (("extraction job", extraction), ("rules job (100 rules)", rules_job),
                         ("matching alone", matching_only),
                         ("matching alone, CPU", matching_cpu)):  # fmt: skip
        p50, p95, mean = statistics.median(values), q(values, n=20)[18], statistics.fmean(values)
        print(f"{name:24} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  mean {mean:7.2f} ms")
    print(
        f"rules job / extraction job (medians): "
        f"{statistics.median(rules_job) / statistics.median(extraction):.2f}"
    )


# --- training ----------------------------------------------------------------------------------

TOPICS = 40


def _topic_words(topic: int) -> list[str]:
    rng = random.Random(1000 + topic)
    return [f"w{topic}_{rng.randint(0, 400)}" for _ in range(25)]


def _synthetic(rng: random.Random, topics: list[int]) -> str:
    vocab = [w for t in topics for w in _topic_words(t)]
    return " ".join(rng.choice(vocab) if rng.random() < 0.4 else rng.choice(WORDS)
                    for _ in range(120))  # fmt: skip


def _insert_corpus(app, tenant_id: str, count: int) -> None:
    from sqlalchemy import insert

    import clock
    from extensions import db
    from models import Document, DocumentTag
    from models.base import new_id
    from models.search import DocumentText

    rng = random.Random(5)
    now = clock.now()
    with app.app_context():
        for start in range(0, count, 5000):
            docs, texts, tags = [], [], []
            for _ in range(min(5000, count - start)):
                topics = rng.sample(range(TOPICS), rng.choice((1, 1, 2)))
                document_id = new_id("doc")
                docs.append({
                    "id": document_id, "tenant_id": tenant_id, "title": "doc",
                    "filename": "doc.txt", "content_type": "text/plain", "size": 1,
                    "sha256": "0" * 64, "status": "active", "meta": {}, "text_status": "done",
                    "text_truncated": False, "current_version": 1, "source": {"type": "api"},
                    "created_at": now, "updated_at": now,
                })  # fmt: skip
                texts.append({"document_id": document_id, "tenant_id": tenant_id,
                              "text": _synthetic(rng, topics), "attempts": 1,
                              "updated_at": now})  # fmt: skip
                tags += [{"document_id": document_id, "tenant_id": tenant_id, "tag": f"topic{t}"}
                         for t in topics]  # fmt: skip
            db.session.execute(insert(Document), docs)
            db.session.execute(insert(DocumentText), texts)
            db.session.execute(insert(DocumentTag), tags)
            db.session.commit()


def bench_train(args) -> None:
    from extensions import db
    from models import Document
    from services.matching import predictions, training

    app = _app(_database_url("bench-matching-train", reuse=args.reuse))
    tenant_id = _prepare(app, "bench-classifier")
    with app.app_context():
        have = db.session.query(Document).filter(Document.tenant_id == tenant_id).count()
    if have < args.train_documents:
        started = time.perf_counter()
        _insert_corpus(app, tenant_id, args.train_documents - have)
        print(f"inserted {args.train_documents - have:,} documents in "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    before = _rss_mb()
    with app.app_context():
        started = time.perf_counter()
        row = training.train(tenant_id, progress=True)
        db.session.commit()
        seconds = time.perf_counter() - started
        after = _rss_mb()
        size = len(row.model)
        print(f"trained on {row.documents:,} documents, {len(row.tags)} tags, in {seconds:.1f} s; "
              f"peak RSS {before:.0f} MB before training, {after:.0f} MB after; "
              f"model {size / 1e6:.1f} MB")  # fmt: skip
        rng = random.Random(99)
        hits = 0
        model = predictions.model_for(tenant_id)
        for _ in range(1000):
            topics = rng.sample(range(TOPICS), 1)
            found = model.scores("doc", _synthetic(rng, topics))
            best = max(found, key=found.get)
            hits += best == f"topic{topics[0]}"
        print(f"top suggestion right on {hits / 10:.1f}% of 1,000 new documents")
        assert db.session.query(Document).count() >= args.train_documents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("rules", "train"))
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--train-documents", type=int, default=100_000)
    parser.add_argument("--reuse", action="store_true", help="keep the corpus of a last run")
    args = parser.parse_args()
    (bench_rules if args.part == "rules" else bench_train)(args)


if __name__ == "__main__":
    main()
