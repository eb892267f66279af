"""Saved views of the documents list (docs/views.md)."""
