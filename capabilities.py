"""The capabilities of the service, each under one name in every layer it has: the table the
app factory reads to mount each capability's routes and pages, to connect the signals it
follows and to add its operator commands, the worker reads to book each capability's
periodic jobs (the `PERIODIC` list of its jobs/<name>.py), and tests/core/test_architecture.py
checks against the tree and against the table in docs/architecture.md."""

from __future__ import annotations

from dataclasses import dataclass

# Where a capability named `x` lives in each layer (a module or a package of that name).
LAYERS = {
    "api": "api/x.py or api/x/",
    "portal": "portal/x.py or portal/x/",
    "services": "services/x/",
    "models": "models/x.py",
    "jobs": "jobs/x.py",
    "cli": "cli/x.py",
    "templates": "templates/portal/x/",
    "tests": "tests/x/",
    "docs": "docs/x.md",
}

# What is shared by every capability, per layer: it has no capability's name.
SHARED = {
    "api": {
        "auth", "blueprint", "envelope", "errors", "idempotency", "openapi",
        "openapi_components", "openapi_rules", "pagination", "validation",
    },
    "portal": {
        "access", "blueprint", "charts", "dashboard", "layout", "nav", "reference", "security",
    },
    "services": {"core"},
    "models": {"base", "event", "idempotency"},
    "jobs": {"core", "housekeeping", "worker"},
    "cli": {"boundary", "processes"},
    "templates": {"dashboard"},
    "tests": {"browser", "core", "deploy", "openapi"},
    "docs": {
        "architecture", "decisions", "ingestion", "interface", "portal", "sdk", "tenant-archive",
    },
}  # fmt: skip


@dataclass(frozen=True)
class Capability:
    name: str
    summary: str
    layers: frozenset[str]


def _capability(name: str, summary: str, layers: str) -> Capability:
    return Capability(name, summary, frozenset(layers.split()))


CAPABILITIES = (
    _capability(
        "accounts", "tenants, people, roles, sign-in and portal sessions",
        "api portal services models templates tests docs cli",
    ),
    _capability(
        "audit", "the hash-chained audit log and its anchors",
        "portal services models templates tests cli",
    ),
    _capability(
        "keys", "API keys: create, rotate, revoke, allowlists",
        "portal services models templates tests cli",
    ),
    _capability(
        "limits", "rate limits, quotas and usage counting",
        "api services tests docs",
    ),
    _capability(
        "documents", "upload, versions, trash, download, blob stores",
        "api portal services models templates tests docs jobs cli",
    ),
    _capability(
        "search", "extraction, the full-text index and ranking",
        "api services models jobs tests docs cli",
    ),
    _capability(
        "semantic", "embeddings, vector search and similar documents",
        "api services models jobs tests docs cli",
    ),
    _capability(
        "copilot", "questions answered from the documents with citations",
        "api portal services models templates tests docs cli",
    ),
    _capability(
        "lifecycle", "deprecations, sunsets and the beta tier of the API",
        "api portal services models templates tests docs",
    ),
    _capability(
        "oauth", "OAuth 2.0 with PKCE: apps, consents, tokens",
        "api portal services models templates tests docs cli",
    ),
    _capability(
        "passkeys", "WebAuthn registration and sign-in",
        "api portal services models templates tests docs",
    ),
    _capability(
        "webhooks", "endpoints, signed deliveries, retries and replay",
        "api portal services models templates tests docs jobs cli",
    ),
    _capability(
        "push", "devices and push to APNs, FCM and Web Push",
        "api services models jobs tests docs",
    ),
    _capability(
        "notifications", "what a person should know, the bell",
        "api portal services models templates tests docs jobs",
    ),
    _capability(
        "workflows", "approval definitions, instances and the inbox",
        "api portal services models templates tests docs jobs",
    ),
    _capability(
        "forms", "eForms, public form pages and submissions",
        "api portal services models templates tests docs",
    ),
    _capability(
        "graph", "entities, relationships and mentions",
        "api portal services models templates tests docs jobs cli",
    ),
    _capability(
        "notes", "notes on documents, their mentions",
        "api portal services models templates tests docs",
    ),
    _capability(
        "customfields", "typed custom fields, documents' values and their filter",
        "api portal services models templates tests docs",
    ),
    _capability(
        "operations", "backups, tenant export, import and deletion, the internal tier",
        "api services models tests docs cli",
    ),
    _capability(
        "sharing", "share links: expiring, revocable public downloads of a document",
        "api portal services models templates tests docs",
    ),
    _capability(
        "analytics", "usage and content counters and their charts",
        "api services models tests docs jobs cli",
    ),
    _capability(
        "thumbnails", "each document's WebP thumbnail and the job that makes it",
        "api portal services models templates tests docs jobs cli",
    ),
    _capability(
        "views", "saved views of the documents list: filters, sort, columns",
        "api portal services models templates tests docs",
    ),
    _capability(
        "bulk", "bulk edits of documents as jobs, their progress",
        "api portal services models templates tests docs jobs",
    ),
    _capability(
        "mfa", "second factors: TOTP, recovery codes, requiring a second factor",
        "api portal services models templates tests docs",
    ),
    _capability(
        "matching", "matching rules run after extraction, the tag classifier",
        "api portal services models templates tests docs jobs",
    ),
    _capability(
        "mailaccounts", "IMAP mail accounts polled for documents, exactly once",
        "api portal services models templates tests docs jobs cli",
    ),
)  # fmt: skip


def having(layer: str) -> list[str]:
    """The names of the capabilities present in `layer`, in the table's order."""
    return [c.name for c in CAPABILITIES if layer in c.layers]
