"""Approval workflows: definitions of ordered approval steps, instances on documents
and form submissions, who can act now, acting atomically, escalation (docs/workflows.md)."""
