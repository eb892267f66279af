"""API platform concerns shared by every resource: Idempotency-Key records and the
deprecation registry."""
