"""BlobStore on an S3-compatible object store (AWS S3, MinIO, Ceph RGW) through boto3, with the
local store's guarantees: streamed multipart upload, content addressing per tenant, the purge
race closed by the same guard/aside order, and ranged reads (docs/documents.md, "S3").

boto3 (with botocore's client and s3transfer) is imported when a store is made, not with this
module: it would cost every process (web and job workers, each CLI command) memory and
start-up time that a deployment keeping its blobs on local disk (the default) never uses.
botocore's exceptions, needed at import for the `except` clauses, are light."""

from __future__ import annotations

import hashlib
import io
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, BinaryIO

from services.core import lazy
from services.documents.storage import (
    _SHA256,
    _TENANT_ID,
    DEFAULT_CHUNK_SIZE,
    BlobTooLarge,
    StoredBlob,
    validate_sha256,
    validate_tenant_id,
)

# S3's smallest part (except the last) is 5 MiB; 8 MiB is boto3's own default.
# botocore loads with the first S3 store, as boto3 does (make_client).
botocore_errors = lazy.module("botocore.exceptions")

DEFAULT_PART_SIZE = 8 * 1024 * 1024
MIN_PART_SIZE = 5 * 1024 * 1024
_MISSING = {"404", "NoSuchKey", "NotFound", "NoSuchUpload"}


def make_client(endpoint_url: str | None, region: str | None) -> Any:
    """A boto3 S3 client; credentials come from boto3's usual chain (AWS_ACCESS_KEY_ID and
    AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an instance role...). A custom endpoint (MinIO, Ceph)
    is addressed path-style; checksums only where S3 requires them, which every
    S3-compatible server accepts."""
    import boto3
    from botocore.config import Config as BotoConfig

    config = BotoConfig(
        retries={"mode": "standard", "max_attempts": 5},
        s3={"addressing_style": "path" if endpoint_url else "auto"},
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
        max_pool_connections=20,
    )
    return boto3.client("s3", endpoint_url=endpoint_url, region_name=region, config=config)


def _missing(error: botocore_errors.ClientError) -> bool:
    return str(error.response.get("Error", {}).get("Code")) in _MISSING


class S3BlobStore:
    """Keys: `<tenant>/<sha[0:2]>/<sha[2:4]>/<sha>` (the local store's layout); temporary
    objects (upload guards, blobs being deleted) under `.tmp/`, which no tenant id can be."""

    _TMP = ".tmp/"

    def __init__(self, client: Any, bucket: str, part_size: int = DEFAULT_PART_SIZE) -> None:
        from boto3.s3.transfer import TransferConfig

        if part_size < MIN_PART_SIZE:
            raise ValueError(f"part_size must be at least {MIN_PART_SIZE} bytes")
        self.client = client
        self.bucket = bucket
        self.part_size = part_size
        self._transfer = TransferConfig(multipart_threshold=512 * 1024 * 1024, use_threads=False)

    def key_for(self, tenant_id: str, sha256: str) -> str:
        tenant_id = validate_tenant_id(tenant_id)
        sha256 = validate_sha256(sha256)
        return f"{tenant_id}/{sha256[0:2]}/{sha256[2:4]}/{sha256}"

    # --- writing -------------------------------------------------------------------------------

    def save(
        self,
        tenant_id: str,
        stream: BinaryIO,
        max_bytes: int,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
    ) -> StoredBlob:
        """Stream into a temporary object (one part in memory at a time), hashing as it goes,
        then copy it to its content address unless that exists; the temporary object stays
        as the upload's guard until `release`."""
        validate_tenant_id(tenant_id)
        if max_bytes < 0 or chunk_size <= 0:
            raise ValueError("max_bytes must be >= 0 and chunk_size > 0")
        guard = f"{self._TMP}{tenant_id}-{uuid.uuid4().hex}.part"
        digest = hashlib.sha256()
        size = 0
        upload_id: str | None = None
        parts: list[dict[str, Any]] = []
        buffer = bytearray()
        try:
            while True:
                # At most one byte past the limit, so an oversized body is caught unread.
                chunk = stream.read(min(chunk_size, max_bytes - size + 1))
                if not chunk:
                    break
                if size + len(chunk) > max_bytes:
                    raise BlobTooLarge(max_bytes)
                digest.update(chunk)
                size += len(chunk)
                buffer += chunk
                if len(buffer) >= self.part_size:
                    if upload_id is None:
                        upload_id = self.client.create_multipart_upload(
                            Bucket=self.bucket, Key=guard
                        )["UploadId"]
                    self._upload_part(guard, upload_id, parts, bytes(buffer))
                    buffer.clear()
            if upload_id is None:
                self.client.put_object(Bucket=self.bucket, Key=guard, Body=bytes(buffer))
            else:
                if buffer or not parts:
                    self._upload_part(guard, upload_id, parts, bytes(buffer))
                self.client.complete_multipart_upload(
                    Bucket=self.bucket,
                    Key=guard,
                    UploadId=upload_id,
                    MultipartUpload={"Parts": parts},
                )
                upload_id = None
            buffer.clear()
            sha256 = digest.hexdigest()
            final = self.key_for(tenant_id, sha256)
            if not self._exists(final):
                self._copy(guard, final)
        except BaseException:
            if upload_id is not None:
                self._abort(guard, upload_id)
            self._delete_key(guard)
            raise
        return StoredBlob(sha256=sha256, size=size, guard=guard)

    def _upload_part(self, key: str, upload_id: str, parts: list, body: bytes) -> None:
        number = len(parts) + 1
        answer = self.client.upload_part(
            Bucket=self.bucket, Key=key, UploadId=upload_id, PartNumber=number, Body=body
        )
        parts.append({"PartNumber": number, "ETag": answer["ETag"]})

    def _abort(self, key: str, upload_id: str) -> None:
        try:
            self.client.abort_multipart_upload(Bucket=self.bucket, Key=key, UploadId=upload_id)
        except botocore_errors.ClientError as error:
            if not _missing(error):
                raise

    def _copy(self, source: str, target: str) -> None:
        # Managed copy: one CopyObject, or a multipart copy past 512 MiB (CopyObject's ceiling
        # is 5 GiB); the bytes never pass through this process.
        self.client.copy(
            {"Bucket": self.bucket, "Key": source}, self.bucket, target, Config=self._transfer
        )

    def release(self, tenant_id: str, blob: StoredBlob, *, committed: bool) -> None:
        """After a commit, put the blob back from the guard if a concurrent delete removed it
        (that delete looked for references before ours was committed); then drop the guard."""
        if blob.guard is None:
            return
        try:
            if committed:
                final = self.key_for(tenant_id, blob.sha256)
                if not self._exists(final):
                    self._copy(blob.guard, final)
        finally:
            self._delete_key(blob.guard)

    def delete_unless(self, tenant_id: str, sha256: str, in_use: Callable[[], bool]) -> bool:
        """Delete unless `in_use()`; True if deleted. The local store's order, with copy +
        delete for its rename: ask, copy aside, delete, ask again, copy back if a row
        appeared. An upload committing after the second look restores from its guard."""
        if in_use():
            return False
        final = self.key_for(tenant_id, sha256)
        aside = f"{self._TMP}{tenant_id}-{sha256}-{uuid.uuid4().hex}.deleting"
        try:
            self._copy(final, aside)
        except botocore_errors.ClientError as error:
            if _missing(error):
                return True  # already gone (a retried job)
            raise
        self._delete_key(final)
        if in_use():
            self._copy(aside, final)
            self._delete_key(aside)
            return False
        self._delete_key(aside)
        return True

    def delete(self, tenant_id: str, sha256: str) -> None:
        """Remove the blob; deleting an absent blob is not an error (S3 says so too)."""
        self._delete_key(self.key_for(tenant_id, sha256))

    def _delete_key(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=key)

    # --- housekeeping --------------------------------------------------------------------------

    def sweep_temporary(self, older_than_seconds: float) -> int:
        """Remove guards and aside objects left by crashed processes, and abort their
        unfinished multipart uploads; returns how many objects and uploads went."""
        cutoff = time.time() - older_than_seconds
        removed = 0
        for key, modified in self._list(self._TMP):
            if modified < cutoff:
                self._delete_key(key)
                removed += 1
        paginator = self.client.get_paginator("list_multipart_uploads")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self._TMP):
            for upload in page.get("Uploads", []):
                if upload["Initiated"].timestamp() < cutoff:
                    self._abort(upload["Key"], upload["UploadId"])
                    removed += 1
        return removed

    def iter_blobs(self, older_than_seconds: float) -> Iterator[tuple[str, str]]:
        """(tenant id, sha256) of every stored blob last written before the cutoff."""
        cutoff = time.time() - older_than_seconds
        for key, modified in self._list(""):
            tenant_id, _, rest = key.partition("/")
            sha256 = rest.rpartition("/")[2]
            if (
                _TENANT_ID.fullmatch(tenant_id)
                and _SHA256.fullmatch(sha256)
                and rest == f"{sha256[0:2]}/{sha256[2:4]}/{sha256}"
                and modified < cutoff
            ):
                yield tenant_id, sha256

    def _list(self, prefix: str) -> Iterator[tuple[str, float]]:
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=prefix):
            for item in page.get("Contents", []):
                modified: datetime = item["LastModified"]
                yield item["Key"], modified.astimezone(UTC).timestamp()

    # --- reading -------------------------------------------------------------------------------

    def open(self, tenant_id: str, sha256: str) -> BinaryIO:
        """A seekable reader over the object; raises FileNotFoundError when it is absent."""
        return S3Reader(self.client, self.bucket, self.key_for(tenant_id, sha256))  # type: ignore[return-value]

    def exists(self, tenant_id: str, sha256: str) -> bool:
        return self._exists(self.key_for(tenant_id, sha256))

    def _exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=key)
        except botocore_errors.ClientError as error:
            if _missing(error):
                return False
            raise
        return True

    def size(self, tenant_id: str, sha256: str) -> int:
        """Size in bytes; raises FileNotFoundError when the blob is absent."""
        key = self.key_for(tenant_id, sha256)
        try:
            return int(self.client.head_object(Bucket=self.bucket, Key=key)["ContentLength"])
        except botocore_errors.ClientError as error:
            if _missing(error):
                raise FileNotFoundError(key) from None
            raise


class S3Reader(io.RawIOBase):
    """`read` streams GetObject's body; `seek` elsewhere reopens it with a Range header, so a
    ranged download costs one extra request and never reads the skipped bytes."""

    def __init__(self, client: Any, bucket: str, key: str) -> None:
        super().__init__()
        self._client, self._bucket, self._key = client, bucket, key
        self._position = 0
        self._body: Any = None
        self._open_at(0)
        self.length = int(self._length)

    def _open_at(self, position: int) -> None:
        extra = {"Range": f"bytes={position}-"} if position else {}
        try:
            answer = self._client.get_object(Bucket=self._bucket, Key=self._key, **extra)
        except botocore_errors.ClientError as error:
            code = str(error.response.get("Error", {}).get("Code"))
            if code == "InvalidRange":  # at or past the end: nothing left to read
                self._body, self._position = None, position
                return
            if code in _MISSING:
                raise FileNotFoundError(self._key) from None
            raise
        if not position:
            self._length = answer["ContentLength"]
        self._body, self._position = answer["Body"], position

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self.length}[whence]
        target = max(0, base + offset)
        if target != self._position:
            self._close_body()
            self._position = target
        return target

    def readinto(self, buffer: Any) -> int:
        if self._position >= self.length:
            return 0
        if self._body is None:
            self._open_at(self._position)
            if self._body is None:
                return 0
        data = self._body.read(len(buffer))
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)

    def _close_body(self) -> None:
        if self._body is not None:
            self._body.close()
            self._body = None

    def close(self) -> None:
        self._close_body()
        super().close()
