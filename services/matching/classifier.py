"""The tag classifier's feature pipeline and model, the one module that uses scikit-learn
and numpy (loaded on first use, so that only training and prediction load them). As
paperless-ngx classifies tags: a document's words and word pairs, one yes/no classifier
per tag over the multi-label target. Unlike paperless-ngx's CountVectorizer and
MLPClassifier, which hold the whole corpus in
memory, the pipeline here is built to learn from a stream:

- features: `HashingVectorizer` (stateless: no vocabulary to fit or store) over the title
  and the first MAX_CHARS characters of the text, lowercased, words of two or more word
  characters and their pairs, FEATURES buckets, L2-normalised;
- model: one `SGDClassifier(loss="log_loss")` per tag (one-vs-rest over the tag
  columns of the multi-label target), fitted batch by batch with `partial_fit` for EPOCHS passes,
  so memory is one batch of documents plus TAGS x FEATURES weights;
- stored: the weights (float32) and intercepts in a numpy `.npz` archive. It is read with
  `allow_pickle=False`, so loading one runs no code: it can only be arrays of numbers, checked
  for their shapes; a score is `sigmoid(x · w + b)`, the probability the classifier gives."""

from __future__ import annotations

import io
from functools import cache

from services.core import lazy

# Loaded on first use: a web worker that never trains or scores holds none of them.
np = lazy.module("numpy")
sklearn_text = lazy.module("sklearn.feature_extraction.text")
sklearn_linear = lazy.module("sklearn.linear_model")

FORMAT = 1
FEATURES = 2**16
MAX_CHARS = 10_000
EPOCHS = 3
ALPHA = 1e-5  # the L2 penalty: small, as the many sparse features want


@cache
def _vectorizer():
    return sklearn_text.HashingVectorizer(
        n_features=FEATURES,
        alternate_sign=False,
        ngram_range=(1, 2),
        norm="l2",
        lowercase=True,
        dtype=np.float32,
    )


def text_of(title: str, content: str) -> str:
    return f"{title}\n{content[:MAX_CHARS]}"


def features(texts: list[str]):
    return _vectorizer().transform(texts)


class Trainer:
    """One classifier per tag, learning a batch at a time."""

    def __init__(self, tags: list[str]) -> None:
        self.tags = list(tags)
        self._column = {tag: i for i, tag in enumerate(self.tags)}
        self._models = [
            sklearn_linear.SGDClassifier(loss="log_loss", alpha=ALPHA, random_state=i)
            for i in range(len(self.tags))
        ]

    def learn(self, texts: list[str], tag_lists: list[list[str]]) -> None:
        """One batch: the documents' texts and the tags people gave each."""
        x = features(texts)
        y = np.zeros((len(texts), len(self.tags)), dtype=np.int8)
        for row, tags in enumerate(tag_lists):
            for tag in tags:
                column = self._column.get(tag)
                if column is not None:
                    y[row, column] = 1
        for column, model in enumerate(self._models):
            model.partial_fit(x, y[:, column], classes=np.array([0, 1]))

    def dump(self) -> bytes:
        weights = np.vstack([m.coef_[0] for m in self._models]).astype(np.float32)
        intercepts = np.array([m.intercept_[0] for m in self._models], dtype=np.float32)
        out = io.BytesIO()
        np.savez_compressed(
            out,
            format=np.array([FORMAT, FEATURES], dtype=np.int64),
            weights=weights,
            intercepts=intercepts,
        )
        return out.getvalue()


class Model:
    """A stored classifier, ready to score documents."""

    def __init__(self, tags: list[str], weights: np.ndarray, intercepts: np.ndarray) -> None:
        self.tags = tags
        self._weights_t = np.ascontiguousarray(weights.T)
        self._intercepts = intercepts

    @classmethod
    def load(cls, blob: bytes, tags: list[str]) -> Model:
        """The model `blob` holds (Trainer.dump's format); ValueError when it is not one."""
        with np.load(io.BytesIO(blob), allow_pickle=False) as archive:
            fmt, weights, intercepts = archive["format"], archive["weights"], archive["intercepts"]
        if list(fmt) != [FORMAT, FEATURES]:
            raise ValueError("a classifier of another format; train it again")
        if weights.shape != (len(tags), FEATURES) or intercepts.shape != (len(tags),):
            raise ValueError("the classifier's weights do not fit its tags")
        return cls(tags, weights.astype(np.float32), intercepts.astype(np.float32))

    def scores(self, title: str, content: str) -> dict[str, float]:
        """Each tag's probability for the document."""
        if not self.tags:
            return {}
        x = features([text_of(title, content)])
        z = np.asarray(x @ self._weights_t).ravel() + self._intercepts
        probabilities = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
        return {tag: float(p) for tag, p in zip(self.tags, probabilities, strict=True)}
