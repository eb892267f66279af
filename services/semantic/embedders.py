"""Owns the embedding adapters the operator chooses with DMS_EMBEDDINGS (docs/semantic.md):

- `none`: no vectors; search is keyword-only;
- `openai`: any OpenAI-compatible `POST …/v1/embeddings` endpoint (Ollama, vLLM, LocalAI, a
  hosted API) at DMS_EMBEDDINGS_URL, with DMS_EMBEDDINGS_MODEL and DMS_EMBEDDINGS_API_KEY;
- `local`: sentence-transformers loading DMS_EMBEDDINGS_MODEL from a local path (the optional
  requirements/local-embeddings.txt; nothing is downloaded).

`embedder()` gives the configured adapter (None when off). `embed(texts)` returns one vector
per text, in order; a failure says whether trying again may help (`retryable`)."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from flask import current_app

from services.core import lazy

httpx = lazy.module("httpx")  # loads with the first outbound call

KINDS = ("none", "openai", "local")
# Characters of one input sent to the endpoint: a passage is at most 4,000 (passages.py); a
# query at most the search limit. Longer input is cut rather than refused by the server.
MAX_INPUT_CHARS = 8000


class EmbeddingError(Exception):
    """The embeddings could not be computed; `retryable` when a later attempt may succeed."""

    def __init__(self, message: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


class OpenAICompatible:
    """POST {url}/embeddings {"model", "input": [...]}; reads `data[i].embedding` by `index`."""

    kind = "openai"

    def __init__(
        self,
        url: str,
        model: str,
        api_key: str | None,
        *,
        timeout: float = 30,
        attempts: int = 4,
        backoff: float = 1.0,
    ) -> None:
        base = url.rstrip("/")
        self.endpoint = base if base.endswith("/embeddings") else f"{base}/embeddings"
        self.model = model
        self.name = f"openai:{model}"
        self.attempts = max(1, attempts)
        self.backoff = backoff
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)

    def embed(self, texts: Sequence[str], *, attempts: int | None = None) -> list[list[float]]:
        """One vector per text. 429, 5xx and network errors are tried again up to `attempts`
        times with doubling pauses (a Retry-After of up to 60 s is honoured)."""
        if not texts:
            return []
        payload = {"model": self.model, "input": [t[:MAX_INPUT_CHARS] for t in texts]}
        last: EmbeddingError | None = None
        for attempt in range(attempts or self.attempts):
            if attempt:
                time.sleep(_pause(last, self.backoff * 2 ** (attempt - 1)))
            try:
                return self._request(payload, len(texts))
            except EmbeddingError as exc:
                if not exc.retryable:
                    raise
                last = exc
        assert last is not None
        raise last

    def _request(self, payload: dict, count: int) -> list[list[float]]:
        try:
            response = self._client.post(self.endpoint, json=payload)
        except httpx.HTTPError as exc:
            raise EmbeddingError(
                f"endpoint unreachable: {type(exc).__name__}", retryable=True
            ) from exc
        if response.status_code == 429 or response.status_code >= 500:
            error = EmbeddingError(f"endpoint answered {response.status_code}", retryable=True)
            error.retry_after = response.headers.get("Retry-After")  # type: ignore[attr-defined]
            raise error
        if response.status_code != 200:
            raise EmbeddingError(f"endpoint answered {response.status_code}", retryable=False)
        try:
            items = sorted(response.json()["data"], key=lambda item: item["index"])
            vectors = [[float(x) for x in item["embedding"]] for item in items]
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(
                f"malformed answer: {type(exc).__name__}", retryable=False
            ) from exc
        return checked(vectors, count)


class SentenceTransformers:
    """sentence-transformers with a model read from a local directory (no download)."""

    kind = "local"

    def __init__(self, path: str, batch_size: int = 32) -> None:
        if not Path(path).is_dir():
            raise EmbeddingError(f"no model directory at {path}", retryable=False)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbeddingError(
                "DMS_EMBEDDINGS=local needs requirements/local-embeddings.txt installed",
                retryable=False,
            ) from None
        self.model = SentenceTransformer(path, device="cpu", local_files_only=True)
        self.name = f"local:{Path(path).name}"
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str], *, attempts: int | None = None) -> list[list[float]]:
        if not texts:
            return []
        array = self.model.encode(
            [t[:MAX_INPUT_CHARS] for t in texts],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
        )
        return checked([[float(x) for x in row] for row in array], len(texts))


def checked(vectors: list[list[float]], count: int) -> list[list[float]]:
    """`vectors` if there is one per input, all of one non-zero length, finite and not all 0."""
    if len(vectors) != count:
        raise EmbeddingError(f"{len(vectors)} vectors for {count} inputs", retryable=False)
    dimensions = {len(v) for v in vectors}
    if len(dimensions) != 1 or 0 in dimensions or max(dimensions) > MAX_DIMENSIONS:
        raise EmbeddingError("vectors of unusable dimensions", retryable=False)
    for vector in vectors:
        if not all(math.isfinite(x) for x in vector) or not any(vector):
            raise EmbeddingError("a vector is not finite or is all zero", retryable=False)
    return vectors


# pgvector's HNSW index takes vectors of up to 2,000 dimensions.
MAX_DIMENSIONS = 2000


def _pause(error: EmbeddingError | None, default: float) -> float:
    raw = getattr(error, "retry_after", None)
    try:
        return min(60.0, max(0.0, float(raw))) if raw is not None else default
    except ValueError:
        return default


def kind() -> str:
    return current_app.config.get("DMS_EMBEDDINGS", "none")


def embedder():
    """The configured adapter, built once per settings; None when DMS_EMBEDDINGS=none.

    Raises EmbeddingError (not retryable) when the settings are incomplete or wrong."""
    config = current_app.config
    return _build(
        config.get("DMS_EMBEDDINGS", "none"),
        config.get("DMS_EMBEDDINGS_URL"),
        config.get("DMS_EMBEDDINGS_MODEL"),
        config.get("DMS_EMBEDDINGS_API_KEY"),
        config.get("DMS_EMBEDDINGS_TIMEOUT_SECONDS", 30),
        config.get("DMS_EMBEDDINGS_ATTEMPTS", 4),
        config.get("DMS_EMBEDDINGS_BACKOFF_SECONDS", 1.0),
        config.get("DMS_EMBEDDINGS_BATCH", 32),
    )


@lru_cache(maxsize=4)
def _build(kind, url, model, api_key, timeout, attempts, backoff, batch):
    if kind == "none":
        return None
    if kind == "openai":
        if not url or not model:
            raise EmbeddingError(
                "DMS_EMBEDDINGS=openai needs DMS_EMBEDDINGS_URL and DMS_EMBEDDINGS_MODEL",
                retryable=False,
            )
        return OpenAICompatible(
            url, model, api_key, timeout=timeout, attempts=attempts, backoff=backoff
        )
    if kind == "local":
        if not model:
            raise EmbeddingError(
                "DMS_EMBEDDINGS=local needs DMS_EMBEDDINGS_MODEL (a model directory)",
                retryable=False,
            )
        return SentenceTransformers(model, batch_size=batch)
    raise EmbeddingError(f"DMS_EMBEDDINGS must be one of {', '.join(KINDS)}", retryable=False)
