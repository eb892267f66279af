"""Notes on documents: written, listed newest first and deleted through the API and the
portal, their `@email` mentions notified, each audited and announced (docs/notes.md)."""
