"""The SDK an integrator generates: openapi-python-client over the document a live server
serves builds a client that uploads (with an Idempotency-Key), lists with a filter and follows
nextCursor, downloads, searches, and reads an error from the envelope; and the client committed
in clients/python/ is exactly what that document generates (`make client` refreshes it)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import urllib.request
from io import BytesIO
from types import SimpleNamespace

import pytest

from clients import generate as generation
from tests.browser.browser_support import serving


@pytest.fixture(scope="module")
def live(app, tmp_path_factory):
    """A live server, the document it serves, and the client generated from it, imported."""
    with serving(app) as base_url:
        with urllib.request.urlopen(f"{base_url}/api/v1/openapi.json", timeout=10) as answer:
            served = json.loads(answer.read())
        text = generation.canonical(served)
        root = tmp_path_factory.mktemp("sdk")
        generation.generate(text, root / generation.PACKAGE)
        sys.path.insert(0, str(root))
        try:
            yield SimpleNamespace(
                url=base_url, text=text, package=root / generation.PACKAGE, sdk=_modules()
            )
        finally:
            sys.path.remove(str(root))
            for name in [n for n in sys.modules if n.split(".")[0] == generation.PACKAGE]:
                del sys.modules[name]


def _modules() -> SimpleNamespace:
    def load(name: str):
        return importlib.import_module(f"{generation.PACKAGE}.{name}")

    return SimpleNamespace(
        client=load("client"),
        types=load("types"),
        models=load("models"),
        upload_document=load("api.documents.upload_document"),
        list_documents=load("api.documents.list_documents"),
        get_document=load("api.documents.get_document"),
        get_document_content=load("api.documents.get_document_content"),
        search_documents=load("api.search.search_documents"),
    )


def _upload(sdk, client, content: bytes, name: str, *, tags: list[str], key: str | None = None):
    models, types = sdk.models, sdk.types
    body = models.UploadDocumentBody(
        file=types.File(payload=BytesIO(content), file_name=name, mime_type="text/plain"),
        title=name.removesuffix(".txt").replace("-", " "),
        tags=tags,
        metadata=models.UploadDocumentBodyMetadata.from_dict({"dept": "sales"}),
    )
    kwargs = {} if key is None else {"idempotency_key": key}
    return sdk.upload_document.sync_detailed(client=client, body=body, **kwargs)


def test_the_generated_client_drives_a_live_server(live, tenant, api_key, work):
    sdk = live.sdk
    client = sdk.client.AuthenticatedClient(
        base_url=live.url, token=api_key[1], headers={"X-Tenant-Id": tenant.id}
    )
    quarterly = b"Quarterly revenue grew in every region."

    first = _upload(sdk, client, quarterly, "q3-report.txt", tags=["finance", "q3"], key="k-1")
    again = _upload(sdk, client, quarterly, "q3-report.txt", tags=["finance", "q3"], key="k-1")

    assert first.status_code == 201
    document = first.parsed.data
    assert (document.title, document.tags) == ("q3 report", ["finance", "q3"])
    assert document.metadata.to_dict() == {"dept": "sales"}
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.parsed.data.id == document.id

    for n in range(2):
        assert _upload(sdk, client, b"ledger %d" % n, f"ledger-{n}.txt", tags=["finance"])
    _upload(sdk, client, b"lunch menu", "menu.txt", tags=["canteen"])

    seen, cursor = [], sdk.types.UNSET
    while True:
        page = sdk.list_documents.sync(client=client, tag=["finance"], limit=2, cursor=cursor)
        seen += [d.id for d in page.data]
        if not page.meta.pagination.has_more:
            break
        cursor = page.meta.pagination.next_cursor
    assert len(seen) == len(set(seen)) == 3 and document.id in seen

    download = sdk.get_document_content.sync(client=client, document_id=document.id)
    assert download.payload.read() == quarterly

    work()  # text extraction, which search reads
    hits = sdk.search_documents.sync(client=client, q="quarterly revenue")
    assert [hit.document.id for hit in hits.data] == [document.id]

    missing = sdk.get_document.sync_detailed(client=client, document_id="doc_missing")
    assert missing.status_code == 404
    assert isinstance(missing.parsed, sdk.models.ErrorEnvelope)
    assert missing.parsed.success is False
    assert missing.parsed.errors[0].code == "NOT_FOUND"


def test_the_generated_client_filters_by_metadata(live, tenant, api_key):
    """The list's `metadata` parameter, as the generator reads the document: `key:value`
    strings, sent as repeated `metadata=` parameters, which the server accepts."""
    sdk = live.sdk
    client = sdk.client.AuthenticatedClient(
        base_url=live.url, token=api_key[1], headers={"X-Tenant-Id": tenant.id}
    )
    for name, dept, year in (
        ("sales", "sales", "2026"),
        ("old", "sales", "2025"),
        ("ops", "ops", "2026"),
    ):
        body = sdk.models.UploadDocumentBody(
            file=sdk.types.File(payload=BytesIO(name.encode()), file_name=f"{name}.txt"),
            title=name,
            metadata=sdk.models.UploadDocumentBodyMetadata.from_dict({"dept": dept, "year": year}),
        )
        assert sdk.upload_document.sync_detailed(client=client, body=body).status_code == 201

    def titles(**filters) -> set[str]:
        answer = sdk.list_documents.sync_detailed(client=client, **filters)
        assert answer.status_code == 200, answer.content
        return {d.title for d in answer.parsed.data}

    assert titles(metadata=["dept:sales"]) == {"sales", "old"}
    assert titles(metadata=["dept:sales", "year:2026"]) == {"sales"}
    assert titles(metadata=["dept:finance"]) == set()
    found = sdk.search_documents.sync_detailed(client=client, q="sales", metadata=["dept:ops"])
    assert found.status_code == 200 and found.parsed.data == []


def test_the_committed_client_is_what_the_served_document_generates(live):
    """CI's drift check. Both sides are the canonical form (keys sorted), so the order routes
    were registered in cannot make a difference; a new or changed operation does."""
    committed = json.loads(generation.SNAPSHOT.read_text(encoding="utf-8"))
    served = json.loads(live.text)
    if committed != served:
        ops = {
            name: {
                f"{m.upper()} {p} {o['operationId']}" for p, ms in doc["paths"].items()
                for m, o in ms.items()
            }
            for name, doc in (("committed", committed), ("served", served))
        }  # fmt: skip
        pytest.fail(
            "clients/python/openapi.json is not the served document: run `make client` and "
            f"commit clients/python/.\nonly served: {sorted(ops['served'] - ops['committed'])}"
            f"\nonly committed: {sorted(ops['committed'] - ops['served'])}"
        )
    generated = generation.tree(live.package)
    shipped = generation.tree(generation.CLIENT_DIR / generation.PACKAGE)
    changed = sorted(
        name for name in set(generated) | set(shipped) if generated.get(name) != shipped.get(name)
    )
    assert not changed, f"clients/python/dms_client differs from a fresh `make client`: {changed}"


def test_the_shipped_example_runs_against_a_live_server(live, tenant, api_key, tmp_path):
    """clients/python/example.py, the README's example at length, with the committed client."""
    report = tmp_path / "report.txt"
    report.write_text("Quarterly report for the example.")
    env = {
        **os.environ,
        "PYTHONPATH": str(generation.CLIENT_DIR),
        "DMS_URL": live.url,
        "DMS_KEY": api_key[1],
        "DMS_TENANT": tenant.id,
    }
    result = subprocess.run(
        [sys.executable, str(generation.CLIENT_DIR / "example.py"), str(report)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("uploaded doc_") and lines[0].endswith("text/plain")
    assert lines[1].startswith("listed doc_")
    assert "downloaded 33 bytes" in lines
