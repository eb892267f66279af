"""Approval workflows (issue 13): definitions of ordered approval steps, instances on documents
and form submissions, who can act now, acting atomically, escalation (docs/workflows.md)."""
