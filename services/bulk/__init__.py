"""Bulk edits of documents, run as background jobs with their progress (docs/bulk.md)."""
