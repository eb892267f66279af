"""Fixtures for search tests: indexed documents (stored, then extracted by a real RQ worker),
a `find` helper that calls GET /api/v1/search, and a stand-in for pdftoppm."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

import clock
from tests import support
from tests.fixture_files import png_bytes, render_gray


@pytest.fixture
def index_documents(app):
    """Store documents ({"text", "title", "tags", "meta", "filename"}) and index them."""

    def factory(tenant, *specs: dict) -> list[str]:
        return support.index_documents(app, tenant.id, *specs)

    return factory


@pytest.fixture
def sqlite_only(database_url):
    """Skips on PostgreSQL: for the FTS5 index's own rows and segments, which are SQLite's
    (PostgreSQL ranks document_texts' rows; its GIN indexes have no segments)."""
    if not database_url.startswith("sqlite"):
        pytest.skip("the FTS5 index is SQLite's")


@pytest.fixture
def index_of_one_age(index_documents):
    """index_documents with the clock held at one instant: the documents' recency ties, so
    the keyword alone orders them."""

    def factory(tenant, *specs: dict) -> list[str]:
        clock.freeze(clock.now().replace(microsecond=0))
        try:
            return index_documents(tenant, *specs)
        finally:
            clock.reset()

    return factory


@pytest.fixture
def find(client, headers):
    def call(q: str | None = None, expect: int | None = 200, **params):
        if q is not None:
            params["q"] = q
        response = client.get("/api/v1/search", query_string=params, headers=headers)
        if expect is not None:
            assert response.status_code == expect, response.get_json()
        return response

    return call


def ids_of(response) -> list[str]:
    return [hit["document"]["id"] for hit in response.get_json()["data"]]


@pytest.fixture
def fake_pdftoppm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A pdftoppm first on PATH that "renders" every page as a picture of HELLO WORLD and logs
    its arguments, one line per call (the returned file): checks our page loop and the
    Tesseract hand-off even where poppler is absent."""
    page_png = tmp_path / "page.png"
    page_png.write_bytes(png_bytes(*render_gray("HELLO WORLD")))
    log = tmp_path / "pdftoppm.log"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "pdftoppm"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import shutil, sys\n"
        f"open({str(log)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
        f"shutil.copy({str(page_png)!r}, sys.argv[-1] + '.png')\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    return log
