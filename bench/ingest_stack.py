"""The ingestion bench's installation: a fresh database migrated for each run, the
settings every process of it gets, and real `flask worker` processes started and stopped."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLASK = str(ROOT / ".venv" / "bin" / "flask")


def env_for(args) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": args.database,
        "REDIS_URL": args.redis,
        "DMS_REDIS_PREFIX": "bench-ingest",
        "SECRET_KEY": "bench-secret-key-not-for-production",
        "DMS_STORAGE_DIR": str(args.workdir / "storage"),
        "DMS_ENV_FILE": os.devnull,
        "DMS_LOG_JSON": "0",
        "DMS_LOG_LEVEL": "WARNING",
    }


def flask(args, *command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [FLASK, "--app", "app", *command],
        cwd=ROOT,
        env=env_for(args),
        check=True,
        capture_output=True,
        text=True,
        **kwargs,
    )


def fresh_installation(args) -> None:
    import psycopg
    from redis import Redis
    from sqlalchemy.engine import make_url

    url = make_url(args.database)
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{url.database}"')
    redis = Redis.from_url(args.redis)
    for key in redis.scan_iter(match="*bench-ingest*", count=1000):
        redis.delete(key)
    shutil.rmtree(args.workdir / "storage", ignore_errors=True)
    flask(args, "db", "upgrade")


def start_workers(args) -> list[subprocess.Popen]:
    log = (args.workdir / "workers.log").open("a")
    return [
        subprocess.Popen(
            [FLASK, "--app", "app", "worker"],
            cwd=ROOT,
            env=env_for(args),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for _ in range(args.workers)
    ]


def stop(processes: list[subprocess.Popen]) -> None:
    for proc in processes:
        proc.terminate()
    for proc in processes:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
