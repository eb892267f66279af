"""Owns a document's passages: its extracted text cut into pieces of about 200-400 words on
paragraph and sentence boundaries, with their character offsets (models/search.py).

`split(text)` is pure: it returns spans (start, end) such that text[start:end] is the passage,
never starting or ending in whitespace, in order and not overlapping. Offsets count Unicode
code points (Python string indices). The rules, in order of preference:

1. a paragraph (text between blank lines) is never cut while it fits in a passage, and
   paragraphs are packed together until a passage holds at least MIN_WORDS words;
2. a paragraph too big for one passage is cut between sentences (after `.`, `!`, `?`, `…`
   and their CJK forms, followed by closing quotes or brackets, then whitespace; or at a
   line break);
3. a sentence too big for one passage (a table dump, a text without punctuation) is cut
   between words every TARGET_WORDS words, and a run without spaces (CJK text, a base64
   blob) every MAX_CHARS characters, never inside a combining sequence.

`replace(document_id, ...)` keeps the table in step with the document's text; indexing calls
it wherever it stores the text, and `remove` when the document is purged."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import delete, insert, select

from extensions import db
from models import Document, DocumentText
from models.base import new_id
from models.search import Passage
from services.core import transaction

MIN_WORDS = 200
TARGET_WORDS = 300
MAX_WORDS = 400
# A passage never holds more characters than this, whatever its word count.
MAX_CHARS = 4000

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
# A sentence ends after terminal punctuation (and closing quotes or brackets) followed by
# whitespace, after CJK terminal punctuation, or at a line break inside a paragraph.
_CLOSERS = "\"')]\u00bb\u201d\u2019\u300d\u300f"  # quotes and brackets after an end
_SENTENCE_END = re.compile(
    f"(?:[.!?\u2026]+[{re.escape(_CLOSERS)}]*\\s+"  # . ! ? … then whitespace
    f"|[\u3002\uff01\uff1f]+[{re.escape(_CLOSERS)}]*\\s*"  # CJK full stop, ! and ?
    "|\n\\s*)"  # a line break inside a paragraph
)
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    words: int


def split(text: str) -> list[tuple[int, int]]:
    """The passages of `text` as (start, end) character offsets (see the module's rules)."""
    return [(s.start, s.end) for s in _pack(text)]


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentences of `text` (by the rules above) as (start, end) offsets."""
    return list(_sentences(text, 0, len(text)))


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    position = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        span = _trimmed(text, position, match.start())
        if span:
            yield span
        position = match.end()
    span = _trimmed(text, position, len(text))
    if span:
        yield span


def _sentences(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    position = start
    for match in _SENTENCE_END.finditer(text, start, end):
        span = _trimmed(text, position, match.end())
        if span:
            yield span
        position = match.end()
    span = _trimmed(text, position, end)
    if span:
        yield span


def _count(text: str, start: int, end: int) -> int:
    return sum(1 for _ in _WORD.finditer(text, start, end))


def _safe_cut(text: str, cut: int, start: int) -> int:
    """Move a cut inside a run of characters back before any combining mark (and so never
    between a base character and its accents or a joiner), but never to `start`."""
    while cut > start + 1 and (
        unicodedata.combining(text[cut]) or text[cut] in "\u200d\ufe0f" or text[cut - 1] == "\u200d"
    ):
        cut -= 1
    return cut


def _pieces(text: str, start: int, end: int) -> Iterator[Span]:
    """A sentence cut between words every TARGET_WORDS words and within MAX_CHARS."""
    words = list(_WORD.finditer(text, start, end))
    index = 0
    while index < len(words):
        first = words[index].start()
        count = 0
        last = first
        while index < len(words) and count < TARGET_WORDS:
            word_end = words[index].end()
            if word_end - first > MAX_CHARS:
                break
            last = word_end
            count += 1
            index += 1
        if count == 0:  # one run of characters longer than MAX_CHARS: cut inside it
            word = words[index]
            cut = _safe_cut(text, min(first + MAX_CHARS, word.end()), first)
            yield Span(first, cut, 1)
            if cut >= word.end():
                index += 1
            else:
                words[index] = _WORD.search(text, cut, word.end())  # type: ignore[call-overload]
            continue
        yield Span(first, last, count)


def _units(text: str) -> Iterator[tuple[Span, bool]]:
    """Sentences (or pieces of oversized ones), each with whether it opens a paragraph."""
    for p_start, p_end in _paragraphs(text):
        opens = True
        words = _count(text, p_start, p_end)
        if words <= MAX_WORDS and p_end - p_start <= MAX_CHARS:
            yield Span(p_start, p_end, words), True
            continue
        for s_start, s_end in _sentences(text, p_start, p_end):
            words = _count(text, s_start, s_end)
            if words <= MAX_WORDS and s_end - s_start <= MAX_CHARS:
                yield Span(s_start, s_end, words), opens
            else:
                for piece in _pieces(text, s_start, s_end):
                    yield piece, opens
                    opens = False
            opens = False


def _pack(text: str) -> list[Span]:
    passages: list[Span] = []
    current: Span | None = None
    for unit, opens_paragraph in _units(text):
        if current is not None:
            too_big = current.words + unit.words > MAX_WORDS or unit.end - current.start > MAX_CHARS
            full_enough = current.words >= MIN_WORDS and opens_paragraph
            full = current.words >= TARGET_WORDS
            if too_big or full_enough or full:
                passages.append(current)
                current = None
        if current is None:
            current = unit
        else:
            current = Span(current.start, unit.end, current.words + unit.words)
    if current is not None:
        passages.append(current)
    return passages


_REPLACE = "search.passages"  # replacements collected for the commit (replace)


def replace(tenant_id: str, document_id: str, text: str, version_number: int | None) -> None:
    """Replace the document's passages with those of `text` (empty text: none), just before
    the unit of work commits: with every other document's of the unit of work (an extraction
    batch's) in one delete and one insert. The last replace of a document in it wins."""
    transaction.before_commit_collect(
        _REPLACE, (document_id, tenant_id, version_number, text), write_passages
    )


def write_passages(items: list[tuple[str, str, int | None, str]]) -> None:
    """Write the collected replacements now (replace's work at the commit)."""
    latest = {item[0]: item for item in items}
    db.session.execute(delete(Passage).where(Passage.document_id.in_(list(latest))))
    db.session.add_all(
        Passage(
            tenant_id=tenant_id,
            document_id=document_id,
            version_number=version_number,
            ordinal=ordinal,
            start_char=span.start,
            end_char=span.end,
            word_count=span.words,
            text=text[span.start : span.end],
        )
        for document_id, tenant_id, version_number, text in latest.values()
        for ordinal, span in enumerate(_pack(text or ""))
    )
    db.session.flush()


def remove(document_id: str) -> None:
    transaction.uncollect(_REPLACE, lambda item: item[0] == document_id)
    db.session.execute(delete(Passage).where(Passage.document_id == document_id))


def of_documents(tenant_id: str, document_ids: list[str]) -> list[Passage]:
    """The passages of these documents of the tenant, in document and text order."""
    if not document_ids:
        return []
    return list(
        db.session.scalars(
            select(Passage)
            .where(Passage.tenant_id == tenant_id, Passage.document_id.in_(document_ids))
            .order_by(Passage.document_id, Passage.ordinal)
        )
    )


def rebuild(tenant_id: str | None = None, batch_size: int = 500) -> Iterator[int]:
    """Split every stored text again (after an upgrade that added passages, or a change of
    these rules), a batch of documents per transaction; yields documents done."""
    after = ""
    while True:
        stmt = (
            select(
                DocumentText.tenant_id,
                DocumentText.document_id,
                DocumentText.text,
                DocumentText.version_number,
            )
            .join(Document, Document.id == DocumentText.document_id)
            .where(DocumentText.document_id > after)
            .order_by(DocumentText.document_id)
            .limit(batch_size)
        )
        if tenant_id is not None:
            stmt = stmt.where(DocumentText.tenant_id == tenant_id)
        rows = db.session.execute(stmt).all()
        if not rows:
            return
        # One DELETE and one multi-row INSERT per batch (a million documents take minutes).
        db.session.execute(
            delete(Passage).where(Passage.document_id.in_([r.document_id for r in rows]))
        )
        values = [
            {
                "id": new_id("psg"),
                "tenant_id": row.tenant_id,
                "document_id": row.document_id,
                "version_number": row.version_number,
                "ordinal": ordinal,
                "start_char": span.start,
                "end_char": span.end,
                "word_count": span.words,
                "text": row.text[span.start : span.end],
            }
            for row in rows
            for ordinal, span in enumerate(_pack(row.text or ""))
        ]
        if values:
            db.session.execute(insert(Passage), values)
        db.session.commit()  # a batch at a time: a crash keeps the batches already done
        after = rows[-1].document_id
        yield len(rows)
