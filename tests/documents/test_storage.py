"""Tests for services.documents.storage: content-addressed local blobs and range streaming."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from services.documents.storage import (
    BlobTooLarge,
    LocalBlobStore,
    StoredBlob,
    iter_range,
    validate_sha256,
    validate_tenant_id,
)

TENANT = "acme"
PAYLOAD = bytes(range(256)) * 4099 + b"\x00tail\xff"  # ~1 MiB, not chunk-aligned


class CountingStream(io.RawIOBase):
    """An endless stream that records how much was asked for and served."""

    def __init__(self, fill: bytes = b"z") -> None:
        self.fill = fill
        self.served = 0
        self.requests: list[int] = []

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "store must never ask for the whole stream"
        self.requests.append(size)
        self.served += size
        return self.fill * size


class FailingStream(io.RawIOBase):
    def __init__(self) -> None:
        self.calls = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self.calls += 1
        if self.calls > 2:
            raise OSError("client disconnected")
        return b"x" * size


def files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.fixture
def store(tmp_path: Path) -> LocalBlobStore:
    return LocalBlobStore(tmp_path / "blobs")


def test_round_trip_binary_content(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD), chunk_size=4096)

    expected_sha = hashlib.sha256(PAYLOAD).hexdigest()
    assert blob == StoredBlob(sha256=expected_sha, size=len(PAYLOAD))
    assert store.exists(TENANT, expected_sha)
    assert store.size(TENANT, expected_sha) == len(PAYLOAD)
    with store.open(TENANT, expected_sha) as fh:
        assert fh.read() == PAYLOAD


def test_blob_lives_at_content_addressed_path(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(b"hello blob"), max_bytes=100)

    sha = hashlib.sha256(b"hello blob").hexdigest()
    expected = store.root / TENANT / sha[0:2] / sha[2:4] / sha
    assert store.path_for(TENANT, blob.sha256) == expected
    assert expected.read_bytes() == b"hello blob"
    # Until the upload's transaction ends, its guard copy is the only other file: the same
    # bytes under the temporary name (a hard link, no second copy).
    assert files_under(store.root) == sorted([expected, Path(blob.guard)])
    assert Path(blob.guard).stat().st_ino == expected.stat().st_ino
    store.release(TENANT, blob, committed=True)
    assert files_under(store.root) == [expected]


def test_save_reads_in_bounded_chunks(store: LocalBlobStore) -> None:
    stream = io.BufferedReader(io.BytesIO(PAYLOAD))
    sizes: list[int] = []
    original_read = stream.read

    def spy(size: int = -1) -> bytes:
        sizes.append(size)
        return original_read(size)

    stream.read = spy  # type: ignore[method-assign]
    store.save(TENANT, stream, max_bytes=10 * len(PAYLOAD), chunk_size=8192)

    assert sizes, "save did not read the stream"
    assert all(0 < size <= 8192 for size in sizes)
    assert len(sizes) >= len(PAYLOAD) // 8192


def test_identical_content_is_stored_once(store: LocalBlobStore) -> None:
    first = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    second = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD), chunk_size=1000)

    assert first == second
    for blob in (first, second):
        store.release(TENANT, blob, committed=True)
    assert files_under(store.root) == [store.path_for(TENANT, first.sha256)]


def test_tenants_do_not_share_blobs(store: LocalBlobStore) -> None:
    blob = store.save("tenant-a", io.BytesIO(b"shared bytes"), max_bytes=100)

    assert store.exists("tenant-a", blob.sha256)
    assert not store.exists("tenant-b", blob.sha256)
    with pytest.raises(FileNotFoundError):
        store.open("tenant-b", blob.sha256)


def test_empty_stream_is_a_valid_blob(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(b""), max_bytes=0)

    assert blob == StoredBlob(hashlib.sha256(b"").hexdigest(), 0)
    assert store.size(TENANT, blob.sha256) == 0


def test_exactly_max_bytes_is_accepted(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(b"a" * 1000), max_bytes=1000, chunk_size=300)

    assert blob.size == 1000
    assert store.path_for(TENANT, blob.sha256).read_bytes() == b"a" * 1000


def test_too_large_raises_stops_reading_and_leaves_nothing(store: LocalBlobStore) -> None:
    stream = CountingStream()

    with pytest.raises(BlobTooLarge) as excinfo:
        store.save(TENANT, stream, max_bytes=10_000, chunk_size=4096)

    assert excinfo.value.max_bytes == 10_000
    # It asked for at most one byte beyond the limit, then gave up.
    assert stream.served == 10_001
    assert files_under(store.root) == []
    assert not (store.root / TENANT).exists()


def test_one_byte_over_the_limit_is_too_large(store: LocalBlobStore) -> None:
    with pytest.raises(BlobTooLarge):
        store.save(TENANT, io.BytesIO(b"a" * 1001), max_bytes=1000)

    assert files_under(store.root) == []


def test_stream_error_removes_temp_file(store: LocalBlobStore) -> None:
    with pytest.raises(OSError, match="client disconnected"):
        store.save(TENANT, FailingStream(), max_bytes=1 << 30, chunk_size=1024)

    assert files_under(store.root) == []


@pytest.mark.parametrize(
    "tenant_id",
    ["../x", "..", ".tmp", "a", "", "Acme", "-acme", "acme/../other", "acme\n", "acme ", "a" * 64],
)
def test_invalid_tenant_id_is_rejected_everywhere(store: LocalBlobStore, tenant_id: str) -> None:
    sha = hashlib.sha256(b"x").hexdigest()

    with pytest.raises(ValueError):
        store.save(tenant_id, io.BytesIO(b"x"), max_bytes=10)
    for method in (store.open, store.exists, store.delete, store.size, store.path_for):
        with pytest.raises(ValueError):
            method(tenant_id, sha)
    assert files_under(store.root) == []


@pytest.mark.parametrize(
    "sha",
    [
        "../" + "a" * 61,
        "a" * 63,
        "a" * 65,
        "g" * 64,
        "a" * 64 + "\n",
        "/" + "a" * 63,
        "",
    ],
)
def test_invalid_sha256_is_rejected(store: LocalBlobStore, sha: str) -> None:
    for method in (store.open, store.exists, store.delete, store.size, store.path_for):
        with pytest.raises(ValueError):
            method(TENANT, sha)


def test_validators_accept_good_values_and_normalise_case() -> None:
    sha = hashlib.sha256(b"x").hexdigest()

    assert validate_tenant_id("a1") == "a1"
    assert validate_tenant_id("acme-corp-" + "x" * 53) == "acme-corp-" + "x" * 53
    assert validate_sha256(sha.upper()) == sha
    with pytest.raises(ValueError):
        validate_tenant_id(None)  # type: ignore[arg-type]


def test_upper_case_sha_finds_the_same_blob(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(b"case"), max_bytes=10)

    assert store.exists(TENANT, blob.sha256.upper())
    assert store.path_for(TENANT, blob.sha256.upper()) == store.path_for(TENANT, blob.sha256)


def test_delete_removes_blob_and_is_idempotent(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(b"to delete"), max_bytes=100)

    store.delete(TENANT, blob.sha256)
    store.delete(TENANT, blob.sha256)

    assert not store.exists(TENANT, blob.sha256)
    with pytest.raises(FileNotFoundError):
        store.size(TENANT, blob.sha256)


def test_save_rejects_negative_limits(store: LocalBlobStore) -> None:
    with pytest.raises(ValueError):
        store.save(TENANT, io.BytesIO(b"x"), max_bytes=-1)
    with pytest.raises(ValueError):
        store.save(TENANT, io.BytesIO(b"x"), max_bytes=10, chunk_size=0)


@pytest.mark.parametrize(
    ("start", "end", "chunk_size"),
    [(0, 99, 7), (10, 10, 4), (0, 0, 1), (37, 81, 10), (90, 99, 3), (0, 99, 1000)],
)
def test_iter_range_yields_inclusive_slice(start: int, end: int, chunk_size: int) -> None:
    data = bytes(range(100))
    chunks = list(iter_range(io.BytesIO(data), start, end, chunk_size))

    assert b"".join(chunks) == data[start : end + 1]
    assert all(0 < len(chunk) <= chunk_size for chunk in chunks)


def test_iter_range_stops_at_end_of_file() -> None:
    assert b"".join(iter_range(io.BytesIO(b"0123456789"), 5, 500, 4)) == b"56789"
    assert list(iter_range(io.BytesIO(b"0123456789"), 20, 30)) == []


def test_iter_range_over_stored_blob(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))

    with store.open(TENANT, blob.sha256) as fh:
        body = b"".join(iter_range(fh, 1000, 300_000, chunk_size=65536))
    assert body == PAYLOAD[1000:300_001]


@pytest.mark.parametrize(("start", "end", "chunk_size"), [(-1, 5, 4), (5, 4, 4), (0, 5, 0)])
def test_iter_range_rejects_bad_ranges_eagerly(start: int, end: int, chunk_size: int) -> None:
    # Raised at call time, before a streaming response would have started.
    with pytest.raises(ValueError):
        iter_range(io.BytesIO(b"abc"), start, end, chunk_size)


# --- an upload racing a delete of the same bytes ------------------------------------------


def test_a_blob_deleted_before_the_upload_commits_comes_back(store: LocalBlobStore) -> None:
    """The purge saw no row naming the blob (ours was not committed yet) and deleted it."""
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    assert store.delete_unless(TENANT, blob.sha256, in_use=lambda: False) is True
    assert not store.exists(TENANT, blob.sha256)

    store.release(TENANT, blob, committed=True)

    with store.open(TENANT, blob.sha256) as fh:
        assert fh.read() == PAYLOAD
    assert files_under(store.root) == [store.path_for(TENANT, blob.sha256)]


def test_a_blob_that_gains_a_reference_while_being_deleted_stays(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    store.release(TENANT, blob, committed=True)
    answers = iter([False, True])  # no row at the first look; one committed before the second

    assert store.delete_unless(TENANT, blob.sha256, in_use=lambda: next(answers)) is False

    assert store.exists(TENANT, blob.sha256)
    assert files_under(store.root) == [store.path_for(TENANT, blob.sha256)]


def test_delete_unless_leaves_a_used_blob_and_removes_an_unused_one(
    store: LocalBlobStore,
) -> None:
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    store.release(TENANT, blob, committed=True)

    assert store.delete_unless(TENANT, blob.sha256, in_use=lambda: True) is False
    assert store.exists(TENANT, blob.sha256)
    assert store.delete_unless(TENANT, blob.sha256, in_use=lambda: False) is True
    assert files_under(store.root) == []
    assert store.delete_unless(TENANT, blob.sha256, in_use=lambda: False) is True  # retried


def test_a_rolled_back_upload_only_drops_its_guard(store: LocalBlobStore) -> None:
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    store.delete_unless(TENANT, blob.sha256, in_use=lambda: False)

    store.release(TENANT, blob, committed=False)

    assert files_under(store.root) == []


def test_sweep_removes_only_old_temporary_files(store: LocalBlobStore) -> None:
    import os
    import time

    old = store.save(TENANT, io.BytesIO(b"crashed upload"), max_bytes=100)
    fresh = store.save(TENANT, io.BytesIO(b"running upload"), max_bytes=100)
    day_ago = time.time() - 2 * 86400
    os.utime(old.guard, (day_ago, day_ago))

    assert store.sweep_temporary(older_than_seconds=86400) == 1

    assert not Path(old.guard).exists() and Path(fresh.guard).exists()
    assert store.exists(TENANT, old.sha256)  # the published blob is not temporary


def test_without_hard_links_the_blob_is_copied(store: LocalBlobStore, monkeypatch) -> None:
    import os

    def no_links(*_args, **_kwargs):
        raise PermissionError("this filesystem has no hard links")

    monkeypatch.setattr(os, "link", no_links)
    blob = store.save(TENANT, io.BytesIO(PAYLOAD), max_bytes=len(PAYLOAD))
    store.delete_unless(TENANT, blob.sha256, in_use=lambda: False)
    store.release(TENANT, blob, committed=True)

    with store.open(TENANT, blob.sha256) as fh:
        assert fh.read() == PAYLOAD
    assert files_under(store.root) == [store.path_for(TENANT, blob.sha256)]
