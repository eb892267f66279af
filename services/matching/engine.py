"""Whether a rule's pattern is found in a text: the five algorithms that need no model (`auto`
asks the classifier, services/matching/runner.py). As paperless-ngx matches: words and
phrases on word boundaries, a regular expression searched anywhere, fuzzy as rapidfuzz's
partial ratio of the pattern against the text with punctuation removed.

Patterns are compiled once per rule version and kept (a small cache per process), so that a
hundred rules cost a search each per document. Regular expressions run with the `regex`
module's timeout: one that takes longer does not match, and says so in the log."""

from __future__ import annotations

import functools
import logging

import regex
from rapidfuzz import fuzz

from models.matching import Algorithm

log = logging.getLogger(__name__)

# One rule's regex search on one document's text (seconds). A pattern passed the save-time
# check (services/core/patterns.py); this bounds what the check could not foresee.
REGEX_TIMEOUT = 0.05
# rapidfuzz partial_ratio (0-100) at or above which `fuzzy` matches, as paperless-ngx.
FUZZY_THRESHOLD = 90
# The characters of a text the rules read: the first MAX_TEXT_CHARS (a long document's
# opening pages carry what rules look for; the budget keeps 100 rules near 20 ms).
MAX_TEXT_CHARS = 100_000

_WORDS = regex.compile(r'"([^"]+)"|(\S+)')
_NOT_WORD = regex.compile(r"[^\w\s]")
_SPACES = regex.compile(r"\s+")


def words(pattern: str) -> list[str]:
    """The pattern's words, a "quoted phrase" counting as one (its inner spaces flexible)."""
    found = []
    for phrase, word in _WORDS.findall(pattern):
        text = (phrase or word).strip()
        if text:
            found.append(text)
    return found


def _phrase(text: str) -> str:
    """`text` as a regex on word boundaries, any run of spaces matching any other."""
    escaped = r"\s+".join(regex.escape(part) for part in text.split())
    return rf"(?<!\w){escaped}(?!\w)"


@functools.lru_cache(maxsize=4096)
def compiled(algorithm: str, pattern: str, case_sensitive: bool) -> tuple[regex.Pattern, ...]:
    """The patterns to search for (one for any, exact, regex; one per word for all)."""
    flags = regex.UNICODE | (0 if case_sensitive else regex.IGNORECASE)
    if algorithm == Algorithm.REGEX:
        return (regex.compile(pattern, flags),)
    if algorithm == Algorithm.EXACT:
        return (regex.compile(_phrase(pattern), flags),) if pattern.strip() else ()
    found = words(pattern)
    if algorithm == Algorithm.ANY:
        return (regex.compile("|".join(_phrase(w) for w in found), flags),) if found else ()
    return tuple(regex.compile(_phrase(w), flags) for w in found)


@functools.lru_cache(maxsize=1024)
def _fuzzy_pattern(pattern: str, case_sensitive: bool) -> str:
    cleaned = _SPACES.sub(" ", _NOT_WORD.sub("", pattern)).strip()
    return cleaned if case_sensitive else cleaned.lower()


def fuzzy_text(text: str, case_sensitive: bool) -> str:
    """The text as `fuzzy` compares it: punctuation gone, spaces single, lowered unless
    case matters (computed once per document and case by the runner)."""
    cleaned = _SPACES.sub(" ", _NOT_WORD.sub("", text))
    return cleaned if case_sensitive else cleaned.lower()


def matches(
    algorithm: str,
    pattern: str,
    case_sensitive: bool,
    text: str,
    fuzzy_texts: dict[bool, str] | None = None,
    rule_id: str = "",
) -> bool:
    """Whether `pattern` is found in `text` by `algorithm` (not auto). `fuzzy_texts` caches
    the cleaned text per case-sensitivity across the rules of one document."""
    text = text[:MAX_TEXT_CHARS]
    if algorithm == Algorithm.FUZZY:
        needle = _fuzzy_pattern(pattern, case_sensitive)
        if not needle:
            return False
        cache = fuzzy_texts if fuzzy_texts is not None else {}
        if case_sensitive not in cache:
            cache[case_sensitive] = fuzzy_text(text, case_sensitive)
        score = fuzz.partial_ratio(needle, cache[case_sensitive], score_cutoff=FUZZY_THRESHOLD)
        return score >= FUZZY_THRESHOLD
    patterns = compiled(algorithm, pattern, case_sensitive)
    if not patterns:
        return False
    try:
        for compiled_pattern in patterns:
            found = compiled_pattern.search(text, timeout=REGEX_TIMEOUT) is not None
            if algorithm == Algorithm.ALL and not found:
                return False
            if algorithm != Algorithm.ALL:
                return found
        return True
    except TimeoutError:
        log.warning("a matching rule's pattern timed out", extra={"rule_id": rule_id})
        return False
