"""The knowledge-graph jobs (enqueued by services/graph/mentions.py after a commit): find
entities in documents' texts, and rescan the documents a change of an entity's names may
affect."""

from __future__ import annotations

from services.core import transaction
from services.graph import mentions


def scan_documents(tenant_id: str, document_ids: list[str]) -> int:
    """Replace the mentions of these documents (at most a batch); how many had a text."""
    return transaction.transactional(mentions.scan_documents)(tenant_id, document_ids)


def names_changed(tenant_id: str, entity_id: str, keys: list[str]) -> int:
    """Rescan the documents that mention the entity or contain one of `keys`, a batch per
    unit of work (a long operation); how many."""
    ids = mentions.candidates_for_names(tenant_id, entity_id, keys)
    for start in range(0, len(ids), mentions.BATCH):
        transaction.transactional(mentions.scan_documents)(
            tenant_id, ids[start : start + mentions.BATCH]
        )
    return len(ids)
