"""The audit log: writing and verifying the per-tenant hash chain, and reading it for people."""
