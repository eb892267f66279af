"""The data model, one module per capability (models/<capability>.py) beside the shared base
and the outbox. Importing this package registers every table."""

from models.accounts import (
    PLAN_LIMITS,
    Invitation,
    Plan,
    PortalSession,
    Role,
    SupportStaff,
    Tenant,
    User,
)
from models.analytics import AnalyticsCounter, AnalyticsTotal
from models.audit import AuditEntry, ImportedAuditEntry
from models.bulk import Job, JobStatus
from models.copilot import Conversation, CopilotUsage, Message
from models.customfields import CustomField, CustomFieldType, CustomFieldValue
from models.documents import Document, DocumentStatus, DocumentTag, DocumentVersion, TextStatus
from models.event import Event
from models.forms import Form, FormStatus, FormSubmission, FormVersion
from models.graph import Entity, EntityMention, EntityName, Relationship
from models.idempotency import IdempotencyRecord, IdempotencyState
from models.keys import SCOPES, ApiKey
from models.lifecycle import DeprecationNotice, DeprecationUsage
from models.mailaccounts import MailAccount, MailMessage, MailSecurity
from models.matching import MatchingRule, TagClassifier
from models.mfa import MfaChallenge, MfaSettings, RecoveryCode, TotpAuthenticator
from models.notes import Note
from models.notifications import Notification, NotificationSettings
from models.oauth import OAuthClient, OAuthCode, OAuthConsent, OAuthToken
from models.operations import OperatorRecord
from models.passkeys import Passkey
from models.push import Platform, PushChannel, PushDelivery, PushStatus, PushSubscription
from models.search import DocumentText, Passage
from models.semantic import DocumentEmbedding, EmbeddingStatus
from models.sharing import ShareLink, SharingSettings
from models.thumbnails import DocumentThumbnail, ThumbnailStatus
from models.views import SavedView
from models.webhooks import DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from models.workflows import (
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
    "CustomField",
    "CustomFieldType",
    "CustomFieldValue",
    "DeliveryStatus",
    "DeprecationNotice",
    "DeprecationUsage",
    "Document",
    "DocumentEmbedding",
    "DocumentStatus",
    "DocumentTag",
    "DocumentText",
    "DocumentThumbnail",
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
    "Invitation",
    "Job",
    "JobStatus",
    "MailAccount",
    "MailMessage",
    "MailSecurity",
    "MatchingRule",
    "Message",
    "MfaChallenge",
    "MfaSettings",
    "Note",
    "Notification",
    "NotificationSettings",
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
    "RecoveryCode",
    "Relationship",
    "Role",
    "SavedView",
    "ShareLink",
    "SharingSettings",
    "SupportStaff",
    "TagClassifier",
    "Tenant",
    "TextStatus",
    "ThumbnailStatus",
    "TotpAuthenticator",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WorkflowAction",
    "WorkflowCurrentApprover",
    "WorkflowDefinition",
    "WorkflowInstance",
]
