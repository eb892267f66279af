"""Ingestion speed: mixed files (text, Markdown, text PDFs, DOCX, and PNG scans at a 10 % share)
through `flask documents import` and through the API with 4 concurrent clients, on PostgreSQL,
timed until every document is searchable: its text extracted (OCR for the scans) and indexed,
and its thumbnail drawn. (The tenants have no matching rules: with rules, their job follows
each extraction batch and belongs in the same wait.)

    createdb -h 127.0.0.1 -U postgres dms_bench_ingest   # dropped and made again by the script
    .venv/bin/python bench/ingest_bench.py --files 2000 --workers 2 \\
        --database postgresql://postgres@127.0.0.1:5432/dms_bench_ingest \\
        --redis redis://127.0.0.1:6379/12

Each phase gets its own tenant. Real `flask worker` processes (`--workers`) run beside the
import, so the import competes with extraction, OCR and thumbnails for the same cores, as on a
deployment. The report gives, per phase: the import's (or uploads') own rate, the time until
every text-like document was searchable and until every document was, and where the worker
time went (each finished RQ job's run time summed by job function). `--profile` also runs the
folder import under cProfile and prints its top entries (hashing and storing, the rows and
their commits, the follow-up scheduling)."""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import free_port, start_gunicorn  # noqa: E402
from bench.ingest_stack import (  # noqa: E402
    FLASK,
    env_for,
    flask,
    fresh_installation,
    start_workers,
    stop,
)
from bench.mixed_files import make_files  # noqa: E402

TEXT_LIKE = (".txt", ".md", ".pdf", ".docx")


# --- waiting until searchable --------------------------------------------------------------


def searchable_counts(engine, tenant: str) -> tuple[int, int, int, int]:
    """(documents, searchable, text-like documents, text-like searchable)."""
    from sqlalchemy import text

    query = text(
        """
        SELECT d.filename,
               d.text_status <> 'pending'
               AND EXISTS (SELECT 1 FROM document_thumbnails t
                           WHERE t.document_id = d.id AND t.status = 'ready'
                             AND t.version_number = d.current_version)
        FROM documents d WHERE d.tenant_id = :tenant
        """
    )
    with engine.connect() as conn:
        rows = conn.execute(query, {"tenant": tenant}).all()
    text_rows = [ok for name, ok in rows if name.endswith(TEXT_LIKE)]
    return len(rows), sum(ok for _, ok in rows), len(text_rows), sum(text_rows)


def wait_searchable(engine, tenant: str, total: int, text_total: int, started: float, limit):
    text_done = all_done = None
    while time.monotonic() - started < limit:
        n, ok, tn, tok = searchable_counts(engine, tenant)
        now = time.monotonic() - started
        if text_done is None and tn == text_total and tok == text_total:
            text_done = now
        if n == total and ok == total:
            all_done = now
            break
        time.sleep(0.5)
    return text_done, all_done


def job_time(args) -> dict[str, tuple[int, float]]:
    """Finished jobs' count and summed run time by job function, from RQ's registries."""
    from redis import Redis
    from rq import Queue
    from rq.job import Job
    from rq.registry import FinishedJobRegistry

    redis = Redis.from_url(args.redis)
    totals: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for name in ("default", "ocr"):
        queue = Queue(f"bench-ingest:queue:{name}", connection=redis)
        registry = FinishedJobRegistry(queue=queue)
        for job in Job.fetch_many(registry.get_job_ids(), connection=redis):
            if job is None or job.started_at is None or job.ended_at is None:
                continue
            entry = totals[f"{job.func_name.rsplit('.', 1)[-1]} ({name})"]
            entry[0] += 1
            entry[1] += (job.ended_at - job.started_at).total_seconds()
        for job_id in registry.get_job_ids():
            registry.remove(job_id, delete_job=True)
    return {k: (v[0], v[1]) for k, v in totals.items()}


# --- the phases ----------------------------------------------------------------------------


def phase_folder(args, engine, folder: Path, kinds: dict[str, int]) -> dict:
    flask(args, "tenants", "create", "folder", "--plan", "enterprise")
    total = sum(kinds.values())
    text_total = total - kinds.get("png", 0)
    workers = start_workers(args)
    try:
        started = time.monotonic()
        cpu_before = _children_cpu()
        command = [FLASK, "--app", "app", "documents", "import", str(folder), "--tenant", "folder"]
        if args.profile:
            prof = args.workdir / "import.prof"
            prof.unlink(missing_ok=True)
            command = [sys.executable, "-m", "cProfile", "-o", str(prof), *command]
        subprocess.run(command, cwd=ROOT, env=env_for(args), check=True, capture_output=True)
        imported = time.monotonic() - started
        import_cpu = _children_cpu() - cpu_before
        text_done, all_done = wait_searchable(
            engine, "folder", total, text_total, started, args.limit
        )
    finally:
        stop(workers)
    return {
        "phase": "folder import",
        "import_cpu_s": import_cpu,
        "workers_cpu_s": _children_cpu() - cpu_before - import_cpu,
        "import_s": imported,
        "text_done_s": text_done,
        "all_done_s": all_done,
        "text_total": text_total,
        "total": total,
        "jobs": job_time(args),
    }


def _children_cpu() -> float:
    """CPU seconds (user + system) of the waited-for child processes: the import, and the
    workers once stopped (their work horses are waited for by them, so included)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def phase_api(args, engine, folder: Path, kinds: dict[str, int]) -> dict:
    flask(args, "tenants", "create", "api", "--plan", "enterprise")
    flask(args, "tenants", "set-limits", "api", "--hourly", "1000000", "--burst", "100000")
    key = flask(
        args, "keys", "create", "api", "--name", "bench", "--scopes", "documents:write"
    ).stdout.split()[-1]
    headers = {"Authorization": f"Bearer {key}", "X-Tenant-Id": "api"}
    total = sum(kinds.values())
    text_total = total - kinds.get("png", 0)
    port = free_port()
    env = {
        **env_for(args),
        "DMS_RATE_LIMIT_IP_HOURLY": "1000000",
        "DMS_RATE_LIMIT_IP_BURST": "100000",
    }
    server = start_gunicorn(
        "wsgi:app",
        port=port,
        env=env,
        options=["--workers", "2", "--threads", "2"],
        log=(args.workdir / "gunicorn.log").open("a"),
        timeout=60,
    )
    workers = start_workers(args)
    files = sorted(folder.iterdir())
    errors: list[str] = []

    def client(part: list[Path]) -> None:
        import httpx

        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers) as http:
            for path in part:
                response = http.post(
                    "/api/v1/documents", files={"file": (path.name, path.read_bytes())}
                )
                if response.status_code != 201:
                    errors.append(f"{path.name}: {response.status_code} {response.text[:200]}")

    try:
        started = time.monotonic()
        threads = [threading.Thread(target=client, args=(files[i::4],)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        uploaded = time.monotonic() - started
        text_done, all_done = wait_searchable(engine, "api", total, text_total, started, args.limit)
    finally:
        stop(workers)
        server.terminate()
        server.wait(timeout=60)
    return {
        "phase": "API, 4 clients",
        "import_s": uploaded,
        "text_done_s": text_done,
        "all_done_s": all_done,
        "text_total": text_total,
        "total": total,
        "errors": errors[:5],
        "jobs": job_time(args),
    }


def report(result: dict) -> None:
    def rate(n, s):
        return f"{n / s:.1f}/s in {s:.1f} s" if s else "not within the limit"

    print(f"\n== {result['phase']}: {result['total']} files ({result['text_total']} text-like)")
    print(f"  stored (import / uploads alone): {rate(result['total'], result['import_s'])}")
    print(f"  text-like searchable: {rate(result['text_total'], result['text_done_s'])}")
    print(f"  all searchable:       {rate(result['total'], result['all_done_s'])}")
    if "import_cpu_s" in result:
        print(
            f"  CPU per document: the import {result['import_cpu_s'] / result['total'] * 1e3:.1f}"
            f" ms, the workers {result['workers_cpu_s'] / result['total'] * 1e3:.1f} ms"
        )
    for name, (count, seconds) in sorted(result["jobs"].items(), key=lambda kv: -kv[1][1]):
        print(
            f"  worker time {name:40} {count:6} jobs {seconds:8.1f} s"
            f"  {seconds / count * 1e3:7.1f} ms/job"
        )
    if result.get("errors"):
        print("  errors:", *result["errors"], sep="\n    ")


def print_profile(args) -> None:
    import pstats

    prof = args.workdir / "import.prof"
    if prof.exists():
        print("\n== the folder import's own time (cProfile, cumulative)")
        pstats.Stats(str(prof)).sort_stats("cumulative").print_stats(
            r"folder_import|uploads|documents\.py|transaction|extraction_runs|thumbnails|"
            r"storage|fsync|audit_log|commit|flush"
        )


def statements(args, folder: Path, files: int = 100) -> str:
    """SQL statements and commits per document of the folder import (in-process, counted on
    the engine; extraction's scheduling after each commit included): figures the machine's
    load does not change, for comparing two versions of the code."""
    from sqlalchemy import event

    from app import create_app
    from extensions import db

    sample = args.workdir / f"sample-{files}"
    shutil.rmtree(sample, ignore_errors=True)
    sample.mkdir()
    for path in sorted(folder.iterdir())[:files]:
        shutil.copy(path, sample / path.name)
    env = env_for(args)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": args.database.replace(
                "postgresql://", "postgresql+psycopg://", 1
            ),
            "REDIS_URL": args.redis,
            "REDIS_KEY_PREFIX": env["DMS_REDIS_PREFIX"],
            "SECRET_KEY": env["SECRET_KEY"],
            "DMS_STORAGE_DIR": env["DMS_STORAGE_DIR"],
            "DMS_LOG_JSON": False,
        }
    )
    counts = {"statements": 0, "commits": 0}

    def statement(*_):
        counts["statements"] += 1

    def commit(*_):
        counts["commits"] += 1

    runner = app.test_cli_runner()
    slug = f"counted-{int(time.time())}"
    runner.invoke(args=["tenants", "create", slug, "--plan", "enterprise"])
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", statement)
        event.listen(db.engine, "commit", commit)
        try:
            result = runner.invoke(args=["documents", "import", str(sample), "--tenant", slug])
        finally:
            event.remove(db.engine, "before_cursor_execute", statement)
            event.remove(db.engine, "commit", commit)
            db.engine.dispose()
    return (
        f"import of {files} files: {counts['statements'] / files:.1f} SQL statements and "
        f"{counts['commits'] / files:.2f} commits per document ({result.stdout.strip()})"
    )


def reference(engine) -> str:
    """What the machine gives right now, for reading the figures beside other runs: 500
    `SELECT 1` round trips to PostgreSQL, and hashing 128 MiB (one core)."""
    import hashlib

    from sqlalchemy import text

    with engine.connect() as conn:
        started = time.perf_counter()
        for _ in range(500):
            conn.execute(text("SELECT 1"))
        round_trip = (time.perf_counter() - started) / 500 * 1e3
    block = b"x" * (1 << 20)
    started = time.perf_counter()
    digest = hashlib.sha256()
    for _ in range(128):
        digest.update(block)
    hashing = 128 / (time.perf_counter() - started)
    return (
        f"reference: SELECT 1 {round_trip:.2f} ms, sha256 {hashing:.0f} MiB/s, "
        f"load {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", required=True)
    parser.add_argument("--redis", required=True)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--phases", default="folder,api")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--limit", type=float, default=3600, help="seconds to wait at most")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--statements", action="store_true", help="only count the import's statements per file"
    )
    args = parser.parse_args()
    args.workdir = args.workdir or Path(tempfile.mkdtemp(prefix="ingest-bench-"))
    folder = args.workdir / f"files-{args.files}-{args.seed}"
    started = time.monotonic()
    if not folder.exists():
        make_files(folder.with_suffix(".tmp"), args.files, args.seed)
        folder.with_suffix(".tmp").rename(folder)
    kinds: dict[str, int] = defaultdict(int)
    for path in folder.iterdir():
        kinds[path.suffix.lstrip(".")] += 1
    print(
        f"files: {dict(kinds)} ({time.monotonic() - started:.0f} s to make), load {os.getloadavg()}"
    )
    fresh_installation(args)
    from sqlalchemy import create_engine

    engine = create_engine(args.database.replace("postgresql://", "postgresql+psycopg://", 1))
    if args.statements:
        print(statements(args, folder))
        return
    print(reference(engine))
    for phase in args.phases.split(","):
        run = phase_folder if phase == "folder" else phase_api
        report(run(args, engine, folder, kinds))
        print(f"  load average after: {os.getloadavg()}")
        print(reference(engine))
    if args.profile:
        print_profile(args)


if __name__ == "__main__":
    main()
