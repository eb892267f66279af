"""Finding entities' names in a text: one Aho-Corasick automaton (pyahocorasick) over every
casefolded name and alias of a tenant, matches kept only on word boundaries, and where
matches overlap the leftmost, then longest, wins ("New York Times" over "New York").

Offsets are in the text as given when it is NFKC-normalised already (nearly all extracted
text is), else in its NFKC form (docs/graph.md)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

import ahocorasick

MAX_POSITIONS = 10  # first offsets kept per entity and document
# Whitespace in the text counts as a plain space (names are stored with single spaces).
_SPACES = str.maketrans(dict.fromkeys("\t\n\r\x0b\x0c\x85\xa0\u1680\u2028\u2029\u3000", " "))
_SPACES.update(dict.fromkeys(range(0x2000, 0x200B), " "))


def is_word_char(ch: str) -> bool:
    """Letters, digits, underscore and combining marks: what a name may not be glued to."""
    return ch.isalnum() or ch == "_" or unicodedata.category(ch).startswith("M")


@dataclass
class Found:
    count: int = 0
    positions: list[int] = field(default_factory=list)


class Matcher:
    """The automaton of a set of names: key -> the ids of the entities that bear it."""

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        owners: dict[str, set[str]] = {}
        for entity_id, key in names:
            if key:
                owners.setdefault(key, set()).add(entity_id)
        self.size = len(owners)
        self._automaton = ahocorasick.Automaton()
        for key, ids in owners.items():
            self._automaton.add_word(
                key, (len(key), is_word_char(key[0]), is_word_char(key[-1]), tuple(sorted(ids)))
            )
        if owners:
            self._automaton.make_automaton()

    def find(self, text: str) -> dict[str, Found]:
        """{entity id: how often and where first} for every entity named in `text`."""
        if not self.size or not text:
            return {}
        folded, offsets = fold(text)
        length = len(folded)
        candidates = []
        for end, (size, word_start, word_end, ids) in self._automaton.iter(folded):
            start = end - size + 1
            if word_start and start > 0 and is_word_char(folded[start - 1]):
                continue
            if word_end and end + 1 < length and is_word_char(folded[end + 1]):
                continue
            candidates.append((start, -size, ids))
        candidates.sort()
        found: dict[str, Found] = {}
        taken_until = 0  # leftmost-longest: a match starting inside a kept one is dropped
        for start, negative_size, ids in candidates:
            if start < taken_until:
                continue
            taken_until = start - negative_size
            position = offsets[start] if offsets is not None else start
            for entity_id in ids:
                entry = found.setdefault(entity_id, Found())
                entry.count += 1
                if len(entry.positions) < MAX_POSITIONS:
                    entry.positions.append(position)
        return found


def fold(text: str) -> tuple[str, list[int] | None]:
    """The text compared (NFKC, casefolded, whitespace as spaces) and, when casefolding
    changed its length (ß -> ss), the offset in the NFKC text of each folded character."""
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    text = text.translate(_SPACES)
    folded = text.casefold()
    if len(folded) == len(text):
        return folded, None
    pieces, offsets = [], []
    for index, ch in enumerate(text):
        piece = ch.casefold()
        pieces.append(piece)
        offsets.extend([index] * len(piece))
    return "".join(pieces), offsets
