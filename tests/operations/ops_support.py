"""Helpers for the operations tests: the populated installation's shape, uploads and
downloads through the API, and the CLI."""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

from tests.helpers import auth_headers


def migrated(app):
    """`app` with its database at the latest migration (tests/installations.py, `migrate`)."""
    from tests.installations import migrate

    migrate(app)
    return app


@dataclass
class Content:
    tenant_id: str
    document_id: str
    version: int
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class Populated:
    secrets: dict[str, str] = field(default_factory=dict)  # tenant id -> key secret
    contents: list[Content] = field(default_factory=list)


def upload(client, secret, tenant_id, data: bytes, path="/api/v1/documents", **fields):
    form = {"file": (io.BytesIO(data), "file.txt"), **fields}
    response = client.post(
        path, data=form, headers=auth_headers(secret, tenant_id), content_type="multipart/form-data"
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def download(client, secret: str, content: Content):
    return client.get(
        f"/api/v1/documents/{content.document_id}/content",
        query_string={"version": content.version},
        headers=auth_headers(secret, content.tenant_id),
    )


def cli(app, *args: str):
    return app.test_cli_runner().invoke(args=list(args))
