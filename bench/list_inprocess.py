"""CPU time of one documents-list request in-process (Flask test client), against a bare
Flask route returning fifty rows: the list's own cost without gunicorn, the client or the
scheduler of a shared machine in the figure. Real PostgreSQL (or SQLite) and Redis; uses a
database prepared by bench/list_bench.py (its tenant `bench-auth` and 300 documents) and an
API key of that tenant.

    export DATABASE_URL=postgresql://postgres@127.0.0.1:5432/dms_bench_list
    export REDIS_URL=redis://127.0.0.1:6379/12
    .venv/bin/python bench/list_inprocess.py "$(flask --app app keys create bench-auth \\
        --name cpu --scopes documents:read | tail -1)"
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    os.environ.setdefault("DMS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("DMS_LOG_JSON", "0")
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from auth_overhead_app import create_bench_app

    app = create_bench_app()
    headers = {"Authorization": f"Bearer {sys.argv[1]}", "X-Tenant-Id": "bench-auth"}
    client = app.test_client()
    for path, sent in (("/api/v1/documents?limit=50", headers), ("/bare/rows", {})):
        for _ in range(50):  # warm-up
            assert client.get(path, headers=sent).status_code == 200
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(500):
            client.get(path, headers=sent)
        print(
            f"{path}: CPU {(time.process_time() - cpu) * 2:.3f} ms/request, "
            f"wall {(time.perf_counter() - wall) * 2:.3f} ms"
        )


if __name__ == "__main__":
    main()
