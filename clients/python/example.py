"""Upload a file, list the documents with its tag, download it back, and search: the generated
client against a running service. `make run` prints a key for the demo tenant:

    DMS_KEY=dms_… python example.py report.pdf   # DMS_URL, DMS_TENANT default to the quick start
"""

import os
import sys
import uuid

from dms_client import AuthenticatedClient
from dms_client.api.documents import get_document_content, list_documents, upload_document
from dms_client.api.search import search_documents
from dms_client.models import ErrorEnvelope, UploadDocumentBody
from dms_client.types import UNSET, File

url = os.environ.get("DMS_URL", "http://127.0.0.1:5000")
tenant = os.environ.get("DMS_TENANT", "demo")
dms = AuthenticatedClient(url, token=os.environ["DMS_KEY"], headers={"X-Tenant-Id": tenant})
path = sys.argv[1]

# Upload: the Idempotency-Key makes a retry after a timeout safe (same key, same document).
with open(path, "rb") as content:
    body = UploadDocumentBody(file=File(content, os.path.basename(path)), tags=["example"])
    answer = upload_document.sync(client=dms, body=body, idempotency_key=str(uuid.uuid4()))
if isinstance(answer, ErrorEnvelope):
    sys.exit(f"upload refused: {answer.errors[0].code}: {answer.errors[0].message}")
document = answer.data
print("uploaded", document.id, document.content_type)

# List by tag, following meta.pagination.nextCursor to the end.
cursor = UNSET
while True:
    page = list_documents.sync(client=dms, tag=["example"], limit=50, cursor=cursor)
    for listed in page.data:
        print("listed", listed.id, listed.title)
    if not page.meta.pagination.has_more:
        break
    cursor = page.meta.pagination.next_cursor

# Download the bytes back; search (once the worker has extracted the text).
download = get_document_content.sync(client=dms, document_id=document.id)
print("downloaded", len(download.payload.read()), "bytes")
hits = search_documents.sync(client=dms, q=document.title)
print("search hits:", [hit.document.id for hit in hits.data])
