"""Owns the text formats: plain text in any common encoding, Markdown, CSV and HTML turned
into lines of words. Each reads at most what the character budget could keep."""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterable
from pathlib import Path


def read_text(path: Path, max_chars: int) -> str:
    # Every supported encoding needs at most 4 bytes per character, so this bounds memory
    # without cutting text that would have fit under max_chars.
    limit = max_chars * 4 + 4
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
    truncated = len(data) > limit
    return decode_text(data[:limit], final=not truncated)


def decode_text(data: bytes, *, final: bool = True) -> str:
    """Decode bytes: a BOM's encoding, else UTF-8, else cp1252, else latin-1.

    With final=False a multi-byte sequence cut at the end of `data` is dropped, not an error.
    """
    if data.startswith(codecs.BOM_UTF8):
        candidates = ["utf-8-sig"]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates = ["utf-16"]
    else:
        candidates = []
    # latin-1 maps every byte, so the chain always ends in a result.
    candidates += ["utf-8", "cp1252", "latin-1"]
    for encoding in candidates:
        try:
            return codecs.getincrementaldecoder(encoding)().decode(data, final=final)
        except UnicodeDecodeError:
            continue
    raise AssertionError("unreachable: latin-1 decodes any bytes")


def normalize_lines(lines: Iterable[str]) -> str:
    cleaned = (re.sub(r"[ \t\r\f\v\xa0]+", " ", line).strip() for line in lines)
    return "\n".join(line for line in cleaned if line)


def markdown_to_text(source: str) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    parts: list[str] = []
    for token in md.parse(source):
        if token.type == "inline":
            for child in token.children or []:
                if child.type in ("text", "code_inline"):
                    parts.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append("\n")
                elif child.type == "image":
                    # The alt text is the image's words; the URL is not.
                    parts.append(child.content)
        elif token.type in ("fence", "code_block"):
            parts.append(token.content + "\n")
        elif token.type == "html_block":
            parts.append(html_to_text(token.content) + "\n")
        elif token.type in ("th_close", "td_close"):
            parts.append(" ")
        elif token.nesting == -1 and token.block:
            parts.append("\n")
    return normalize_lines("".join(parts).splitlines())


def csv_to_text(source: str) -> str:
    sample = source[: 64 * 1024]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = csv.reader(io.StringIO(source, newline=""), dialect)
        return normalize_lines(" ".join(cell for cell in row if cell.strip()) for row in rows)
    except csv.Error:
        # Malformed CSV (or a field over the csv module's size limit) is still useful as text.
        return normalize_lines(source.splitlines())


_HTML_DROP = ("script", "style", "noscript", "template")
_HTML_BLOCKS = (
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
    "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "title", "tr", "ul",
)  # fmt: skip


def html_to_text(source: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(source, "html.parser")
    for tag in soup.find_all(_HTML_DROP):
        tag.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    # Block boundaries become line breaks so "<p>a</p><p>b</p>" does not read as "ab".
    for tag in soup.find_all(_HTML_BLOCKS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    return normalize_lines(soup.get_text().splitlines())
