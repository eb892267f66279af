"""Similar documents as they go over the wire, both ways: the query of
GET /documents/{id}/similar and each document answered with its similarity."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from services.documents.wire import DocumentOut


class SimilarQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    limit: int = Field(10, ge=1, le=50, description="How many documents, nearest first.")


class SimilarDocument(BaseModel):
    document: DocumentOut
    similarity: float = Field(
        description="Cosine similarity of this document's mean vector and its nearest passage."
    )
