"""In-process signals between capabilities (blinker, which Flask itself uses): a capability
announces what happened to its rows; another that keeps something derived from them (search
keeps the text index) subscribes, without the first importing the second. Receivers run
synchronously, in the sender's unit of work; work that must wait for the commit registers
itself with `transaction.after_commit`.

Who subscribes: services/search/subscriptions.py, services/webhooks/subscriptions.py,
services/notifications/subscriptions.py, services/push/subscriptions.py,
services/workflows/subscriptions.py, services/graph/subscriptions.py and
services/analytics/subscriptions.py (connected by create_app)."""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

# sender: the Document. New content is stored (upload or new version); its text is stale.
document_content_changed = _signals.signal("document-content-changed")
# sender: the Document; changed=[...] names the fields ("title", "tags", "metadata", "status").
document_fields_changed = _signals.signal("document-fields-changed")
# sender: the document id; tenant_id=... The rows are being deleted for good (trash purge).
document_purged = _signals.signal("document-purged")
# sender: the Document, whose extracted text was just stored, in the extraction's unit of work.
document_text_changed = _signals.signal("document-text-changed")
# sender: the Document; previous=(status, content_type) before the change (None: it is new),
# stored_bytes=the size of content stored by this change (0 for a status change).
document_state_changed = _signals.signal("document-state-changed")
# sender: the Document, a note of which was just added or deleted (search reindexes it).
document_notes_changed = _signals.signal("document-notes-changed")
# sender: the Event, just written to the outbox in the caller's unit of work (events.emit).
event_emitted = _signals.signal("event-emitted")
# sender: the WebhookDelivery, just closed as failed (schedule spent, 410, or failing for days).
webhook_delivery_failed = _signals.signal("webhook-delivery-failed")
# sender: the WebhookDelivery, just closed (status succeeded or failed, completed_at set).
webhook_delivery_closed = _signals.signal("webhook-delivery-closed")
# sender: the WebhookDelivery, closed before and open again (a retry); previous_status=...,
# previous_completed_at=... say how it had closed.
webhook_delivery_reopened = _signals.signal("webhook-delivery-reopened")
# sender: the WebhookEndpoint, about to be deleted with its deliveries.
webhook_endpoint_deleting = _signals.signal("webhook-endpoint-deleting")
# sender: the WebhookEndpoint, just disabled by the system; reason=... says why.
webhook_endpoint_disabled = _signals.signal("webhook-endpoint-disabled")
# sender: the Notification, just written in the caller's unit of work (push delivers it).
notification_created = _signals.signal("notification-created")
# sender: the WorkflowInstance, whose state just changed; previous=its state before (None: new).
workflow_instance_state_changed = _signals.signal("workflow-instance-state-changed")
# sender: the User, whose role or active state just changed (or who was just created).
user_access_changed = _signals.signal("user-access-changed")
