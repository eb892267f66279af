"""Generate document rows for the list benchmark in a separate PostgreSQL database, by COPY.

One tenant with 1,000,000 documents (`bench-big`) plus ten tenants with 100,000 each
(`bench-01` ... `bench-10`), created over two years, with a few tags and metadata. Rows only:
no blobs are written (the list never opens content). Also creates an all-scopes API key for
`bench-big` and writes its secret to bench/out/bench-key.

    .venv/bin/python bench/generate_documents.py \
        --database-url postgresql://postgres@127.0.0.1:5432/dms_bench
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/dms_bench"
BIG_TENANT = "bench-big"
_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
TAGS = ["finance", "legal", "hr", "q1", "q2", "q3", "q4", "draft", "final", "contract"]
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
TYPES = ["application/pdf", "text/plain", "text/markdown", "text/csv", DOCX, "image/png"]
WORDS = ["annual", "report", "invoice", "contract", "policy", "meeting", "notes", "budget"]


def doc_id(at: datetime, rng: random.Random) -> str:
    """The same layout as models.base.new_id, for a given creation time."""
    value = (int(at.timestamp() * 1000) << 80) | rng.getrandbits(80)
    chars = []
    for _ in range(26):
        value, rem = divmod(value, 32)
        chars.append(_CROCKFORD[rem])
    return "doc_" + "".join(reversed(chars))


def ensure_database(url: str) -> None:
    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (parsed.database,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{parsed.database}"')


def prepare_app(url: str) -> str:
    """Migrate, create the tenants (enterprise, limits raised for the benchmark), and a key."""
    os.environ["DATABASE_URL"] = url
    from flask_migrate import upgrade

    from app import create_app
    from extensions import db
    from models import SCOPES, Tenant
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.keys import api_keys

    app = create_app({"DMS_LOG_JSON": False})
    actor = Actor.system("bench")
    with app.app_context():
        upgrade(revision="heads")
        for slug in [BIG_TENANT] + [f"bench-{i:02d}" for i in range(1, 11)]:
            tenant = db.session.get(Tenant, slug) or tenants.create_tenant(
                slug, "enterprise", actor
            )
            tenants.set_limits(tenant, actor, hourly=100_000_000, burst=10_000_000)
        _key, secret = api_keys.create_key(
            db.session.get(Tenant, BIG_TENANT), "bench", list(SCOPES), actor
        )
        db.session.commit()
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench-key").write_text(secret + "\n")
    return secret


def copy_documents(url: str, tenant_id: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    span = timedelta(days=730).total_seconds()
    plain = make_url(url).set(drivername="postgresql").render_as_string(False)
    columns = (
        "id, tenant_id, title, filename, content_type, size, sha256, status, metadata, "
        "text_status, current_version, created_by, created_at, updated_at"
    )
    with psycopg.connect(plain) as conn, conn.cursor() as cur:
        cur.execute("DELETE FROM documents WHERE tenant_id = %s", (tenant_id,))
        tags: list[tuple[str, str, str]] = []
        with cur.copy(f"COPY documents ({columns}) FROM STDIN") as copy:
            for _ in tqdm(range(count), desc=f"{tenant_id} documents", unit="row", miniters=10_000):
                created = now - timedelta(seconds=rng.random() * span)
                ident = doc_id(created, rng)
                title = " ".join(rng.choices(WORDS, k=3)) + f" {rng.randrange(10_000)}"
                status = "active" if rng.random() < 0.9 else rng.choice(["archived", "deleted"])
                meta = json.dumps({"dept": rng.choice(["sales", "ops", "legal"])})
                copy.write_row(
                    (
                        ident,
                        tenant_id,
                        title,
                        title.replace(" ", "_") + ".pdf",
                        rng.choice(TYPES),
                        rng.randrange(1_000, 5_000_000),
                        f"{rng.getrandbits(256):064x}",
                        status,
                        meta,
                        "done",
                        1,
                        "key_bench",
                        created,
                        created,
                    )
                )
                for tag in rng.sample(TAGS, rng.randrange(0, 3)):
                    tags.append((ident, tag, tenant_id))
        with cur.copy("COPY document_tags (document_id, tag, tenant_id) FROM STDIN") as copy:
            for row in tqdm(tags, desc=f"{tenant_id} tags", unit="row", miniters=10_000):
                copy.write_row(row)
        conn.commit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--tenants", type=int, default=10)
    parser.add_argument("--per-tenant", type=int, default=100_000)
    args = parser.parse_args()
    if make_url(args.database_url).database in ("test", "postgres"):
        sys.exit("refusing to use the `test` database; pass a bench database")
    started = time.monotonic()
    ensure_database(args.database_url)
    prepare_app(args.database_url)
    copy_documents(args.database_url, BIG_TENANT, args.big, seed=1)
    for i in range(1, args.tenants + 1):
        copy_documents(args.database_url, f"bench-{i:02d}", args.per_tenant, seed=100 + i)
    plain = make_url(args.database_url).set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE documents")
        conn.execute("VACUUM ANALYZE document_tags")
    print(f"done in {time.monotonic() - started:.0f} s; key in bench/out/bench-key")


if __name__ == "__main__":
    main()
