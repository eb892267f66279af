"""Passages: the splitting rules (paragraphs, sentences, words, characters), offsets into the
text, Unicode, and the table kept in step with the document's versions and purge."""

# ruff: noqa: RUF001 (the Unicode tests use look-alike letters and punctuation on purpose)

from __future__ import annotations

import io
import random
from datetime import timedelta

from sqlalchemy import func, select

import clock
from extensions import db
from models import Document, DocumentText, Passage
from services.search import passages
from services.search.passages import MAX_CHARS, MAX_WORDS, MIN_WORDS, split
from tests.helpers import auth_headers


def _sentence(i: int, words: int = 12) -> str:
    return " ".join(f"w{i}x{j}" for j in range(words - 1)) + f" end{i}."


def _paragraph(sentences: int, start: int = 0, words: int = 12) -> str:
    return " ".join(_sentence(start + i, words) for i in range(sentences))


def _pieces(text: str) -> list[str]:
    return [text[start:end] for start, end in split(text)]


def _check_invariants(text: str) -> list[tuple[int, int]]:
    spans = split(text)
    previous_end = 0
    for start, end in spans:
        piece = text[start:end]
        assert piece and piece == piece.strip()
        assert start >= previous_end
        assert len(piece.split()) <= MAX_WORDS and len(piece) <= MAX_CHARS
        previous_end = end
    # Nothing but whitespace is left out.
    covered = "".join(text[s:e] for s, e in spans)
    assert "".join(covered.split()) == "".join(text.split())
    return spans


def test_empty_and_blank_texts_have_no_passages():
    assert split("") == [] and split(" \n\n\t ") == []


def test_a_short_text_is_one_passage_without_its_surrounding_whitespace():
    text = "\n\n  Invoice 7781 is due on 3 March.  \n"
    [(start, end)] = split(text)
    assert text[start:end] == "Invoice 7781 is due on 3 March."


def test_paragraphs_are_packed_and_never_cut_while_they_fit():
    # Ten paragraphs of 60 words: passages close on a paragraph boundary once past MIN_WORDS.
    paragraphs = [_paragraph(5, start=10 * i) for i in range(10)]
    text = "\n\n".join(paragraphs)
    spans = _check_invariants(text)
    assert len(spans) > 1
    for start, end in spans:
        piece = text[start:end]
        assert piece.startswith(("w", "W")) and piece.endswith(".")
        # Every passage is made of whole paragraphs.
        assert all(p in paragraphs for p in piece.split("\n\n"))
    for start, end in spans[:-1]:
        assert len(text[start:end].split()) >= MIN_WORDS


def test_a_long_paragraph_is_cut_between_sentences():
    text = _paragraph(100)  # 1,200 words, one paragraph
    spans = _check_invariants(text)
    assert len(spans) >= 3
    for start, end in spans:
        piece = text[start:end]
        assert piece.startswith("w") and piece.endswith(".")
        assert MIN_WORDS <= len(piece.split()) <= MAX_WORDS or end == len(text)


def test_a_huge_paragraph_without_sentence_ends_is_still_split_between_words():
    text = " ".join(f"word{i}" for i in range(5000))
    spans = _check_invariants(text)
    assert len(spans) >= 5000 // MAX_WORDS
    for start, end in spans:
        assert text[start - 1 : start].strip() == "" and text[end : end + 1].strip() == ""


def test_a_run_without_spaces_is_cut_by_characters():
    text = "x" * (3 * MAX_CHARS + 17)
    spans = _check_invariants(text)
    assert [e - s for s, e in spans] == [MAX_CHARS, MAX_CHARS, MAX_CHARS, 17]


def test_unicode_offsets_are_string_indices_and_cjk_sentences_split():
    cjk = "我们的合同在三月到期。" * 600  # no spaces at all: split after 。 within MAX_CHARS
    text = "Émile’s naïve café — 👩‍💻 «Oui.»\n\n" + cjk + "\n\nΤέλος. Конец! 終わり？"
    spans = _check_invariants(text)
    pieces = [text[s:e] for s, e in spans]
    assert pieces[0].startswith("Émile’s naïve café — 👩‍💻 «Oui.»")
    assert all(p.endswith(("。", "»", "？")) for p in pieces)
    assert pieces[-1].endswith("Τέλος. Конец! 終わり？")


def test_a_cut_inside_a_word_never_separates_combining_marks():
    text = ("e\u0301" * MAX_CHARS) + " tail"  # é as e + combining acute, no spaces
    spans = _check_invariants(text)
    assert len(spans) == 3
    for start, end in spans:
        assert text[start] in "et" and text[end - 1] in "\u0301l"


def test_random_texts_keep_the_invariants():
    rng = random.Random(15)
    alphabet = ["a", "b", "é", "中", " ", " ", "\n", "\n\n", ". ", "! ", "。", "\u0301", "👍"]
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3000)))
        _check_invariants(text)


# --- the table, kept in step with the document --------------------------------------------


def _rows(app, document_id: str) -> list[Passage]:
    with app.app_context():
        rows = list(
            db.session.scalars(
                select(Passage).where(Passage.document_id == document_id).order_by(Passage.ordinal)
            )
        )
        text = db.session.get(DocumentText, document_id).text
        for row in rows:
            assert text[row.start_char : row.end_char] == row.text
        db.session.expunge_all()
        return rows


def test_extraction_stores_the_passages_with_offsets_into_the_text(
    app, tenant, store_document, work
):
    body = "\n\n".join(_paragraph(8, start=10 * i) for i in range(6))
    document_id = store_document(tenant, body.encode(), "notes.txt")
    assert _rows(app, document_id) == []  # pending: nothing yet

    work()

    rows = _rows(app, document_id)
    assert [r.ordinal for r in rows] == list(range(len(rows))) and len(rows) >= 2
    assert {(r.tenant_id, r.version_number) for r in rows} == {(tenant.id, 1)}
    assert [(r.start_char, r.end_char) for r in rows] == split(body)


def test_a_new_version_replaces_the_passages(app, client, tenant, api_key, store_document, work):
    document_id = store_document(tenant, b"The old text speaks of harbours.", "a.txt")
    work()
    assert [r.text for r in _rows(app, document_id)] == ["The old text speaks of harbours."]

    clock.shift(timedelta(seconds=2))
    response = client.post(
        f"/api/v1/documents/{document_id}/versions",
        data={"file": (io.BytesIO(b"The new text speaks of lighthouses."), "b.txt")},
        headers=auth_headers(api_key[1], tenant.id),
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.get_json()
    work()

    rows = _rows(app, document_id)
    assert [(r.text, r.version_number) for r in rows] == [
        ("The new text speaks of lighthouses.", 2)
    ]


def test_a_failed_extraction_leaves_no_passages(app, tenant, store_document, work):
    document_id = store_document(tenant, b"%PDF-1.4 not really a pdf", "broken.pdf")
    work()
    with app.app_context():
        assert db.session.get(Document, document_id).text_status in {"failed", "unsupported"}
    assert _rows(app, document_id) == []


def test_purge_removes_the_passages(app, tenant, store_document, work):
    document_id = store_document(tenant, b"Trashed words about anchors.", "t.txt")
    work()
    assert len(_rows(app, document_id)) == 1
    with app.app_context():
        document = db.session.get(Document, document_id)
        document.status = "deleted"
        document.deleted_at = clock.now() - timedelta(days=31)
        db.session.commit()

    result = app.test_cli_runner().invoke(args=["documents", "purge"])

    assert result.exit_code == 0, result.output
    with app.app_context():
        count = select(func.count()).select_from(Passage)
        assert db.session.scalar(count.where(Passage.document_id == document_id)) == 0


def test_the_cli_splits_texts_stored_before_passages_existed(app, tenant, store_document, work):
    first = store_document(tenant, b"First text about ropes.", "1.txt")
    second = store_document(tenant, b"Second text about sails.", "2.txt")
    work()
    with app.app_context():
        db.session.execute(db.delete(Passage))
        db.session.commit()

    result = app.test_cli_runner().invoke(args=["documents", "passages", "--tenant", tenant.id])

    assert result.exit_code == 0, result.output
    assert "split 2 documents into passages" in result.output
    assert [r.text for r in _rows(app, first)] == ["First text about ropes."]
    assert [r.text for r in _rows(app, second)] == ["Second text about sails."]


def test_of_documents_reads_only_the_tenants_passages(
    app, tenant, other_tenant, store_document, work
):
    mine = store_document(tenant, b"Mine.", "m.txt")
    theirs = store_document(other_tenant, b"Theirs.", "t.txt")
    work()
    with app.app_context():
        found = passages.of_documents(tenant.id, [mine, theirs])
        assert [p.document_id for p in found] == [mine]


def test_replacements_are_written_at_the_commit_the_last_one_winning(
    app, tenant, store_document, work
):
    first = store_document(tenant, b"The first text.", "a.txt")
    second = store_document(tenant, b"The second text.", "b.txt")
    work()
    with app.app_context():
        passages.replace(tenant.id, first, "An earlier replacement.", 1)
        passages.replace(tenant.id, second, "The second, replaced.", 1)
        passages.replace(tenant.id, first, "The last replacement.", 1)
        pending = db.session.scalars(select(Passage.text).where(Passage.document_id == first))
        assert list(pending) == ["The first text."]  # nothing written before the commit
        passages.remove(second)  # a document removed meanwhile keeps none
        db.session.commit()
        texts = {
            d: list(db.session.scalars(select(Passage.text).where(Passage.document_id == d)))
            for d in (first, second)
        }
    assert texts == {first: ["The last replacement."], second: []}
