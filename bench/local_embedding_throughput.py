"""Throughput of the `local` adapter (sentence-transformers on the CPU) in one process, i.e.
one worker: passages of about 300 words embedded per second, by batch size.

Needs the optional extra (requirements/local-embeddings.txt) and a model directory:

    DMS_TEST_LOCAL_MODEL=/path/to/all-MiniLM-L6-v2 .venv/bin/python \\
        bench/local_embedding_throughput.py --passages 128"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.semantic.embedders import SentenceTransformers

WORDS = [
    "contract",
    "invoice",
    "harbour",
    "crane",
    "schedule",
    "payment",
    "delivery",
    "supplier",
    "quarter",
    "report",
    "maintenance",
    "vehicle",
    "policy",
    "employee",
    "salary",
    "meeting",
    "board",
    "audit",
    "budget",
    "project",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=128)
    parser.add_argument("--words", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    texts = [" ".join(rng.choice(WORDS) for _ in range(args.words)) for _ in range(args.passages)]
    path = os.environ["DMS_TEST_LOCAL_MODEL"]
    for batch in (8, 32):
        adapter = SentenceTransformers(path, batch_size=batch)
        adapter.embed(texts[:batch])  # warm up
        started = time.perf_counter()
        vectors = adapter.embed(texts)
        seconds = time.perf_counter() - started
        print(f"batch {batch}: {len(vectors) / seconds:.1f} passages/s "
              f"({len(vectors[0])} dimensions, {args.words} words each)")  # fmt: skip


if __name__ == "__main__":
    main()
