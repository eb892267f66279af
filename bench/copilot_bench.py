"""Copilot answer latency with the extractive generator on the search corpus.

Uses the corpus of bench/generate_search_corpus.py (one tenant, N documents of Zipf text),
splits its texts into passages if that was not done yet, then asks questions through the API
in-process (POST /api/v1/copilot/conversations: plan check, quota claim, search, passages,
BM25, the extractive answer, storing the conversation) and reports p50/p95.

Each question is made from one random document: three words of one of its sentences that are
not among the 200 most frequent words (so the answer is known to sit in that document); the
share of answers citing that document is printed beside the latency.

    createdb -h 127.0.0.1 -U postgres -T dms_bench_search dms_bench_copilot
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_copilot \\
        .venv/bin/python bench/copilot_bench.py --requests 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenant", default="bench-search")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--candidates", type=int, default=None, help="documents search hands to retrieval"
    )
    args = parser.parse_args()
    if args.candidates:
        from services.copilot import retrieval

        retrieval.CANDIDATE_DOCUMENTS = args.candidates

    from flask_migrate import upgrade
    from sqlalchemy import func, select

    from app import create_app
    from extensions import db
    from models import SCOPES, DocumentText, Passage, Tenant
    from services.copilot import quota
    from services.core.actors import Actor
    from services.keys import api_keys
    from services.search import passages

    app = create_app({"DMS_LOG_JSON": False, "DMS_LOG_LEVEL": "WARNING"})
    with app.app_context():
        upgrade(revision="heads")
        tenant = db.session.get(Tenant, args.tenant)
        total = db.session.scalar(
            select(func.count())
            .select_from(DocumentText)
            .where(DocumentText.tenant_id == tenant.id)
        )
        split = db.session.scalar(
            select(func.count(func.distinct(Passage.document_id))).where(
                Passage.tenant_id == tenant.id
            )
        )
        if split < total:
            with tqdm(total=total, desc="passages", unit="doc") as bar:
                for done in passages.rebuild(tenant.id, batch_size=2000):
                    bar.update(done)
        tenant.hourly_limit, tenant.burst_limit = 10_000_000, 1_000_000
        quota.set_tenant_quota(tenant, Actor.cli(), quota.MAX_MONTHLY_MESSAGES)
        _, secret = api_keys.create_key(tenant, f"copilot bench {time.time_ns()}", list(SCOPES),
                                        Actor.cli())  # fmt: skip
        db.session.commit()
        questions = _questions(db, tenant.id, args.requests + args.warmup, args.seed)

    client = app.test_client()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": args.tenant}
    timings, found = [], 0
    for index, (document_id, question) in enumerate(tqdm(questions, desc="questions")):
        started = time.perf_counter()
        response = client.post(
            "/api/v1/copilot/conversations", json={"message": question}, headers=headers
        )
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 201, response.get_json()
        if index < args.warmup:
            continue
        timings.append(elapsed)
        citations = response.get_json()["data"]["messages"][-1]["citations"]
        found += any(c["documentId"] == document_id for c in citations)
    timings.sort()
    p95 = timings[max(0, int(len(timings) * 0.95) - 1)]
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"answers: {len(timings)}  p50 {statistics.median(timings):.1f} ms  p95 {p95:.1f} ms")
    print(f"source document cited: {found}/{len(timings)}  load average {' '.join(load)}")


def _questions(db, tenant_id: str, count: int, seed: int) -> list[tuple[str, str]]:
    from sqlalchemy import select

    from models import DocumentText
    from services.copilot import terms

    rng = random.Random(seed)
    ids = list(db.session.scalars(select(DocumentText.document_id).where(
        DocumentText.tenant_id == tenant_id).order_by(DocumentText.document_id)))  # fmt: skip
    sample = rng.sample(ids, min(len(ids), 2000))
    texts = dict(db.session.execute(
        select(DocumentText.document_id, DocumentText.text).where(
            DocumentText.document_id.in_(sample))).all())  # fmt: skip
    frequency = Counter(w for text in texts.values() for w in set(terms.words(text)))
    common = {w for w, _ in frequency.most_common(200)}
    out = []
    for document_id in sample:
        sentences = [s for s in texts[document_id].split(". ") if s]
        words = [w for w in terms.words(rng.choice(sentences)) if w not in common]
        if len(words) >= 3:
            picked = rng.sample(words, 3)
            out.append((document_id, f"What does the document say about {' '.join(picked)}?"))
        if len(out) == count:
            break
    return out


if __name__ == "__main__":
    main()
