"""The copilot: answers grounded in the tenant's documents, with citations (docs/copilot.md)."""
