"""A local OpenAI-compatible embeddings server for tests and benchmarks (outside the machine in
production, so faked here at the HTTP level): `POST /v1/embeddings`.

Its "model" is deterministic: a hashed bag of words, with a small table of synonyms mapped to
one concept, so texts sharing words or concepts are near (cosine) and unrelated texts are not.
The model's name seeds the hashing, so another model gives other vectors; a name ending in
`-<N>d` gives N dimensions (default 64). `fail_next(n, status)` makes the next n requests answer
`status` (500, 429, ...); `requests` records each request's model and input count."""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.helpers import POLL

DEFAULT_DIMENSIONS = 64
_WORD = re.compile(r"[^\W_]+")
_DIMS = re.compile(r"-(\d+)d$")
# Words a small model would put near each other: each maps to its group's first word.
SYNONYMS = [
    ("car", "automobile", "vehicle", "motorcar"),
    ("invoice", "bill", "billing", "receipt"),
    ("salary", "wage", "wages", "pay", "payroll", "compensation"),
    ("contract", "agreement", "covenant"),
    ("doctor", "physician", "clinician"),
    ("house", "home", "dwelling", "residence"),
    ("lawyer", "attorney", "counsel", "solicitor"),
    ("boat", "ship", "vessel"),
    ("holiday", "vacation", "leave"),
    ("purchase", "buy", "bought", "acquire", "acquisition"),
    ("cancel", "terminate", "termination", "cancellation"),
    ("fast", "quick", "rapid", "speedy"),
]
_CONCEPT = {word: group[0] for group in SYNONYMS for word in group}


def embed(text: str, model: str) -> list[float]:
    match = _DIMS.search(model)
    dims = int(match.group(1)) if match else DEFAULT_DIMENSIONS
    vector = [0.0] * dims
    for word in _WORD.findall(text.lower()):
        word = _CONCEPT.get(word, word)
        digest = hashlib.blake2b(f"{model}\0{word}".encode(), digest_size=8).digest()
        index = int.from_bytes(digest[:4], "big") % dims
        vector[index] += 1.0 if digest[4] & 1 else -1.0
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0:
        vector[0] = 1.0  # an empty text still has a (shared) direction
        return vector
    return [x / norm for x in vector]


class FakeEmbeddings:
    """Start with `with FakeEmbeddings() as server:`; `server.url` ends in /v1."""

    def __init__(self, *, api_key: str | None = None) -> None:
        self.api_key = api_key
        self.requests: list[dict] = []
        self._failures: list[int] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                if self.path != "/v1/embeddings":
                    return self._answer(404, {"error": {"message": "not found"}})
                if fake.api_key and self.headers.get("Authorization") != f"Bearer {fake.api_key}":
                    return self._answer(401, {"error": {"message": "bad key"}})
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                with fake._lock:
                    fake.requests.append({"model": body["model"], "inputs": len(inputs)})
                    failure = fake._failures.pop(0) if fake._failures else None
                if failure is not None:
                    return self._answer(failure, {"error": {"message": "try again"}})
                data = [
                    {"object": "embedding", "index": i, "embedding": embed(text, body["model"])}
                    for i, text in enumerate(inputs)
                ]
                data.reverse()  # clients must order by `index`, not by position
                self._answer(200, {"object": "list", "data": data, "model": body["model"]})

            def _answer(self, status: int, payload: dict) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(POLL,), daemon=True
        )

    def fail_next(self, count: int, status: int = 500) -> None:
        with self._lock:
            self._failures.extend([status] * count)

    def __enter__(self) -> FakeEmbeddings:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
