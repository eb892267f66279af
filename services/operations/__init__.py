"""Whole-installation and whole-tenant operations: backup and restore, tenant export,
import and deletion (docs/operations.md, docs/tenant-archive.md)."""
