"""The built-in generator: extractive, offline, the default (docs/copilot.md, "Answers").

It never writes a sentence of its own about the documents: it selects the sentences of the
retrieved passages that hold the question's terms, orders them (best passage first, then in
text order), quotes them, and cites each passage it quoted. When no passage matched, it says
so plainly and cites nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.copilot import terms
from services.copilot.retrieval import RetrievedPassage
from services.search.passages import sentences

NOT_FOUND = (
    "I found nothing about that in the documents I can read. Try other words, or ask about "
    "other documents."
)
MAX_PASSAGES = 3  # passages quoted in one answer
MAX_SENTENCES = 4  # sentences quoted in one answer
# A passage is quoted only if it scores at least this share of the best one.
RELATIVE_CUTOFF = 0.35
MAX_QUOTE_CHARS = 400
SNIPPET_CHARS = 300


@dataclass
class Answer:
    content: str
    citations: list[dict[str, Any]] = field(default_factory=list)
    generator: str = "extractive"
    error: str | None = None


def citation(passage: RetrievedPassage, snippet: str) -> dict[str, Any]:
    """A citation as stored on the message (wire.CitationOut writes it in camelCase)."""
    return {
        "document_id": passage.document_id,
        "title": passage.title,
        "snippet": _clip(snippet, SNIPPET_CHARS),
        "passage_id": passage.passage_id,
        "start": passage.start,
        "end": passage.end,
    }


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def answer(weights: dict[str, float], found: Sequence[RetrievedPassage]) -> Answer:
    """The answer from `found` (best first) for a question of these stem weights."""
    if not found:
        return Answer(NOT_FOUND)
    best = found[0].score
    chosen = [p for p in found[:MAX_PASSAGES] if p.score >= RELATIVE_CUTOFF * best]
    own = {t for t, w in weights.items() if w == 1.0} or set(weights)
    picks: list[tuple[float, int, int, str]] = []  # (score, passage rank, position, sentence)
    for rank, passage in enumerate(chosen):
        for position, (start, end) in enumerate(sentences(passage.text)):
            sentence = passage.text[start:end]
            found_terms = set(terms.stems(sentence))
            if not own & found_terms:
                continue
            score = sum(w for t, w in weights.items() if t in found_terms)
            picks.append((score, rank, position, sentence))
    if not picks:
        return Answer(NOT_FOUND)
    picks.sort(key=lambda p: (-p[0], p[1], p[2]))
    selected = sorted(picks[:MAX_SENTENCES], key=lambda p: (p[1], p[2]))
    return _compose(chosen, selected)


def _compose(chosen: Sequence[RetrievedPassage], selected) -> Answer:
    by_passage: dict[int, list[str]] = {}
    for _, rank, _, sentence in selected:
        by_passage.setdefault(rank, []).append(_clip(sentence, MAX_QUOTE_CHARS))
    lines, citations = [], []
    for number, (rank, quotes) in enumerate(by_passage.items(), start=1):
        passage = chosen[rank]
        quoted = " ".join(f"“{q}”" for q in quotes)
        lines.append(f"{passage.title} [{number}]: {quoted}")
        citations.append(citation(passage, " … ".join(quotes)))
    return Answer("\n".join(["From your documents:", *lines]), citations)
