"""The data model, one module per aggregate. Importing this package registers every table."""

from models.analytics import AnalyticsCounter, AnalyticsTotal
from models.api_key import SCOPES, ApiKey
from models.audit import AuditEntry
from models.copilot import Conversation, CopilotUsage, Message
from models.deprecation import DeprecationNotice, DeprecationUsage
from models.document import Document, DocumentStatus, DocumentTag, DocumentVersion, TextStatus
from models.document_embedding import DocumentEmbedding, EmbeddingStatus
from models.document_text import DocumentText
from models.event import Event
from models.form import Form, FormStatus, FormSubmission, FormVersion
from models.graph import Entity, EntityMention, EntityName, Relationship
from models.idempotency import IdempotencyRecord, IdempotencyState
from models.imported_audit import ImportedAuditEntry
from models.notification import Notification
from models.oauth import OAuthClient, OAuthCode, OAuthConsent, OAuthToken
from models.operator_log import OperatorRecord
from models.passage import Passage
from models.passkey import Passkey
from models.portal_session import PortalSession
from models.push import Platform, PushChannel, PushDelivery, PushStatus, PushSubscription
from models.tenant import PLAN_LIMITS, Plan, Tenant
from models.user import Role, SupportStaff, User
from models.webhook import DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from models.workflow import (
    InstanceState,
    WorkflowAction,
    WorkflowCurrentApprover,
    WorkflowDefinition,
    WorkflowInstance,
)

__all__ = [
    "PLAN_LIMITS",
    "SCOPES",
    "AnalyticsCounter",
    "AnalyticsTotal",
    "ApiKey",
    "AuditEntry",
    "Conversation",
    "CopilotUsage",
    "DeliveryStatus",
    "DeprecationNotice",
    "DeprecationUsage",
    "Document",
    "DocumentEmbedding",
    "DocumentStatus",
    "DocumentTag",
    "DocumentText",
    "DocumentVersion",
    "EmbeddingStatus",
    "Entity",
    "EntityMention",
    "EntityName",
    "Event",
    "Form",
    "FormStatus",
    "FormSubmission",
    "FormVersion",
    "IdempotencyRecord",
    "IdempotencyState",
    "ImportedAuditEntry",
    "InstanceState",
    "Message",
    "Notification",
    "OAuthClient",
    "OAuthCode",
    "OAuthConsent",
    "OAuthToken",
    "OperatorRecord",
    "Passage",
    "Passkey",
    "Plan",
    "Platform",
    "PortalSession",
    "PushChannel",
    "PushDelivery",
    "PushStatus",
    "PushSubscription",
    "Relationship",
    "Role",
    "SupportStaff",
    "Tenant",
    "TextStatus",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WorkflowAction",
    "WorkflowCurrentApprover",
    "WorkflowDefinition",
    "WorkflowInstance",
]
