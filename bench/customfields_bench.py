"""The documents list's first page with a customFieldQuery, on 100,000 documents with three
custom field values each (an amount, a date, an integer), in-process (Flask test client,
real database and Redis): p50 and p95 of each query shape, next to the plain list.

Loads its own corpus into the database DATABASE_URL names (a fresh one: it migrates it),
one tenant `bench-cf` created over two years, rows only (no blobs: the list never opens
content), written with executemany in batches of 5,000; then VACUUM ANALYZE (PostgreSQL) or
ANALYZE (SQLite). `--reuse` skips the load when the tenant is there already.

    createdb -h 127.0.0.1 -U postgres dms_bench_cf
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_cf \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/customfields_bench.py

    DATABASE_URL=sqlite:////abs/path/instance/bench-cf.sqlite3 \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/customfields_bench.py
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from generate_documents import doc_id  # noqa: E402
from harness import percentile  # noqa: E402

TENANT = "bench-cf"
BATCH = 5_000
# name -> what it asks; the share of documents each matches is printed beside it.
QUERIES = {
    "plain list (no query)": None,
    "amount range, 10%": ["Amount", "range", ["1000.00", "1999.99"]],
    "amount range, 1%": ["Amount", "range", ["5000.00", "5099.99"]],
    "amount range, 0.1%": ["Amount", "range", ["5000.00", "5009.99"]],
    "amount > 9990 (0.1%, the newest last)": ["Amount", "gt", "9990"],
    "date range, one month (1.4%)": ["Due", "range", ["2023-03-01", "2023-03-31"]],
    "count >= 900 (10%)": ["Count", "gte", 900],
    "amount 10% AND count >= 900": ["AND", [["Amount", "range", ["1000", "1999.99"]],
                                            ["Count", "gte", 900]]],
    "OR of two narrow ranges": ["OR", [["Amount", "range", ["5000", "5009.99"]],
                                       ["Count", "exact", 7]]],
}  # fmt: skip


def _app():
    os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
    from app import create_app

    return create_app({"DMS_LOG_JSON": False})


def _prepare(app) -> tuple[str, dict[str, str]]:
    """Migrate; the tenant (limits raised), its three fields and a key."""
    from flask_migrate import upgrade

    from extensions import db
    from models import CustomField, Tenant
    from models.base import new_id
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.customfields import fields
    from services.keys import api_keys

    actor = Actor.system("bench")
    with app.app_context():
        upgrade()
        tenant = db.session.get(Tenant, TENANT) or tenants.create_tenant(
            TENANT, "enterprise", actor
        )
        tenants.set_limits(tenant, actor, hourly=100_000_000, burst=10_000_000)
        made = {}
        for name, kind in (("Amount", "monetary"), ("Due", "date"), ("Count", "integer")):
            field = db.session.scalar(
                db.select(CustomField).where(
                    CustomField.tenant_id == TENANT, CustomField.name == name
                )
            ) or fields.create_field(TENANT, actor, name=name, data_type=kind)
            made[name] = field.id
        _key, secret = api_keys.create_key(
            tenant, f"bench {new_id('run')}", ["documents:read"], actor
        )
        db.session.commit()
    return secret, made


def _load(app, count: int, field_ids: dict[str, str], seed: int) -> None:
    from sqlalchemy import delete, insert

    from extensions import db
    from models import CustomFieldValue, Document

    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    span = timedelta(days=730).total_seconds()
    first_due = date(2020, 1, 1)
    with app.app_context():
        db.session.execute(delete(Document).where(Document.tenant_id == TENANT))
        db.session.commit()
        documents, values = [], []
        for number in tqdm(range(count), desc="documents", unit="row", miniters=10_000):
            created = now - timedelta(seconds=rng.random() * span)
            ident = doc_id(created, rng)
            documents.append(
                {"id": ident, "tenant_id": TENANT, "title": f"invoice {number}",
                 "filename": f"invoice-{number}.pdf", "content_type": "application/pdf",
                 "size": 1000, "sha256": f"{rng.getrandbits(256):064x}", "status": "active",
                 "meta": {}, "text_status": "done", "text_truncated": False,
                 "current_version": 1, "created_by": "key_bench", "created_at": created,
                 "updated_at": created}
            )  # fmt: skip
            amount = Decimal(rng.randrange(0, 1_000_000)) / 100
            due = first_due + timedelta(days=rng.randrange(2190))
            counted = rng.randrange(1000)
            shown = {"currency": "EUR", "amount": f"{amount:.2f}"}
            for field, row in (
                ("Amount", {"value_json": json.dumps(shown), "value_text": "EUR",
                            "value_num": float(amount)}),
                ("Due", {"value_json": json.dumps(due.isoformat()), "value_date": due}),
                ("Count", {"value_json": str(counted), "value_int": counted}),
            ):  # fmt: skip
                base = {"value_text": None, "value_int": None, "value_num": None,
                        "value_date": None, "value_bool": None}  # fmt: skip
                values.append({**base, "document_id": ident, "field_id": field_ids[field],
                               "tenant_id": TENANT, **row})  # fmt: skip
            if len(documents) == BATCH or number == count - 1:
                db.session.execute(insert(Document), documents)
                db.session.execute(insert(CustomFieldValue), values)
                db.session.commit()
                documents, values = [], []


def _analyze(app) -> None:
    from sqlalchemy import text

    from extensions import db

    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(text("VACUUM ANALYZE documents"))
                conn.execute(text("VACUUM ANALYZE custom_field_values"))
        else:
            with db.engine.begin() as conn:
                conn.execute(text("ANALYZE"))


def _loaded(app) -> int:
    from sqlalchemy import func, select

    from extensions import db
    from models import Document

    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Document).where(Document.tenant_id == TENANT)
        )


def _measure(app, secret: str, requests: int, warm: int) -> None:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
    print(f"{'query':40} {'rows':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for name, query in QUERIES.items():
        params = {"limit": 50}
        if query is not None:
            params["customFieldQuery"] = json.dumps(query)
        times = []
        for number in range(warm + requests):
            started = time.perf_counter()
            response = client.get("/api/v1/documents", query_string=params, headers=headers)
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status_code == 200, response.get_json()
            if number >= warm:
                times.append(elapsed)
        rows = len(response.get_json()["data"])
        print(
            f"{name:40} {rows:>7} {percentile(times, 50):8.1f} {percentile(times, 95):8.1f} "
            f"{percentile(times, 99):8.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--reuse", action="store_true", help="keep a corpus already loaded")
    args = parser.parse_args()
    app = _app()
    secret, field_ids = _prepare(app)
    if not (args.reuse and _loaded(app) >= args.documents):
        started = time.perf_counter()
        _load(app, args.documents, field_ids, args.seed)
        _analyze(app)
        print(f"loaded {args.documents} documents in {time.perf_counter() - started:.0f} s")
    _measure(app, secret, args.requests, args.warm)


if __name__ == "__main__":
    main()
