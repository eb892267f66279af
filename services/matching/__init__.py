"""Matching rules run after extraction, their apply jobs, and each tenant's tag classifier
(docs/matching.md)."""
