"""Background jobs the API answers 202 with (`job_…`, CONTRACT §10): what was asked, by whom,
how far it got and which documents failed (docs/bulk.md). Redis carries the work; this row
remembers it, so that progress is read from the database and a re-run continues."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column

# The first errors a job keeps (CONTRACT §10); `failed` counts them all.
MAX_KEPT_ERRORS = 100


class JobStatus(enum.StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    PARTIALLY_FAILED = "partially_failed"


FINISHED = frozenset({JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.PARTIALLY_FAILED})


class Job(TenantScoped, db.Model):
    __tablename__ = "jobs"
    __not_found_label__ = "Job"

    id: Mapped[str] = id_column("job")
    type: Mapped[str] = mapped_column(String(40), nullable=False)
    status: Mapped[str] = mapped_column(String(20), nullable=False, default=JobStatus.QUEUED)
    # What was asked: {"documentIds": […]} or {"filter": {…}}, and "operations".
    request: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    # Who asked, as services/core/actors.Actor's fields: each change is audited as theirs.
    actor: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    # The documents' ids, fixed when the job starts (a filter is resolved then, in the tenant);
    # null until then. `position` is how many of them are done: it moves in the same
    # transaction as a batch's changes, so a re-run after a crash starts after the last batch.
    document_ids: Mapped[list[str] | None] = mapped_column(JSON)
    position: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    total: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    done: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    failed: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    errors: Mapped[list[dict[str, str]]] = mapped_column(JSON, nullable=False, default=list)
    created_at: Mapped[datetime] = created_at_column()
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    def __repr__(self) -> str:
        return f"<Job {self.id} {self.type} {self.status}>"
