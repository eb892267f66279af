"""Analytics benchmark: GET /api/v1/analytics/summary (and two year-long usage series) on a
tenant with 1,000,000 documents, through HTTP against the real server (gunicorn).

Rows are bulk-inserted with COPY (documents and their first versions, created over two
years; 10% get a second version) and the aggregates are then built by the same rebuild as
`flask analytics rebuild`, so the figures read are the ones live counting would have kept.
Reports the generation and rebuild times too, and the load average beside each figure.

    .venv/bin/python bench/analytics_bench.py \
        --database-url postgresql://postgres@127.0.0.1:5432/dms_bench_analytics
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from documents_bench import timed_gets
from generate_documents import TYPES, WORDS, doc_id, ensure_database
from harness import free_port, percentile, start_gunicorn
from sqlalchemy.engine import make_url
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TENANT = "bench-analytics"
SECRET_KEY = "bench-secret-key-not-for-production"  # noqa: S105  (bench only)


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def prepare(url: str) -> str:
    """Migrate; create the tenant (limits raised) and an analytics:read key; its secret."""
    os.environ.update({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY})
    from flask_migrate import upgrade

    from app import create_app
    from extensions import db
    from models import Tenant
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.keys import api_keys

    app = create_app({"DMS_LOG_JSON": False})
    actor = Actor.system("bench")
    with app.app_context():
        upgrade(revision="heads")
        tenant = db.session.get(Tenant, TENANT) or tenants.create_tenant(
            TENANT, "enterprise", actor
        )
        tenants.set_limits(tenant, actor, hourly=100_000_000, burst=10_000_000)
        name = f"bench {datetime.now(UTC):%Y%m%d%H%M%S}"
        _key, secret = api_keys.create_key(tenant, name, ["analytics:read"], actor)
        db.session.commit()
    return secret


def copy_rows(url: str, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    span = timedelta(days=730).total_seconds()
    plain = make_url(url).set(drivername="postgresql").render_as_string(False)
    doc_columns = (
        "id, tenant_id, title, filename, content_type, size, sha256, status, metadata, "
        "text_status, current_version, created_by, created_at, updated_at"
    )
    version_columns = (
        "id, tenant_id, document_id, number, filename, content_type, size, sha256, created_by, "
        "created_at"
    )
    with psycopg.connect(plain) as conn, conn.cursor() as cur:
        cur.execute("DELETE FROM documents WHERE tenant_id = %s", (TENANT,))
        versions = []
        with cur.copy(f"COPY documents ({doc_columns}) FROM STDIN") as copy:
            for _ in tqdm(range(count), desc="documents", unit="row", miniters=10_000):
                created = now - timedelta(seconds=rng.random() * span)
                ident = doc_id(created, rng)
                title = " ".join(rng.choices(WORDS, k=3))
                kind, size = rng.choice(TYPES), rng.randrange(1_000, 5_000_000)
                digest = f"{rng.getrandbits(256):064x}"
                status = "active" if rng.random() < 0.9 else rng.choice(["archived", "deleted"])
                second = rng.random() < 0.1
                copy.write_row(
                    (
                        ident,
                        TENANT,
                        title,
                        "f.pdf",
                        kind,
                        size,
                        digest,
                        status,
                        "{}",
                        "done",
                        2 if second else 1,
                        "key_bench",
                        created,
                        created,
                    )
                )
                versions.append((ident, 1, kind, size, digest, created))
                if second:
                    later = created + timedelta(days=rng.random() * 30)
                    versions.append((ident, 2, kind, size, digest, min(later, now)))
        with cur.copy(f"COPY document_versions ({version_columns}) FROM STDIN") as copy:
            for ident, number, kind, size, digest, at in tqdm(
                versions, desc="versions", unit="row", miniters=10_000
            ):
                copy.write_row(
                    (
                        doc_id(at, rng).replace("doc_", "dver_"),
                        TENANT,
                        ident,
                        number,
                        "f.pdf",
                        kind,
                        size,
                        digest,
                        "key_bench",
                        at,
                    )
                )
        conn.commit()
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE documents")
        conn.execute("VACUUM ANALYZE document_versions")


def rebuild(url: str) -> dict:
    os.environ.update({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY})
    from app import create_app
    from services.analytics import rebuild as analytics_rebuild
    from services.core import transaction

    app = create_app({"DMS_LOG_JSON": False})
    with app.app_context():
        total = analytics_rebuild.records_to_read(TENANT)
        with tqdm(total=total, desc="rebuild", unit="row", file=sys.stderr) as bar:
            report = analytics_rebuild.rebuild(TENANT, progress=bar.update)
        transaction.commit()
    return report.as_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="postgresql://postgres@127.0.0.1:5432/dms_bench_analytics"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--documents", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument(
        "--skip-generate", action="store_true", help="reuse the rows and aggregates"
    )
    args = parser.parse_args()
    if make_url(args.database_url).database in ("test", "postgres"):
        sys.exit("refusing to use the `test` database; pass a bench database")
    ensure_database(args.database_url)
    secret = prepare(args.database_url)
    if not args.skip_generate:
        started, load = time.monotonic(), loadavg()
        copy_rows(args.database_url, args.documents)
        print(
            f"generate: {args.documents:,} documents in {time.monotonic() - started:.0f} s "
            f"(load {load} -> {loadavg()})"
        )
        started, load = time.monotonic(), loadavg()
        report = rebuild(args.database_url)
        print(
            f"rebuild: {report} in {time.monotonic() - started:.0f} s (load {load} -> {loadavg()})"
        )
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DMS_REDIS_PREFIX": "dms-bench-analytics",
        "SECRET_KEY": SECRET_KEY,
        "DMS_LOG_JSON": "0",
        "DMS_LOG_LEVEL": "WARNING",
    }
    server = start_gunicorn("wsgi:app", port=port, env=env, options=["--workers", "1"])
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
    try:
        for path in (
            "/api/v1/analytics/summary",
            "/api/v1/analytics/usage?metric=storageBytes&granularity=day&from="
            + (datetime.now(UTC) - timedelta(days=399)).strftime("%Y-%m-%dT00:00:00Z"),
            "/api/v1/analytics/usage?metric=uploads&granularity=hour&from="
            + (datetime.now(UTC) - timedelta(days=29)).strftime("%Y-%m-%dT00:00:00Z"),
        ):
            load = loadavg()
            times = timed_gets(port, path, headers, args.requests)
            print(
                f"GET {path.split('&from')[0]}: p50 {statistics.median(times):.1f} ms, "
                f"p95 {percentile(times, 95):.1f} ms, max {max(times):.1f} ms "
                f"over {len(times)} requests (load {load} -> {loadavg()})"
            )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
