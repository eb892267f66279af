"""The ranking constants both search engines share: signal weights, score rounding, and the
highlight markers the engines put around matches before the text is escaped."""

from __future__ import annotations

RECENCY_WEIGHT = 0.25
RECENCY_HALF_LIFE_DAYS = 30.0  # recency = 1/2 at this age
SCORE_DECIMALS = 6  # scores are rounded so keyset comparisons are exact on both engines
# Highlight markers while the engine builds snippets; replaced by <mark> after escaping.
MARK_START, MARK_END = "\ue000", "\ue001"
_NO_MARKERS = str.maketrans("", "", MARK_START + MARK_END)
HEADLINE_MAX_CHARS = 50_000  # snippets look at the start of long texts only
HEADLINE_WINDOW_CHARS = 500  # PostgreSQL parses this much from the first match


def unmarked(text: str) -> str:
    """`text` without the highlight markers, so a document cannot open or close a <mark>."""
    return text.translate(_NO_MARKERS)
