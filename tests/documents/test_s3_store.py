"""The S3 blob store against a real S3 protocol server (moto's server mode): round trip,
content addressing per tenant, limits, ranged reads, the purge race, housekeeping and a large
streamed upload in bounded memory."""

from __future__ import annotations

import hashlib
import io
import tracemalloc

import pytest

from services.documents.s3_storage import S3BlobStore
from services.documents.storage import BlobTooLarge, StoredBlob, iter_range
from tests.s3_server import keys, open_uploads

TENANT = "acme"
PAYLOAD = bytes(range(256)) * 4099 + b"\x00tail\xff"  # ~1 MiB, not chunk-aligned
MiB = 1024 * 1024


class Generated(io.RawIOBase):
    """`total` bytes made on demand (never all in memory); fails after `fail_after` if set."""

    def __init__(self, total: int, fail_after: int | None = None) -> None:
        self.total, self.fail_after, self.served = total, fail_after, 0
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "the store must never ask for the whole stream"
        if self.fail_after is not None and self.served >= self.fail_after:
            raise OSError("client disconnected")
        size = min(size, self.total - self.served)
        chunk = (self.served % 251).to_bytes(1, "big") * size
        self.served += size
        self.digest.update(chunk)
        return chunk


def test_round_trip_at_the_content_address(s3_store: S3BlobStore, s3_client, bucket) -> None:
    blob = s3_store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD), chunk_size=4096)
    s3_store.release(TENANT, blob, committed=True)

    sha = hashlib.sha256(PAYLOAD).hexdigest()
    assert blob == StoredBlob(sha256=sha, size=len(PAYLOAD))
    assert keys(s3_client, bucket) == [f"{TENANT}/{sha[:2]}/{sha[2:4]}/{sha}"]  # guard gone
    assert s3_store.exists(TENANT, sha.upper())
    assert s3_store.size(TENANT, sha) == len(PAYLOAD)
    with s3_store.open(TENANT, sha) as fh:
        assert fh.read() == PAYLOAD


def test_same_bytes_stored_once_per_tenant_and_never_shared(s3_store, s3_client, bucket) -> None:
    for tenant in ("acme", "acme", "globex"):
        blob = s3_store.save(tenant, io.BytesIO(b"same"), max_bytes=10)
        s3_store.release(tenant, blob, committed=True)

    sha = hashlib.sha256(b"same").hexdigest()
    assert keys(s3_client, bucket) == [
        f"acme/{sha[:2]}/{sha[2:4]}/{sha}",
        f"globex/{sha[:2]}/{sha[2:4]}/{sha}",
    ]
    s3_store.delete("acme", sha)
    assert s3_store.exists("globex", sha) and not s3_store.exists("acme", sha)
    s3_store.delete("acme", sha)  # absent: not an error


def test_empty_and_exactly_max_bytes_are_accepted(s3_store) -> None:
    assert s3_store.save(TENANT, io.BytesIO(b""), max_bytes=0).size == 0
    assert s3_store.save(TENANT, io.BytesIO(b"12345"), max_bytes=5).size == 5


@pytest.mark.parametrize("total", [6, 11 * MiB])  # one PutObject; a multipart upload
def test_too_large_stops_reading_and_leaves_nothing(s3_store, s3_client, bucket, total) -> None:
    stream = Generated(total + 10 * MiB)

    with pytest.raises(BlobTooLarge):
        s3_store.save(TENANT, stream, max_bytes=total - 1)

    assert stream.served <= total  # never read past the first byte over the limit
    assert keys(s3_client, bucket) == []
    assert open_uploads(s3_client, bucket) == []


def test_a_broken_stream_aborts_the_multipart_upload(s3_store, s3_client, bucket) -> None:
    with pytest.raises(OSError, match="disconnected"):
        s3_store.save(TENANT, Generated(30 * MiB, fail_after=12 * MiB), max_bytes=50 * MiB)

    assert keys(s3_client, bucket) == []
    assert open_uploads(s3_client, bucket) == []


@pytest.mark.parametrize("tenant", ["", "..", "A", ".tmp", "a/b", "acme\n"])
def test_invalid_tenant_ids_are_refused(s3_store, tenant) -> None:
    with pytest.raises(ValueError):
        s3_store.save(tenant, io.BytesIO(b"x"), max_bytes=10)
    with pytest.raises(ValueError):
        s3_store.open(tenant, "0" * 64)


def test_a_missing_blob_is_file_not_found(s3_store) -> None:
    with pytest.raises(FileNotFoundError):
        s3_store.open(TENANT, "0" * 64)
    with pytest.raises(FileNotFoundError):
        s3_store.size(TENANT, "0" * 64)
    assert s3_store.exists(TENANT, "0" * 64) is False


@pytest.mark.parametrize(
    ("start", "end"), [(0, 0), (1, 4096), (70_000, 70_000), (12345, len(PAYLOAD) - 1), (0, 10**9)]
)
def test_ranged_reads(s3_store, start, end) -> None:
    blob = s3_store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    with s3_store.open(TENANT, blob.sha256) as fh:
        assert b"".join(iter_range(fh, start, end)) == PAYLOAD[start : end + 1]
        fh.seek(-5, io.SEEK_END)
        assert fh.read() == PAYLOAD[-5:]
        fh.seek(len(PAYLOAD) + 3)
        assert fh.read(10) == b""


# --- an upload racing a delete of the same bytes (docs/documents.md) -------------------------


def test_a_blob_deleted_before_the_upload_commits_comes_back(s3_store, s3_client, bucket) -> None:
    """The purge saw no row naming the blob (ours was not committed yet) and deleted it."""
    blob = s3_store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    assert s3_store.delete_unless(TENANT, blob.sha256, in_use=lambda: False) is True
    assert not s3_store.exists(TENANT, blob.sha256)

    s3_store.release(TENANT, blob, committed=True)

    with s3_store.open(TENANT, blob.sha256) as fh:
        assert fh.read() == PAYLOAD
    assert keys(s3_client, bucket) == [s3_store.key_for(TENANT, blob.sha256)]


def test_a_blob_that_gains_a_reference_while_being_deleted_stays(
    s3_store, s3_client, bucket
) -> None:
    blob = s3_store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    s3_store.release(TENANT, blob, committed=True)
    answers = iter([False, True])  # no row at the first look; one committed before the second

    assert s3_store.delete_unless(TENANT, blob.sha256, in_use=lambda: next(answers)) is False

    assert keys(s3_client, bucket) == [s3_store.key_for(TENANT, blob.sha256)]
    with s3_store.open(TENANT, blob.sha256) as fh:
        assert fh.read() == PAYLOAD


def test_delete_unless_keeps_a_used_blob_and_removes_an_unused_one(
    s3_store, s3_client, bucket
) -> None:
    blob = s3_store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    s3_store.release(TENANT, blob, committed=True)

    assert s3_store.delete_unless(TENANT, blob.sha256, in_use=lambda: True) is False
    assert s3_store.exists(TENANT, blob.sha256)
    assert s3_store.delete_unless(TENANT, blob.sha256, in_use=lambda: False) is True
    assert keys(s3_client, bucket) == []
    assert s3_store.delete_unless(TENANT, blob.sha256, in_use=lambda: False) is True  # retried


def test_a_rolled_back_upload_only_drops_its_guard(s3_store, s3_client, bucket) -> None:
    blob = s3_store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    s3_store.delete_unless(TENANT, blob.sha256, in_use=lambda: False)

    s3_store.release(TENANT, blob, committed=False)

    assert keys(s3_client, bucket) == []


# --- housekeeping ------------------------------------------------------------------------------


def test_sweep_removes_old_guards_and_abandoned_multipart_uploads(
    s3_store, s3_client, bucket
) -> None:
    blob = s3_store.save(TENANT, io.BytesIO(b"kept"), max_bytes=10)  # guard left (a crash)
    final = s3_store.key_for(TENANT, blob.sha256)
    s3_client.create_multipart_upload(Bucket=bucket, Key=".tmp/acme-crashed.part")

    # moto reports every multipart upload as initiated in 2010, so only the guard is young.
    assert s3_store.sweep_temporary(older_than_seconds=3600) == 1
    assert open_uploads(s3_client, bucket) == []
    assert keys(s3_client, bucket) == sorted([final, blob.guard])

    assert s3_store.sweep_temporary(older_than_seconds=-60) == 1
    assert keys(s3_client, bucket) == [final]


def test_iter_blobs_lists_only_blobs(s3_store, s3_client, bucket) -> None:
    one = s3_store.save("acme", io.BytesIO(b"one"), max_bytes=10)
    two = s3_store.save("globex", io.BytesIO(b"two"), max_bytes=10)
    s3_client.put_object(Bucket=bucket, Key="acme/not-a-blob", Body=b"x")

    assert list(s3_store.iter_blobs(older_than_seconds=3600)) == []
    assert sorted(s3_store.iter_blobs(older_than_seconds=-60)) == [
        ("acme", one.sha256),
        ("globex", two.sha256),
    ]


# --- a large upload streams ---------------------------------------------------------------------


def test_a_large_upload_streams_in_bounded_memory(s3_store, s3_client, bucket) -> None:
    """64 MiB through the store: Python's allocations stay within a few parts' worth."""
    total = 64 * MiB
    stream = Generated(total)

    tracemalloc.start()
    try:
        blob = s3_store.save(TENANT, stream, max_bytes=total)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert blob == StoredBlob(sha256=stream.digest.hexdigest(), size=total)
    assert peak < 4 * s3_store.part_size, f"peak {peak / MiB:.1f} MiB"
    assert s3_store.size(TENANT, blob.sha256) == total
