"""A second generator reads the document too: openapi-generator's Python target (the jar from
the openapi-generator-cli package, on the system's Java) makes a client whose calls carry the
same names and upload, list and report an error against a live server."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.browser.browser_support import serving

GENERATOR = Path(sys.executable).parent / "openapi-generator-cli"
PACKAGE = "dms_openapi_generator"

pytestmark = pytest.mark.skipif(
    shutil.which("java") is None or not GENERATOR.exists(),
    reason="openapi-generator needs Java and the openapi-generator-cli package",
)


@pytest.fixture(scope="module")
def generated(app, tmp_path_factory):
    root = tmp_path_factory.mktemp("openapi-generator")
    with serving(app) as base_url:
        with urllib.request.urlopen(f"{base_url}/api/v1/openapi.json", timeout=10) as answer:
            (root / "openapi.json").write_text(json.dumps(json.loads(answer.read())))
        result = subprocess.run(
            [str(GENERATOR), "generate", "-i", str(root / "openapi.json"), "-g", "python",
             "-o", str(root / "out"), "--package-name", PACKAGE, "--global-property",
             "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
        sys.path.insert(0, str(root / "out"))
        try:
            yield base_url, importlib.import_module(PACKAGE)
        finally:
            sys.path.remove(str(root / "out"))
            for name in [n for n in sys.modules if n.split(".")[0] == PACKAGE]:
                del sys.modules[name]


def test_the_openapi_generator_client_uploads_lists_and_reports_errors(generated, tenant, api_key):
    base_url, sdk = generated
    config = sdk.Configuration(
        host=base_url, access_token=api_key[1], api_key={"tenantId": tenant.id}
    )
    with sdk.ApiClient(config) as api:
        documents = sdk.DocumentsApi(api)
        created = documents.upload_document(
            file=("notes.txt", b"Minutes of the planning meeting."),
            title="Planning notes",
            tags=["meetings"],
            idempotency_key="generator-1",
        )
        listed = documents.list_documents(tag=["meetings"])
        with pytest.raises(sdk.exceptions.NotFoundException) as missing:
            documents.get_document(document_id="doc_missing")

    assert created.data.title == "Planning notes"
    assert [d.id for d in listed.data] == [created.data.id]
    assert json.loads(missing.value.body)["errors"][0]["code"] == "NOT_FOUND"
