"""Words of a question and of a passage reduced to comparable terms: lower case, English stop
words dropped, Snowball (Porter2) stems, so "penalties" in a question meets "penalty" in a
passage as PostgreSQL's `english` configuration and FTS5's porter tokenizer match them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from functools import lru_cache

import snowballstemmer

# Letters and digits, as the search engines' tokenizers split words.
_WORD = re.compile(r"[^\W_]+")
_STEMMER = snowballstemmer.stemmer("english")

STOP_WORDS = frozenset(
    """
    a about above after again all also am an and any are as at be been before being below
    between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me
    more most my no nor not now of off on once only or other our ours out over own please
    same she should so some such tell than that the their theirs them then there these they
    this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours know find show give say said does anything
    something
    """.split()  # noqa: SIM905 (a list of words reads best as words)
)


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    return _STEMMER.stemWord(word)


def words(text: str) -> list[str]:
    """Every word of `text`, lower-cased, in order."""
    return [w.lower() for w in _WORD.findall(text)]


def content_words(text: str) -> list[str]:
    """The words that carry meaning (no stop words, no one-letter words), first use order,
    without repeats."""
    return list(dict.fromkeys(w for w in words(text) if w not in STOP_WORDS and len(w) > 1))


def stems(text: str) -> list[str]:
    """The stem of every word of `text` (stop words included), in order: a passage's terms."""
    return [stem(w) for w in words(text)]


def count_stems(text: str, wanted: Collection[str]) -> tuple[Counter[str], int]:
    """How often each of the `wanted` stems occurs in `text`, and its number of words.

    Only words sharing their first two letters with a wanted stem are stemmed (a Snowball
    stem keeps them: its changes are at the end, "using" -> "use", "try" -> "tri"), so
    scoring a passage costs a regex pass and a few stemmer calls, not one per word."""
    prefixes = {s[:2] for s in wanted}
    found: Counter[str] = Counter()
    tokens = words(text)
    for word in tokens:
        if word[:2] in prefixes or word[:1] in prefixes:
            stemmed = stem(word)
            if stemmed in wanted:
                found[stemmed] += 1
    return found, len(tokens)
