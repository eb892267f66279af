"""Workflows in the portal: definitions for admins (the list with how many instances of each
are running, creating or editing one in a form of steps (add, remove, reorder; approvers
picked from people, e-mails or roles) with the JSON as an advanced view, validated by the API's
own request model in services/workflows/wire.py and by the service, each error in our words
beside its field; auditors read), and approvals (the inbox of what waits
for the signed-in person with the document's title and a preview of its text, an instance's
page with its history as a timeline, approve / reject with a comment (htmx; plain forms
without JavaScript) or cancel by the starter or an admin). The same services as the API
(services/workflows)."""

from portal.workflows import approvals, definitions  # noqa: F401  (they attach their views)
