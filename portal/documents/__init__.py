"""Documents in the portal: the Documents page with its filters and search (pages, filters) and
a document's bytes, downloaded or previewed inline (files), and uploading and changing
documents (edit)."""

from portal.documents import edit, files, pages  # noqa: F401  (they attach their views)
