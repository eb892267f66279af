"""Copying the whole database out and back in: SQLite's online backup API, or PostgreSQL's
`pg_dump` / `pg_restore` (custom format) run on an exported snapshot, so the dump and the list
of blobs it references are one consistent moment."""

from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

from flask import current_app
from sqlalchemy import inspect, select, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Engine, make_url

from errors import DomainError
from services.operations.tenant_tables import blob_references

SQLITE_FILE = "database.sqlite3"
POSTGRES_FILE = "database.pgdump"
_TOOL_DIRS = "/usr/lib/postgresql/*/bin"


def dialect(engine: Engine) -> str:
    return engine.dialect.name


def dump_file(engine: Engine) -> str:
    return SQLITE_FILE if dialect(engine) == "sqlite" else POSTGRES_FILE


def dump(engine: Engine, target: Path) -> tuple[list[tuple[str, str]], str | None]:
    """Write the database to `target`; returns the blobs its rows name, (tenant id, sha256),
    and its migration revision, both as of the dumped moment."""
    if dialect(engine) == "sqlite":
        return _dump_sqlite(engine, target)
    return _dump_postgres(engine, target)


def _dump_sqlite(engine: Engine, target: Path) -> tuple[list[tuple[str, str]], str | None]:
    source = sqlite3.connect(_sqlite_path(engine))
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)  # one consistent snapshot, while others keep writing
    finally:
        source.close()
    try:
        refs = copy.execute(_sql(blob_references())).fetchall()
        revision = copy.execute("SELECT version_num FROM alembic_version").fetchone()
    finally:
        copy.close()
    return sorted(set(refs)), revision[0] if revision else None


def _dump_postgres(engine: Engine, target: Path) -> tuple[list[tuple[str, str]], str | None]:
    pg_dump = find_tool("pg_dump")
    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn:
        # The snapshot lives as long as this transaction: pg_dump reads exactly what we read.
        snapshot = conn.scalar(text("SELECT pg_export_snapshot()"))
        refs = sorted({(r.tenant_id, r.sha256) for r in conn.execute(blob_references())})
        revision = conn.scalar(text("SELECT version_num FROM alembic_version"))
        url, env = _libpq(engine)
        _run(
            [pg_dump, "--format=custom", "--no-owner", "--no-privileges",
             f"--snapshot={snapshot}", f"--file={target}", f"--dbname={url}"],
            env,
        )  # fmt: skip
        conn.rollback()
    return refs, revision


def is_empty(engine: Engine) -> bool:
    """No tenant in the database (or no schema at all yet)."""
    if "tenants" not in inspect(engine).get_table_names():
        return True
    with engine.connect() as conn:
        return conn.scalar(select(text("1")).select_from(text("tenants")).limit(1)) is None


def load(engine: Engine, source: Path) -> None:
    """Replace the database's contents with the dump, all or nothing."""
    engine.dispose()  # no pooled connection may keep an old view (or lock) of the database
    if dialect(engine) == "sqlite":
        copy = sqlite3.connect(source)
        live = sqlite3.connect(_sqlite_path(engine))
        try:
            copy.backup(live)  # pages replaced in one write transaction
        finally:
            copy.close()
            live.close()
    else:
        pg_restore = find_tool("pg_restore")
        url, env = _libpq(engine)
        _run(
            [pg_restore, "--clean", "--if-exists", "--no-owner", "--no-privileges",
             "--single-transaction", "--exit-on-error", f"--dbname={url}", str(source)],
            env,
        )  # fmt: skip
    engine.dispose()


def find_tool(name: str) -> str:
    """The PostgreSQL client program: DMS_PG_BIN_DIR if set, else PATH, else the newest
    /usr/lib/postgresql/<version>/bin (Debian installs them there)."""
    configured = current_app.config.get("DMS_PG_BIN_DIR")
    candidates = [str(Path(configured) / name)] if configured else []
    on_path = shutil.which(name)
    if on_path:
        candidates.append(on_path)
    versioned = glob.glob(f"{_TOOL_DIRS}/{name}")
    candidates += sorted(versioned, key=_version_of, reverse=True)
    for candidate in candidates:
        if os.access(candidate, os.X_OK):
            return candidate
    raise DomainError(
        500,
        "INTERNAL_ERROR",
        f"{name} not found: install the PostgreSQL client (e.g. apt-get install "
        f"postgresql-client) or set DMS_PG_BIN_DIR to the directory that holds {name}.",
    )


def _version_of(path: str) -> int:
    match = re.search(r"/postgresql/(\d+)/", path)
    return int(match.group(1)) if match else 0


def _libpq(engine: Engine) -> tuple[str, dict[str, str]]:
    """A libpq URL without the password (which goes in PGPASSWORD, out of `ps`)."""
    url = make_url(engine.url).set(drivername="postgresql")
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return url.set(password=None).render_as_string(hide_password=False), env


def _run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)  # noqa: S603 (our own argument list)
    if done.returncode != 0:
        tool = Path(args[0]).name
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise DomainError(
            500, "INTERNAL_ERROR", f"{tool} failed: {detail[-1] if detail else done.returncode}"
        )


def _sqlite_path(engine: Engine) -> str:
    path = engine.url.database
    if not path or path == ":memory:":
        raise DomainError(400, "INVALID_PARAMETER", "An in-memory SQLite database has no backup.")
    return path


def _sql(stmt) -> str:
    return str(stmt.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}))
