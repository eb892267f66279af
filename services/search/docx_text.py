"""Owns the text of a DOCX: word/document.xml streamed out of the archive and parsed as it
arrives, within budgets, so a small file that inflates to millions of elements (a "DOCX
bomb") costs time up to a budget but no more memory than one table row.

The output follows python-docx's text of a document: one line per paragraph, one line per
table row with its cells joined by spaces (a merged cell once, a nested table's rows inside its
cell), in document order. Text in drawings and text boxes is left out, as python-docx leaves it."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree

from services.search.limits import BudgetReached, Budgets, LimitExceeded

MAIN_PART = "word/document.xml"
# Larger than any document.xml Word writes for a text it could open; a bigger declared size
# is a bomb, or beyond what the character budget would keep anyway.
MAX_PART_BYTES = 256 * 1024 * 1024
# Word's own files inflate 5-30 times; deflate cannot pass about 1,030. Past this ratio the
# archive was made to inflate (bzip2 and LZMA members can go far beyond deflate).
MAX_RATIO = 500
CHUNK = 64 * 1024
# Tables in tables go a few levels deep in real documents; a deeper nest is built to make
# the open containers (ours and expat's) the thing that grows.
MAX_DEPTH = 256

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P, _R, _T, _BR = W + "p", W + "r", W + "t", W + "br"
_CONTAINERS = {_P, W + "tc", W + "tr"}
_WRAP = "textWrapping"  # the default type of <w:br>
# Run content that stands for a character (python-docx's `Run.text` does the same).
_RUN_CHARS = {W + "tab": "\t", W + "ptab": "\t", W + "cr": "\n", W + "noBreakHyphen": "-"}
# Drawings, VML pictures, embedded objects and the fallback copy of alternate content: their
# text boxes hold paragraphs of their own, which python-docx does not read.
_SKIPPED = {
    W + "drawing",
    W + "pict",
    W + "object",
    "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback",
}


def docx_text(path: Path, budgets: Budgets) -> tuple[str, bool]:
    """(text, cut by a budget) of the DOCX at `path`; LimitExceeded for a refused archive."""
    with zipfile.ZipFile(path) as archive:
        info = _main_part(archive)
        collector = _Collector(budgets.max_chars, budgets.max_elements)
        # No tree is built: the target sees each start, end and piece of text as it is parsed,
        # so even one huge <w:t> is cut at the budget instead of being held whole.
        # A DTD, the way in for entity bombs and external entities, is refused by doctype().
        parser = ElementTree.XMLParser(target=collector)  # noqa: S314
        with archive.open(info) as stream:
            try:
                while chunk := stream.read(CHUNK):
                    parser.feed(chunk)
                parser.close()
            except BudgetReached:
                collector.stop_here()
    return "\n".join(collector.lines), collector.cut


def _main_part(archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    try:
        info = archive.getinfo(MAIN_PART)
    except KeyError:
        raise ValueError(f"DOCX has no {MAIN_PART}") from None
    # zipfile stops reading a member at its declared size, so the declaration is the bound.
    if info.file_size > MAX_PART_BYTES:
        raise LimitExceeded(
            f"{MAIN_PART} declares {info.file_size // (1024 * 1024)} MiB uncompressed"
            f" (at most {MAX_PART_BYTES // (1024 * 1024)} MiB)"
        )
    if info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise LimitExceeded(
            f"{MAIN_PART} declares a compression ratio of"
            f" {info.file_size // max(info.compress_size, 1)}:1 (at most {MAX_RATIO}:1)"
        )
    return info


class _Collector:
    """An XMLParser target that keeps only what is still open (the paragraph being read, and
    the cells and rows around it) and the lines of the body."""

    def __init__(self, max_chars: int, max_elements: int) -> None:
        self.lines: list[str] = []
        self.cut = False
        self._room = max_chars
        self._elements_left = max_elements
        self._tags: list[str] = []  # open elements, for the parent of each text element
        self._open: list[tuple[str, list[str]]] = []  # open paragraphs, cells, rows: pieces
        self._skipping = 0
        self._in_text = False

    # ElementTree's parser calls these.

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        # document.xml never has one; a DTD is how entity expansion bombs and external
        # entities get in, so none is read at all.
        raise ValueError(f"{MAIN_PART} declares a DTD")

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self._elements_left -= 1
        if self._elements_left < 0:
            raise BudgetReached
        if len(self._tags) >= MAX_DEPTH:
            raise LimitExceeded(f"{MAIN_PART} nests elements deeper than {MAX_DEPTH}")
        parent = self._tags[-1] if self._tags else ""
        self._tags.append(tag)
        if self._skipping or tag in _SKIPPED:
            self._skipping += 1
        elif tag in _CONTAINERS:
            self._open.append((tag, []))
        elif tag == _T:
            self._in_text = parent == _R
        elif parent == _R and tag in _RUN_CHARS:
            self._add_text(_RUN_CHARS[tag])
        elif parent == _R and tag == _BR and attrib.get(W + "type", _WRAP) == _WRAP:
            self._add_text("\n")  # a page or column break is no line break (python-docx agrees)

    def data(self, text: str) -> None:
        if self._in_text and not self._skipping:
            self._add_text(text)

    def end(self, tag: str) -> None:
        self._tags.pop()
        if self._skipping:
            self._skipping -= 1
        elif tag == _T:
            self._in_text = False
        elif tag in _CONTAINERS:
            self._close()

    def close(self) -> None:
        return None

    def stop_here(self) -> None:
        """At a budget: what is open becomes the last line, as if the document ended here."""
        self.cut = True
        while self._open:
            self._close()

    # Building the text.

    def _add_text(self, text: str) -> None:
        if not self._open or self._open[-1][0] != _P:
            return  # text outside a paragraph is not Word's
        self._room -= len(text)
        if self._room < 0:
            # Keep the part that fits, so the cut falls at the budget, not a paragraph early.
            self._open[-1][1].append(text[: len(text) + self._room])
            raise BudgetReached
        self._open[-1][1].append(text)

    def _close(self) -> None:
        """A paragraph, cell or row is complete: into its container, or out as lines."""
        tag, pieces = self._open.pop()
        # A paragraph's runs join as they are; a cell's paragraphs and a row's cells by a space.
        text = "".join(pieces) if tag == _P else " ".join(piece for piece in pieces if piece)
        if self._open:
            self._open[-1][1].append(text)
            return
        for line in text.split("\n"):
            line = " ".join(line.split())
            if line:
                self.lines.append(line)
                self._room -= 1  # its line break
