"""The ingestion bench's corpus: mixed files of the kinds a scanner's folder or a mailbox
brings (plain text, Markdown, text PDFs, DOCX, and PNG scans at a 10 % share), each with
bytes of its own, made from a seed."""

from __future__ import annotations

import io
import random
from collections import defaultdict
from pathlib import Path

WORDS = [
    "invoice",
    "contract",
    "delivery",
    "payment",
    "reminder",
    "offer",
    "order",
    "receipt",
    "insurance",
    "policy",
    "tax",
    "statement",
    "salary",
    "account",
    "bank",
    "meeting",
    "minutes",
    "project",
    "budget",
    "quarter",
    "report",
    "annual",
    "customer",
    "supplier",
    "warehouse",
    "shipment",
    "tariff",
    "rental",
    "lease",
    "notice",
    "termination",
    "renewal",
]


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _text_pdf(lines: list[str]) -> bytes:
    from tests.fixture_files import text_pdf

    return text_pdf([lines])


def _docx(paragraphs: list[str]) -> bytes:
    import docx

    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _png_scan(lines: list[str]) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (1240, 60 + 50 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=32)
    for i, line in enumerate(lines):
        draw.text((40, 30 + 50 * i), line, fill=0, font=font)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def make_files(folder: Path, count: int, seed: int) -> dict[str, int]:
    """`count` files, each with bytes of its own: 10 % PNG scans, the rest text, Markdown,
    text PDFs and DOCX in equal shares."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    kinds: dict[str, int] = defaultdict(int)
    for i in range(count):
        lines = [f"document {i} {_sentence(rng, 8)}" for _ in range(rng.randint(3, 12))]
        if i % 10 == 9:
            name, data = f"scan-{i:05}.png", _png_scan(lines[:4])
        else:
            kind = ("txt", "md", "pdf", "docx")[i % 4]
            name = f"doc-{i:05}.{kind}"
            if kind == "txt":
                data = "\n".join(lines).encode()
            elif kind == "md":
                data = ("# " + "\n\n".join(lines)).encode()
            elif kind == "pdf":
                data = _text_pdf(lines)
            else:
                data = _docx(lines)
        (folder / name).write_bytes(data)
        kinds[name.rsplit(".", 1)[1]] += 1
    return dict(kinds)
