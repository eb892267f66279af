"""Whether a rule's pattern is found in a text: the five algorithms that need no model (`auto`
asks the classifier, services/matching/runner.py). As paperless-ngx matches: words and
phrases on word boundaries, a regular expression searched anywhere, fuzzy as rapidfuzz's
partial ratio of the pattern against the text with punctuation removed.

Patterns are compiled once and kept (a small cache per process), and a word the text does
not contain is ruled out by a substring test before any regex runs, so that a hundred rules
cost little more than one pass of the text each. Regular expressions run with the `regex`
module's timeout: one that takes longer does not match, and says so in the log."""

from __future__ import annotations

import functools
import logging

import regex

from models.matching import Algorithm
from services.core import lazy

log = logging.getLogger(__name__)
fuzz = lazy.module("rapidfuzz.fuzz")  # loaded by the first `fuzzy` rule a worker runs

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
def compiled(
    algorithm: str, pattern: str, case_sensitive: bool
) -> tuple[tuple[tuple[str, ...], regex.Pattern], ...]:
    """What to search for: (the parts a match must contain as plain text, the pattern),
    one for exact and regex, one per word for any and all. The parts are compared first
    against the text (case-folded unless case matters): a word the text does not contain
    cannot match, and that costs a substring test rather than a regex search."""
    flags = regex.UNICODE | (0 if case_sensitive else regex.IGNORECASE)
    if algorithm == Algorithm.REGEX:
        return (((), regex.compile(pattern, flags)),)
    phrases = [pattern] if algorithm == Algorithm.EXACT else words(pattern)
    fold = str if case_sensitive else str.casefold
    return tuple(
        (tuple(fold(part) for part in phrase.split()), regex.compile(_phrase(phrase), flags))
        for phrase in phrases
        if phrase.strip()
    )


class Text:
    """One field of one document as the rules read it, with what they derive from it (its
    case-folded form, its cleaned form for fuzzy) computed once for all the rules."""

    def __init__(self, raw: str) -> None:
        self.raw = raw[:MAX_TEXT_CHARS]
        self._folded: str | None = None
        self._fuzzy: dict[bool, str] = {}

    def contains(self, part: str, case_sensitive: bool) -> bool:
        if case_sensitive:
            return part in self.raw
        if self._folded is None:
            self._folded = self.raw.casefold()
        return part in self._folded

    def fuzzy(self, case_sensitive: bool) -> str:
        if case_sensitive not in self._fuzzy:
            cleaned = _SPACES.sub(" ", _NOT_WORD.sub("", self.raw))
            self._fuzzy[case_sensitive] = cleaned if case_sensitive else cleaned.lower()
        return self._fuzzy[case_sensitive]


@functools.lru_cache(maxsize=1024)
def _fuzzy_pattern(pattern: str, case_sensitive: bool) -> str:
    cleaned = _SPACES.sub(" ", _NOT_WORD.sub("", pattern)).strip()
    return cleaned if case_sensitive else cleaned.lower()


def matches(
    algorithm: str, pattern: str, case_sensitive: bool, text: Text | str, rule_id: str = ""
) -> bool:
    """Whether `pattern` is found in `text` by `algorithm` (not auto)."""
    if isinstance(text, str):
        text = Text(text)
    if algorithm == Algorithm.FUZZY:
        needle = _fuzzy_pattern(pattern, case_sensitive)
        if not needle:
            return False
        haystack = text.fuzzy(case_sensitive)
        return fuzz.partial_ratio(needle, haystack, score_cutoff=FUZZY_THRESHOLD) >= FUZZY_THRESHOLD
    searches = compiled(algorithm, pattern, case_sensitive)
    if not searches:
        return False
    need_all = algorithm == Algorithm.ALL
    try:
        for parts, compiled_pattern in searches:
            found = all(text.contains(p, case_sensitive) for p in parts) and (
                compiled_pattern.search(text.raw, timeout=REGEX_TIMEOUT) is not None
            )
            if found and not need_all:
                return True
            if need_all and not found:
                return False
        return need_all
    except TimeoutError:
        log.warning("a matching rule's pattern timed out", extra={"rule_id": rule_id})
        return False
