"""The S3 blob store against a local S3 protocol server (moto in server mode): upload and
download throughput, and the peak of Python allocations during an upload (tracemalloc).

    .venv/bin/python -m bench.s3_bench --mib 64 256

moto keeps objects in its own memory and is far slower than AWS, MinIO or Ceph: the figures
bound our side's overhead and memory, not a real store's speed."""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
import tracemalloc
from pathlib import Path

from services.documents.s3_storage import S3BlobStore, make_client
from tests.s3_server import CREDENTIALS, new_bucket, s3_server

MiB = 1024 * 1024


class Generated(io.RawIOBase):
    def __init__(self, total: int) -> None:
        self.total, self.served = total, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = min(size, self.total - self.served)
        self.served += size
        return os.urandom(size) if size else b""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, nargs="+", default=[64, 256])
    args = parser.parse_args()
    os.environ.update(CREDENTIALS)
    with tempfile.TemporaryDirectory() as tmp, s3_server(Path(tmp)) as endpoint:
        client = make_client(endpoint, "us-east-1")
        store = S3BlobStore(client, new_bucket(client))
        print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
        for mib in args.mib:
            tracemalloc.start()
            started = time.perf_counter()
            blob = store.save("bench", Generated(mib * MiB), max_bytes=mib * MiB)
            store.release("bench", blob, committed=True)
            upload = time.perf_counter() - started
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            started = time.perf_counter()
            with store.open("bench", blob.sha256) as fh:
                while fh.read(MiB):
                    pass
            download = time.perf_counter() - started
            print(
                f"{mib} MiB: upload {mib / upload:.1f} MiB/s (peak Python allocations "
                f"{peak / MiB:.1f} MiB, part size {store.part_size // MiB} MiB), "
                f"download {mib / download:.1f} MiB/s"
            )
        print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
