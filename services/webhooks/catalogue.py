"""The event types an endpoint can subscribe to, each with what fires it and a sample payload
(published at GET /api/v1/webhooks/event-types). Receivers must tolerate types added later
(spec 6.2): an endpoint subscribed to `*` gets them without a change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TEST_EVENT = "webhook.test"
WILDCARD = "*"

_DOCUMENT = {
    "id": "doc_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "title": "Q3 report",
    "filename": "q3.pdf",
    "contentType": "application/pdf",
    "size": 48213,
    "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "status": "active",
    "tags": ["finance"],
    "metadata": {"quarter": "Q3"},
    "textStatus": "pending",
    "textError": None,
    "textTruncated": False,
    "currentVersion": 1,
    "createdBy": "key_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "createdAt": "2026-11-21T10:00:00Z",
    "updatedAt": "2026-11-21T10:00:00Z",
    "deletedAt": None,
    "customFields": [
        {"fieldId": "cfd_01jf3x9k2m4n5p6q7r8s9t0v1w", "name": "Invoice total",
         "value": {"currency": "EUR", "amount": "1250.00"}},
    ],
    "source": {"type": "api"},
}  # fmt: skip

_CUSTOM_FIELD = {
    "id": "cfd_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "name": "Invoice total",
    "dataType": "monetary",
    "options": [],
    "createdAt": "2026-11-21T10:00:00Z",
    "updatedAt": "2026-11-21T10:00:00Z",
}

_SAVED_VIEW = {
    "id": "svw_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "name": "Finance this quarter",
    "filters": {"tag": ["finance"], "createdAfter": "2026-10-01T00:00:00Z"},
    "sort": "-createdAt",
    "columns": ["title", "tags", "created", "source"],
    "shared": True,
    "owner": {"type": "user", "id": "usr_01jf3x9k2m4n5p6q7r8s9t0v1w"},
    "createdAt": "2026-11-21T10:00:00Z",
    "updatedAt": "2026-11-21T10:00:00Z",
}


_INSTANCE = {
    "id": "wfi_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "definitionId": "wfd_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "definitionVersion": 1,
    "subject": {"type": "document", "id": "doc_01jf3x9k2m4n5p6q7r8s9t0v1w"},
    "state": "pending",
    "currentStep": 0,
    "currentStepName": "Managers",
    "currentApprovers": [
        {"id": "usr_01jf3x9k2m4n5p6q7r8s9t0v1w", "email": "ann@acme.example", "name": "Ann"}
    ],
    "stepDueAt": None,
    "stalledReason": None,
    "history": [
        {
            "at": "2026-11-21T10:00:00Z",
            "actor": "key:key_01jf3x9k2m4n5p6q7r8s9t0v1w",
            "actorLabel": "CI uploads",
            "action": "started",
            "step": None,
            "comment": None,
        }
    ],
    "createdAt": "2026-11-21T10:00:00Z",
    "updatedAt": "2026-11-21T10:00:00Z",
    "completedAt": None,
}

_NOTE = {
    "id": "not_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "documentId": "doc_01jf3x9k2m4n5p6q7r8s9t0v1w",
    "body": "@ann@acme.example please check the totals on page 3.",
    "author": {
        "type": "user",
        "id": "usr_01jf3xa0000000000000000000",
        "email": "bob@acme.example",
        "name": "Bob",
    },
    "mentions": ["usr_01jf3x9k2m4n5p6q7r8s9t0v1w"],
    "createdAt": "2026-11-22T09:00:00Z",
}


@dataclass(frozen=True)
class EventType:
    name: str
    description: str
    sample: dict[str, Any]


CATALOGUE: tuple[EventType, ...] = (
    EventType("document.created", "A document was uploaded.", {"document": _DOCUMENT}),
    EventType(
        "document.updated",
        "A document's content, title, tags, metadata, status or custom field values changed.",
        {"document": _DOCUMENT, "changes": ["title"]},
    ),
    EventType(
        "document.deleted",
        "A document was moved to the trash.",
        {
            "document": {**_DOCUMENT, "status": "deleted", "deletedAt": "2026-11-22T09:00:00Z"},
            "deletedBy": "key:key_01jf3x9k2m4n5p6q7r8s9t0v1w",
        },
    ),
    EventType("note.created", "A note was written on a document.", {"note": _NOTE}),
    EventType("saved_view.created", "A saved view was made.", {"savedView": _SAVED_VIEW}),
    EventType(
        "saved_view.updated",
        "A saved view's name, filters, sort, columns or sharing changed.",
        {"savedView": _SAVED_VIEW},
    ),
    EventType(
        "saved_view.deleted",
        "A saved view was deleted by its owner or (a shared one) an admin.",
        {"savedView": _SAVED_VIEW},
    ),
    EventType("note.deleted", "A note was deleted by its author or an admin.", {"note": _NOTE}),
    EventType(
        "custom_field.created",
        "An admin or an integration added a custom field.",
        {"customField": _CUSTOM_FIELD},
    ),
    EventType(
        "custom_field.updated",
        "A custom field was renamed, its options or its data type changed.",
        {"customField": {**_CUSTOM_FIELD, "name": "Total"}, "changes": ["name"]},
    ),
    EventType(
        "custom_field.deleted",
        "A custom field was deleted, and every document's value of it with it.",
        {"customField": _CUSTOM_FIELD, "valuesRemoved": 12},
    ),
    EventType(
        "api_key.created",
        "An API key was created.",
        {
            "keyId": "key_01jf3x9k2m4n5p6q7r8s9t0v1w",
            "name": "CI uploads",
            "scopes": ["documents:write"],
            "allowedIps": [],
        },
    ),
    EventType(
        "api_key.rotated",
        "An API key got a successor; the old key stays valid until it is revoked.",
        {
            "keyId": "key_01jf3x9k2m4n5p6q7r8s9t0v1w",
            "successorId": "key_01jf3xa0000000000000000000",
        },
    ),
    EventType(
        "api_key.revoked",
        "An API key was revoked; it is refused from the next request.",
        {"keyId": "key_01jf3x9k2m4n5p6q7r8s9t0v1w"},
    ),
    EventType(
        "api.deprecation_notice",
        "The tenant used a deprecated endpoint or field (at most once per item and day).",
        {
            "item": "login-form",
            "endpoint": "POST /api/v1/login (form-encoded)",
            "credential": {"id": "usr_01jf3x9k2m4n5p6q7r8s9t0v1w", "type": "user", "name": "a@b.c"},
            "deprecatedAt": "2026-05-01",
            "sunset": "2027-01-01",
            "replacement": "POST /api/v1/login (JSON)",
            "migrationGuide": "/docs/migrations/login-form",
        },
    ),
    *(
        EventType(f"workflow.instance.{name}", description, {"instance": _INSTANCE, **extra})
        for name, description, extra in (
            ("created", "An approval workflow was started on a document or submission.", {}),
            ("step_completed", "A step of a workflow was approved.", {"step": 0}),
            ("approved", "A workflow's last step was approved.", {}),
            ("rejected", "An approver rejected a workflow.", {}),
            ("cancelled", "A workflow was cancelled by its starter or an admin.", {}),
            (
                "escalated",
                "A step was overdue, or nobody could act: its escalateTo approver was added.",
                {"step": 0, "reason": "The step was due at 2026-11-22T09:00:00Z."},
            ),
        )
    ),
    EventType(
        "notification.created",
        "A person of the tenant got a notification (it is also pushed to their devices).",
        {
            "notification": {
                "id": "ntf_01jf3x9k2m4n5p6q7r8s9t0v1w",
                "userId": "usr_01jf3x9k2m4n5p6q7r8s9t0v1w",
                "type": "webhook.endpoint_disabled",
                "title": "Webhook endpoint disabled",
                "body": "https://example.com/hooks answered 410 Gone; deliveries stopped.",
                "data": {"webhookId": "whk_01jf3x9k2m4n5p6q7r8s9t0v1w"},
                "createdAt": "2026-11-22T09:00:00Z",
            }
        },
    ),
    EventType(
        "form.submission.created",
        "Someone submitted a published form (through the API or its public page).",
        {
            "submission": {
                "id": "sub_01jf3x9k2m4n5p6q7r8s9t0v1w",
                "formId": "frm_01jf3x9k2m4n5p6q7r8s9t0v1w",
                "formVersion": 2,
                "data": {
                    "name": "Ada Lovelace",
                    "amount": 120,
                    "receipt": "doc_01jf3x9k2m4n5p6q7r8s9t0v1w",
                },
                "submittedBy": "public",
                "documentIds": ["doc_01jf3x9k2m4n5p6q7r8s9t0v1w"],
                "workflowInstanceId": "wfi_01jf3x9k2m4n5p6q7r8s9t0v1w",
                "createdAt": "2026-11-21T10:00:00Z",
            },
            "form": {"id": "frm_01jf3x9k2m4n5p6q7r8s9t0v1w", "name": "Expense claim", "version": 2},
        },
    ),
    EventType(
        "share_link.downloaded",
        "Someone downloaded a document through one of its share links (its public page).",
        {
            "shareLinkId": "shl_01jf3x9k2m4n5p6q7r8s9t0v1w",
            "documentId": "doc_01jf3x9k2m4n5p6q7r8s9t0v1w",
            "version": 1,
            "downloads": 2,
            "maxDownloads": 5,
            "at": "2026-11-22T09:00:00Z",
        },
    ),
    EventType(
        "matching_rules.applied",
        "Matching rules changed a document (after its extraction, or one rule applied by a "
        "job): each rule and what it did; the change also emits document.updated.",
        {
            "documentId": "doc_01jf3x9k2m4n5p6q7r8s9t0v1w",
            "rules": [
                {
                    "id": "mrl_01jf3x9k2m4n5p6q7r8s9t0v1w",
                    "name": "Invoices",
                    "actions": {"addedTags": ["invoice"], "metadata": ["supplier"]},
                }
            ],
        },
    ),
    EventType(
        TEST_EVENT,
        "Sent by POST /api/v1/webhooks/{id}/test to that endpoint only.",
        {"message": "This is a test event from the Document Management Service."},
    ),
)

EVENT_TYPES = frozenset(t.name for t in CATALOGUE)
# Sent to one endpoint on request, never fanned out to subscribers.
DIRECT_ONLY = frozenset({TEST_EVENT})
