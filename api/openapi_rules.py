"""How the OpenAPI document names and groups operations (docs/sdk.md), so that a client
generated from it reads well: the operationId is the view function's name in camelCase
(`upload_document` -> `uploadDocument`), the tag is the capability the path belongs to, and
`@operation(...)` overrides either where a function's name reads badly in an SDK."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# The first word of every operationId (tests/openapi checks it): verb, then noun.
VERBS = frozenset(
    {
        "accept", "add", "answer", "apply", "approve", "archive", "ask", "assign", "attach",
        "cancel", "close", "complete", "confirm", "copy", "count", "create", "decline", "delete",
        "detach", "disable", "download", "enable", "escalate", "exchange", "export", "finish",
        "generate", "get", "import", "invite", "issue", "link", "list", "mark", "merge",
        "move", "pause", "poll", "preview", "publish", "purge", "read", "refresh", "register",
        "reject", "remove", "reopen", "replay", "resend", "reset", "restore", "resume",
        "retry", "revoke", "rotate", "search", "send", "set", "sign", "start", "submit",
        "subscribe", "suggest", "summarize", "test", "unlink", "unsubscribe", "update", "upload",
        "validate", "verify", "withdraw",
    }
)  # fmt: skip
# camelCase with every word capitalised once, acronyms included (`getOpenapiDocument`), so
# generators that snake_case it get `get_openapi_document`, never `get_open_a_p_i_document`.
OPERATION_ID_RE = re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]+)+$")

# Path segment after /api/v1 (or the first one outside it) -> capability tag, where the
# segment is not already the capability's name.
TAG_OF_SEGMENT = {
    "auth": "sign-in",
    "login": "sign-in",
    "me": "sign-in",
    "entities": "knowledge-graph",  # the retired /api/v1/entities
    ".well-known": "oauth",
    "openapi.json": "reference",
    "share-links": "sharing",
    "share-link-settings": "sharing",
    "matching-rules": "matching",
}
TAG_DESCRIPTIONS = {
    "documents": "Upload, list, read, download, change and trash documents, and their versions.",
    "search": "Full-text search over the documents, with the document filters.",
    "workflows": "Approval workflows: definitions and the instances that run them.",
    "forms": "eForms (a JSON Schema of fields) and their submissions.",
    "knowledge-graph": "Entities, their relationships, and the documents that mention them.",
    "custom-fields": "A tenant's typed custom fields; documents carry their values.",
    "analytics": "Usage and content analytics.",
    "copilot": "Questions about the documents, answered with citations.",
    "notes": "Notes on documents, with `@email` mentions that notify people of the tenant.",
    "notifications": "A person's notifications (needs a user's access token).",
    "push": "Push subscriptions of a person's devices.",
    "webhooks": "Webhook endpoints, their deliveries, and the event catalogue.",
    "sign-in": "Password and passkey sign-in for first-party tools, and who the caller is.",
    "oauth": "OAuth 2.0 authorization code with PKCE (S256): authorize, token, revoke.",
    "sharing": "Share links: expiring, revocable downloads of one document without signing in.",
    "matching": "Matching rules run after extraction, and the tag classifier's suggestions.",
    "saved-views": "Saved views: named filters, sort and columns of the documents list.",
    "thumbnails": "Each document's thumbnail: a WebP picture of its current version.",
    "mail-accounts": "IMAP mail accounts polled for documents: their rules, a test, a poll now.",
    "reference": "This document.",
}


def operation(
    operation_id: str | dict[str, str] | None = None,
    *,
    summary: str | None = None,
    tag: str | None = None,
    takes_body: bool | None = None,
    listed: tuple[str, str] | None = None,
) -> Callable:
    """Override what the central rule would give a view (no runtime effect).

    `operation_id`: one name, or {method: name} for a view serving several methods;
    `takes_body=False` says a POST/PUT/PATCH has no request body on purpose; `listed`
    (method, path) documents a view that answers many routes and methods (a retired
    catch-all) once, as that one operation."""

    def decorator(view: Callable) -> Callable:
        doc: dict[str, Any] = view.__dict__.setdefault("api_doc", {})
        if operation_id is not None:
            doc["operation_id"] = operation_id
        if summary is not None:
            doc["summary"] = summary
        if tag is not None:
            doc["tag"] = tag
        if takes_body is not None:
            doc["takes_body"] = takes_body
        if listed is not None:
            doc["listed"] = listed
        return view

    return decorator


def operation_id(endpoint: str, method: str, methods: set[str], doc: dict) -> str:
    """The view's override, else its function name in camelCase; a view serving several
    methods without an override gets the method appended (`fooGet`, `fooPost`)."""
    given = doc.get("operation_id")
    if isinstance(given, dict):
        given = given.get(method)
    if given:
        return given
    name = camel_case(endpoint.rpartition(".")[2])
    if len(methods) > 1:
        name += method.capitalize()
    return name


def camel_case(snake: str) -> str:
    first, *rest = [w for w in re.split(r"[^A-Za-z0-9]+", snake) if w]
    return first.lower() + "".join(w.capitalize() for w in rest)


def humanize(operation_id: str) -> str:
    """`getDocumentContent` -> "Get document content": the summary when none is given."""
    words = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", operation_id)
    return " ".join([words[0].capitalize(), *(w.lower() for w in words[1:])])


def tag_of(path: str) -> str:
    parts = [p for p in path.split("/") if p and not p.startswith("{")]
    if parts[:2] == ["api", "v1"]:
        parts = parts[2:]
    if parts[:1] == ["beta"]:
        parts = parts[1:]
    segment = parts[0] if parts else "reference"
    return TAG_OF_SEGMENT.get(segment, segment)


def tags(used: set[str]) -> list[dict[str, str]]:
    """The top-level tag list: the capabilities in use, in a stable order."""
    return [
        {"name": name, "description": TAG_DESCRIPTIONS.get(name, f"The {name} capability.")}
        for name in sorted(used)
    ]
