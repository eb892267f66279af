"""Entity suggestions (docs/graph.md): the names a document's extracted text seems
to use that are not entities of the tenant yet (runs of capitalised words), most frequent
first. Read-only: nothing is created; the caller creates what it wants (POST …/entities).

Positions are character offsets in the text as extracted when it is NFKC-normalised already
(nearly all is), else in its NFKC form, as for mentions (services/graph/matcher.py)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import select

from errors import conflict
from extensions import db
from models import Document, DocumentText, EntityName, TextStatus
from services.graph.matcher import MAX_POSITIONS
from services.graph.names import name_key

DEFAULT_LIMIT = 50
MAX_LIMIT = 100
MAX_WORDS = 6  # longer capitalised runs are title-cased headings, not names
MAX_NAME = 200  # an entity name's limit
_LOOKUP_CHUNK = 500

# A word: letters and digits, with inner hyphens and apostrophes ("Jean-Luc", "O'Brien").
_WORD = re.compile(r"[^\W_]+(?:['\u2019\-][^\W_]+)*")
# What is never part of a name: e-mail addresses (their domains are not entities), URLs and
# bare domain names (a lowercase top-level domain, as they are written).
_MASKED = re.compile(
    r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\b(?:https?|ftp)://\S+|\bwww\.\S+"
    r"|(?<![\w.@])(?:[\w-]+\.)+[a-z]{2,24}\b"
)
_GAP = re.compile(r"[ \t]+")  # words of one name: spaces between them, never a line break
_INITIAL_GAP = re.compile(r"\.[ \t]*")  # "John F. Kennedy"
_SENTENCE_END = ".!?:…\n"
_OPENERS = "\"'\u201c\u2018\u00ab([{ \t"


def _words(listed: str) -> frozenset[str]:
    return frozenset(listed.split())


# Lowercase words allowed inside a name ("Bank of America", "Ludwig van Beethoven").
CONNECTORS = _words("of de da di du del della van von der den la le y")
# A capitalised first word of a sentence that is not part of the name after it.
STOPWORDS = _words(
    """a an the this that these those there here it its in on at to for from by with of and
    or but if when while after before as so then thus yet also dear hello hi yes no our
    your their his her my we you they he she i yesterday today tomorrow please note
    however meanwhile according attn re subject regards thanks sincerely"""
)
HONORIFICS = _words("mr mrs ms miss dr prof sir dame madam herr frau mme mlle sr sra")
# Amounts written out ("Twelve Thousand Dollars") are not names.
AMOUNT_WORDS = _words(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen
    fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty
    seventy eighty ninety hundred thousand million billion trillion dollar dollars euro
    euros pound pounds cent cents yen franc francs sterling"""
)
ORGANIZATION_WORDS = _words(
    """corporation corp company co inc incorporated ltd limited gmbh group holdings partners
    bank foundation institute university college school association society agency
    ministry department council committee trust fund labs laboratories systems
    technologies industries enterprises services solutions"""
)
LOCATION_WORDS = _words(
    """street road avenue boulevard lane square river lake mountain mountains island
    islands city county province valley bay airport harbour harbor"""
)


@dataclass
class _Token:
    word: str
    start: int
    end: int
    possessive: bool = False

    @property
    def folded(self) -> str:
        return self.word.casefold()

    @property
    def capitalised(self) -> bool:
        """Starts with a capital and has a lowercase letter: not all-caps noise (NDA, USD)."""
        first = self.word[0]
        return (
            (first.isupper() or first.istitle())
            and any(c.islower() for c in self.word)
            and not any(c.isdigit() for c in self.word)
        )

    @property
    def initial(self) -> bool:
        return len(self.word) == 1 and self.word.isupper()


@dataclass
class Suggestion:
    name: str
    type: str | None
    count: int = 0
    positions: list[int] = field(default_factory=list)


def document_text(tenant_id: str, document_id: str) -> str:
    """The document's extracted text: 404 for another tenant's or an unknown document, 409
    while there is none (not extracted yet, failed or unsupported)."""
    document = Document.get_for_tenant(document_id, tenant_id)
    if document.text_status == TextStatus.PENDING.value:
        raise conflict(
            "This document's text has not been extracted yet (textStatus pending); "
            "ask again when textStatus is done."
        )
    if document.text_status != TextStatus.DONE.value:
        raise conflict(
            f"This document has no extracted text (textStatus {document.text_status}), "
            "so there is nothing to suggest from."
        )
    text = db.session.scalar(
        select(DocumentText.text).where(
            DocumentText.document_id == document.id, DocumentText.tenant_id == tenant_id
        )
    )
    return text or ""


def suggest(tenant_id: str, document_id: str, limit: int = DEFAULT_LIMIT) -> dict:
    """{documentId, suggestions (at most `limit`), total}: the names found, minus those the
    tenant already has as a name or alias; most frequent first, then first seen."""
    found = find_names(document_text(tenant_id, document_id))
    known = existing_keys(tenant_id, found)
    ranked = sorted(
        (s for key, s in found.items() if key not in known),
        key=lambda s: (-s.count, s.positions[0]),
    )
    return {
        "document_id": document_id,
        "suggestions": ranked[:limit],
        "total": len(ranked),
    }


def existing_keys(tenant_id: str, keys: Iterable[str]) -> set[str]:
    """Which of `keys` are a name or alias of one of the tenant's entities."""
    wanted, known = list(keys), set()
    for start in range(0, len(wanted), _LOOKUP_CHUNK):
        known.update(
            db.session.scalars(
                select(EntityName.key).where(
                    EntityName.tenant_id == tenant_id,
                    EntityName.key.in_(wanted[start : start + _LOOKUP_CHUNK]),
                )
            )
        )
    return known


def find_names(text: str) -> dict[str, Suggestion]:
    """{compared form: suggestion} for every capitalised multi-word name in `text`."""
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    tokens = _tokens(text)
    runs = list(_runs(text, tokens))
    evidence = _Evidence(
        lowercase={t.word for t in tokens if t.word.islower()},
        inner_capitals={
            t.folded for t in tokens if t.capitalised and not _sentence_initial(text, t)
        },
        inner_names={
            name_key(" ".join(_surface(text, run)))
            for run, _ in runs
            if not _sentence_initial(text, run[0])
        },
    )
    found: dict[str, Suggestion] = {}
    for run, after_honorific in runs:
        name = _name_of(text, run, evidence, after_honorific)
        if name is None:
            continue
        words, kind = name
        surface = " ".join(_surface(text, words))
        key = name_key(surface)
        entry = found.setdefault(key, Suggestion(name=surface, type=kind))
        entry.type = entry.type or kind
        entry.count += 1
        if len(entry.positions) < MAX_POSITIONS:
            entry.positions.append(words[0].start)
    return found


@dataclass
class _Evidence:
    """What the rest of the text says about a sentence's capitalised first word."""

    lowercase: set[str]  # words written in lowercase somewhere ("contact")
    inner_capitals: set[str]  # capitalised words seen inside a sentence, casefolded
    inner_names: set[str]  # runs seen inside a sentence, in the compared form


def _tokens(text: str) -> list[_Token]:
    masked = [(m.start(), m.end()) for m in _MASKED.finditer(text)]
    tokens, spans = [], iter(masked)
    span = next(spans, None)
    for match in _WORD.finditer(text):
        while span is not None and span[1] <= match.start():
            span = next(spans, None)
        if span is not None and span[0] < match.end():
            tokens.append(_Token("\x00", match.start(), match.end()))  # breaks any run
            continue
        word, end, possessive = match.group(), match.end(), False
        if len(word) > 2 and word[-2] in "'\u2019" and word[-1] in "sS":
            word, end, possessive = word[:-2], end - 2, True
        tokens.append(_Token(word, match.start(), end, possessive))
    return tokens


def _runs(text: str, tokens: list[_Token]) -> Iterable[tuple[list[_Token], bool]]:
    """Runs of name words (capitalised words, initials, connectors between them) joined by
    spaces; each with whether an honorific ("Dr.", "Ms") stands just before it."""
    run: list[_Token] = []
    honorific = False
    for index, token in enumerate(tokens):
        previous = tokens[index - 1] if index else None
        joined = (
            previous is not None and run and run[-1] is previous and _joins(text, previous, token)
        )
        if run and not joined:
            yield run, honorific
            run = []
        if not run:
            honorific = (
                previous is not None
                and previous.folded in HONORIFICS
                and _joins(text, previous, token, allow_period=True)
            )
        if token.capitalised or (run and (token.initial or token.folded in CONNECTORS)):
            run.append(token)
            if token.possessive:
                yield run, honorific
                run = []
        elif token.initial:
            run = [token]
        elif run:
            yield run, honorific
            run = []
    if run:
        yield run, honorific


def _joins(text: str, left: _Token, right: _Token, allow_period: bool = False) -> bool:
    gap = text[left.end : right.start]
    if _GAP.fullmatch(gap):
        return True
    return (allow_period or left.initial) and _INITIAL_GAP.fullmatch(gap) is not None


def _name_of(
    text: str, run: list[_Token], evidence: _Evidence, after_honorific: bool
) -> tuple[list[_Token], str | None] | None:
    """The words of the name a run holds and its guessed type, or None when it is none."""
    words = list(run)
    person = after_honorific
    while words and words[0].folded in HONORIFICS:  # "Dr Maria Lopez"
        words.pop(0)
        person = True
    if (
        words
        and not person
        and _sentence_initial(text, words[0])
        and _drop_first(text, words, evidence)
    ):
        words.pop(0)
    while words and not words[0].capitalised:
        words.pop(0)
    while words and not words[-1].capitalised:
        words.pop()
    capitalised = sum(1 for w in words if w.capitalised)
    if capitalised < 2 or len(words) > MAX_WORDS:
        return None
    if words[-1].end - words[0].start > MAX_NAME:
        return None
    if any(w.folded in AMOUNT_WORDS for w in words):
        return None
    return words, _type_of(words, person)


def _drop_first(text: str, words: list[_Token], evidence: _Evidence) -> bool:
    """Whether a sentence's capitalised first word is only capitalised for being first:
    a common word ("The", "Yesterday" when written lowercase elsewhere), or one never
    capitalised inside a sentence while the words after it still make a name ("Contact
    Maria Lopez"). Kept when the whole run also occurs inside a sentence."""
    if name_key(" ".join(_surface(text, words))) in evidence.inner_names:
        return False
    first = words[0].folded
    if first in STOPWORDS or first in evidence.lowercase:
        return True
    rest = sum(1 for w in words[1:] if w.capitalised)
    return first not in evidence.inner_capitals and rest >= 2


def _type_of(words: list[_Token], person: bool) -> str | None:
    """A guess from fixed word lists, never more: null when no rule applies."""
    last, first = words[-1].folded, words[0].folded
    if last in ORGANIZATION_WORDS or (first in ORGANIZATION_WORDS and words[1].folded == "of"):
        return "organization"
    if person:
        return "person"
    if last in LOCATION_WORDS:
        return "location"
    return None


def _sentence_initial(text: str, token: _Token) -> bool:
    """Whether the word opens a sentence or a line (after quotes or brackets)."""
    index = token.start - 1
    while index >= 0 and text[index] in _OPENERS:
        index -= 1
    return index < 0 or text[index] in _SENTENCE_END or text[index] == "\r"


def _surface(text: str, words: list[_Token]) -> list[str]:
    """The name's words as written, an initial with its full stop ("F.")."""
    out = []
    for word in words:
        dotted = word.initial and text[word.end : word.end + 1] == "."
        out.append(word.word + "." if dotted else word.word)
    return out
