"""The OpenAI-compatible adapter against the local fake server: order by index, batching by
the caller, retries after 500 and 429, no retry after a refusal, malformed answers."""

from __future__ import annotations

import importlib.util
import os

import pytest

from services.semantic import embedders
from services.semantic.embedders import EmbeddingError, OpenAICompatible, SentenceTransformers
from tests.fake_embeddings import FakeEmbeddings, embed


def test_vectors_come_back_in_input_order_from_the_v1_embeddings_path(fake_embeddings):
    adapter = OpenAICompatible(fake_embeddings.url, "m", None, backoff=0)
    texts = ["a car", "an automobile", "a boat", "the garden"]
    vectors = adapter.embed(texts)
    assert vectors == [pytest.approx(embed(t, "m")) for t in texts]
    assert fake_embeddings.requests == [{"model": "m", "inputs": 4}]
    assert adapter.name == "openai:m"


def test_the_fake_model_puts_related_texts_near_and_others_far():
    def cosine(a, b):
        return sum(x * y for x, y in zip(embed(a, "m-256d"), embed(b, "m-256d"), strict=True))

    assert cosine("car repair", "automobile repair") > 0.9
    assert cosine("car repair", "garden party menu") < 0.3


@pytest.mark.parametrize("status", [500, 503, 429])
def test_a_passing_failure_is_tried_again(fake_embeddings, status):
    fake_embeddings.fail_next(2, status)
    adapter = OpenAICompatible(fake_embeddings.url, "m", None, attempts=3, backoff=0)
    assert len(adapter.embed(["one", "two"])) == 2
    assert len(fake_embeddings.requests) == 3


def test_failures_past_the_attempts_are_retryable_errors(fake_embeddings):
    fake_embeddings.fail_next(5, 500)
    adapter = OpenAICompatible(fake_embeddings.url, "m", None, attempts=3, backoff=0)
    with pytest.raises(EmbeddingError) as caught:
        adapter.embed(["one"])
    assert caught.value.retryable
    assert len(fake_embeddings.requests) == 3


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_a_refusal_is_not_tried_again(fake_embeddings, status):
    fake_embeddings.fail_next(1, status)
    adapter = OpenAICompatible(fake_embeddings.url, "m", None, attempts=3, backoff=0)
    with pytest.raises(EmbeddingError) as caught:
        adapter.embed(["one"])
    assert not caught.value.retryable
    assert len(fake_embeddings.requests) == 1


def test_the_api_key_goes_as_a_bearer_token():
    with FakeEmbeddings(api_key="s3cret") as server:
        assert OpenAICompatible(server.url, "m", "s3cret").embed(["x"])
        with pytest.raises(EmbeddingError) as caught:
            OpenAICompatible(server.url, "m", "wrong").embed(["x"])
    assert "401" in str(caught.value) and "s3cret" not in str(caught.value)


def test_an_unreachable_endpoint_is_retryable():
    adapter = OpenAICompatible("http://127.0.0.1:9/v1", "m", None, attempts=1, timeout=1)
    with pytest.raises(EmbeddingError) as caught:
        adapter.embed(["x"])
    assert caught.value.retryable


@pytest.mark.parametrize(
    "vectors",
    [
        [[1.0, 0.0]],  # one vector for two inputs
        [[1.0, 0.0], [1.0]],  # lengths differ
        [[float("nan"), 1.0], [1.0, 0.0]],
        [[0.0, 0.0], [1.0, 0.0]],
        [[], []],
        [[1.0] * 2001, [1.0] * 2001],
    ],
)
def test_unusable_vectors_are_refused(vectors):
    with pytest.raises(EmbeddingError) as caught:
        embedders.checked(vectors, 2)
    assert not caught.value.retryable


def test_settings_are_checked(make_app):
    for settings, message in [
        ({"DMS_EMBEDDINGS": "openai"}, "DMS_EMBEDDINGS_URL"),
        ({"DMS_EMBEDDINGS": "local"}, "DMS_EMBEDDINGS_MODEL"),
        ({"DMS_EMBEDDINGS": "local", "DMS_EMBEDDINGS_MODEL": "/nonexistent"}, "no model"),
        ({"DMS_EMBEDDINGS": "magic"}, "must be one of"),
    ]:
        with make_app(**settings).app_context(), pytest.raises(EmbeddingError) as caught:
            embedders.embedder()
        assert message in str(caught.value)
    with make_app(DMS_EMBEDDINGS="none").app_context():
        assert embedders.embedder() is None


LOCAL_MODEL = os.environ.get("DMS_TEST_LOCAL_MODEL")


@pytest.mark.skipif(
    not LOCAL_MODEL or importlib.util.find_spec("sentence_transformers") is None,
    reason="the optional extra (requirements/local-embeddings.txt) and a model directory in "
    "DMS_TEST_LOCAL_MODEL (docs/semantic.md)",
)
def test_the_local_adapter_embeds_with_a_real_model():
    adapter = SentenceTransformers(LOCAL_MODEL, batch_size=8)
    car, automobile, menu = adapter.embed(
        ["Where is my car parked?", "The automobile stands in the garage.", "Lunch menu: soup."]
    )
    assert len(car) == len(automobile) == len(menu)
    assert abs(sum(x * x for x in car) - 1) < 1e-4  # normalised

    def cosine(a, b):
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert cosine(car, automobile) > cosine(car, menu) + 0.2
    assert adapter.name == f"local:{os.path.basename(LOCAL_MODEL.rstrip('/'))}"


def test_the_local_adapter_says_when_the_extra_is_missing(tmp_path):
    if importlib.util.find_spec("sentence_transformers") is not None:
        pytest.skip("sentence-transformers is installed here")
    with pytest.raises(EmbeddingError) as caught:
        SentenceTransformers(str(tmp_path))
    assert "requirements/local-embeddings.txt" in str(caught.value)
