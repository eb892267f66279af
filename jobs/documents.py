"""The documents' periodic job: once a day, empty the trash of what is past its retention,
and remove the temporary files of crashed uploads and the blobs no row references."""

from __future__ import annotations

from datetime import time, timedelta

from services.core.queue import Periodic
from services.documents import blobs, purge
from services.documents.blobs import blob_store

# A temporary blob file older than this belongs to no upload still running.
TEMPORARY_FILE_MAX_AGE = timedelta(days=1)

DAILY = Periodic("documents-daily", "jobs.documents.daily", daily_at=time(3, 0), timeout=3600)
PERIODIC = [DAILY]


def daily() -> dict[str, int]:
    """RQ job, daily at 03:00 UTC (a quiet hour for most tenants): book tomorrow's run, purge
    the trash (committed a batch at a time), then sweep the blob store."""
    DAILY.book()
    report = purge.purge_trash()
    swept = blob_store().sweep_temporary(TEMPORARY_FILE_MAX_AGE.total_seconds())
    orphans = blobs.sweep_unreferenced(TEMPORARY_FILE_MAX_AGE.total_seconds())
    return {**report.as_dict(), "temporaryFiles": swept, "unreferencedBlobs": orphans}
