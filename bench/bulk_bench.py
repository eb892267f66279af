"""Bulk edit benchmark: 10,000 documents tagged by one `POST /api/v1/documents/bulk`, seconds
end to end (the request's answer to the job's `finishedAt`, read through `GET /jobs/{id}`),
with the progress the API showed on the way.

The corpus: 10,000 documents of one tenant `bench-bulk`, made by the documents service (a
blob, a version, a text row each; about 1.5 kB of text set on each as extraction would, so
that the index refresh a tag change makes has a body to index), loaded once (`--reuse` keeps
it; each run tags them with a new tag). The request is in-process (Flask test client); the
job runs in a real `flask worker --burst` process, as in production.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_bulk \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/bulk_bench.py

    DATABASE_URL=sqlite:////abs/path/instance/bench-bulk.sqlite3 \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/bulk_bench.py
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import time
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

TENANT = "bench-bulk"
SECRET_KEY = "bench-secret-key-not-for-production"  # noqa: S105  (bench only)
PARAGRAPH = (
    "Invoice for consulting services rendered in the third quarter, payable within thirty "
    "days of receipt; late payments accrue interest at the statutory rate. "
) * 10


def _app():
    os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("SECRET_KEY", SECRET_KEY)
    from app import create_app

    return create_app({"DMS_LOG_JSON": False})


def _prepare(app) -> str:
    """Migrate; the tenant (limits raised) and an all-scopes key; its secret."""
    from flask_migrate import upgrade

    from extensions import db
    from models import SCOPES, Tenant
    from models.base import new_id
    from services.accounts import tenants
    from services.core.actors import Actor
    from services.keys import api_keys

    actor = Actor.system("bench")
    with app.app_context():
        upgrade()
        tenant = db.session.get(Tenant, TENANT) or tenants.create_tenant(
            TENANT, "enterprise", actor
        )
        tenants.set_limits(tenant, actor, hourly=100_000_000, burst=10_000_000)
        _key, secret = api_keys.create_key(tenant, f"bench {new_id('run')}", list(SCOPES), actor)
        db.session.commit()
    return secret


def _loaded(app) -> int:
    from sqlalchemy import func, select

    from extensions import db
    from models import Document

    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Document).where(Document.tenant_id == TENANT)
        )


def _load(app, count: int) -> None:
    from sqlalchemy import update

    from extensions import db
    from models import DocumentText
    from services.core import queue, transaction
    from services.core.actors import Actor
    from services.documents import documents, uploads

    actor = Actor.system("bench")
    with app.app_context():
        for number in tqdm(range(count), desc="documents", unit="doc", miniters=500):
            content = f"document {number}\n{PARAGRAPH}".encode()
            with uploads.receive_file(TENANT, io.BytesIO(content), f"d{number}.txt") as received:
                documents.create_document(
                    received,
                    actor,
                    title=f"invoice {number}",
                    tags=["bench"],
                    metadata={},
                    source={"type": "import"},
                )
            if number % 500 == 499 or number == count - 1:
                transaction.commit()
                queue.queue().empty()  # no extraction: the text is set below
        db.session.execute(
            update(DocumentText).where(DocumentText.tenant_id == TENANT).values(text=PARAGRAPH)
        )
        db.session.commit()


def _run(app, secret: str, count: int) -> None:
    from models.base import new_id

    client = app.test_client()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": TENANT}
    tag = new_id("tag")[-10:]
    body = {"filter": {"tag": ["bench"]}, "operations": [{"op": "addTags", "tags": [tag]}]}
    environment = {**os.environ, "FLASK_APP": "app", "DMS_LOG_LEVEL": "WARNING"}
    started = time.monotonic()
    response = client.post("/api/v1/documents/bulk", json=body, headers=headers)
    assert response.status_code == 202, response.get_json()
    job_id = response.get_json()["data"]["id"]
    answered = time.monotonic() - started
    worker = subprocess.Popen(
        [str(ROOT / ".venv/bin/flask"), "worker", "--burst"], cwd=ROOT, env=environment
    )
    seen: list[tuple[float, int, str]] = []
    while True:
        job = client.get(f"/api/v1/jobs/{job_id}", headers=headers).get_json()["data"]
        seen.append((time.monotonic() - started, job["done"], job["status"]))
        if job["finishedAt"]:
            break
        time.sleep(0.5)
    elapsed = time.monotonic() - started
    worker.wait(timeout=600)
    progress = sorted({done for _, done, _ in seen})
    print(f"documents: {job['total']} (expected {count}); {job['status']}, {job['failed']} failed")
    print(f"answered 202 in {answered * 1000:.0f} ms; finished after {elapsed:.1f} s")
    print(
        f"progress seen through GET /jobs ({len(seen)} polls): {len(progress)} distinct "
        f"`done` values, {progress[:3]} … {progress[-3:]}"
    )
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"load average after: {load}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--reuse", action="store_true", help="keep a corpus already loaded")
    args = parser.parse_args()
    app = _app()
    secret = _prepare(app)
    if not (args.reuse and _loaded(app) >= args.documents):
        _load(app, args.documents - _loaded(app))
    _run(app, secret, args.documents)


if __name__ == "__main__":
    main()
