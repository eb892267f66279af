"""Contains all the data models used in inputs/outputs"""

from .act_body import ActBody
from .algorithm import Algorithm
from .analytics_summary import AnalyticsSummary
from .analytics_summary_envelope import AnalyticsSummaryEnvelope
from .api_request_figures import ApiRequestFigures
from .approver import Approver
from .approver_ref import ApproverRef
from .approver_ref_role_type_0 import ApproverRefRoleType0
from .approver_role import ApproverRole
from .assertion_response_json import AssertionResponseJSON
from .attestation_response_json import AttestationResponseJSON
from .authentication_credential_json import AuthenticationCredentialJSON
from .authentication_credential_json_authenticator_attachment_type_0 import (
    AuthenticationCredentialJSONAuthenticatorAttachmentType0,
)
from .bulk_edit import BulkEdit
from .caller import Caller
from .caller_envelope import CallerEnvelope
from .caller_type import CallerType
from .citation import Citation
from .conversation import Conversation
from .conversation_envelope import ConversationEnvelope
from .conversation_summary import ConversationSummary
from .conversation_summary_list_envelope import ConversationSummaryListEnvelope
from .create_form_submission_files_body import CreateFormSubmissionFilesBody
from .create_form_submission_files_body_data import CreateFormSubmissionFilesBodyData
from .create_form_submission_json_body import CreateFormSubmissionJsonBody
from .create_form_submission_json_body_data import CreateFormSubmissionJsonBodyData
from .custom_field import CustomField
from .custom_field_create import CustomFieldCreate
from .custom_field_envelope import CustomFieldEnvelope
from .custom_field_list_envelope import CustomFieldListEnvelope
from .custom_field_option import CustomFieldOption
from .custom_field_option_in import CustomFieldOptionIn
from .custom_field_patch import CustomFieldPatch
from .custom_field_type import CustomFieldType
from .custom_fields_operation import CustomFieldsOperation
from .custom_fields_operation_custom_fields import CustomFieldsOperationCustomFields
from .definition_create import DefinitionCreate
from .definition_patch import DefinitionPatch
from .document import Document
from .document_custom_field import DocumentCustomField
from .document_entity import DocumentEntity
from .document_envelope import DocumentEnvelope
from .document_figures import DocumentFigures
from .document_figures_bycontenttype import DocumentFiguresBycontenttype
from .document_figures_bystatus import DocumentFiguresBystatus
from .document_list_envelope import DocumentListEnvelope
from .document_metadata import DocumentMetadata
from .document_patch import DocumentPatch
from .document_patch_custom_fields import DocumentPatchCustomFields
from .document_patch_metadata import DocumentPatchMetadata
from .document_selection import DocumentSelection
from .document_selection_sort import DocumentSelectionSort
from .document_source import DocumentSource
from .document_status import DocumentStatus
from .document_version import DocumentVersion
from .document_version_envelope import DocumentVersionEnvelope
from .document_version_list_envelope import DocumentVersionListEnvelope
from .document_with_entities import DocumentWithEntities
from .document_with_entities_envelope import DocumentWithEntitiesEnvelope
from .document_with_entities_metadata import DocumentWithEntitiesMetadata
from .document_workflow import DocumentWorkflow
from .entity import Entity
from .entity_create import EntityCreate
from .entity_create_properties import EntityCreateProperties
from .entity_envelope import EntityEnvelope
from .entity_list_envelope import EntityListEnvelope
from .entity_patch import EntityPatch
from .entity_patch_properties import EntityPatchProperties
from .entity_properties import EntityProperties
from .error import Error
from .error_envelope import ErrorEnvelope
from .form import Form
from .form_create import FormCreate
from .form_create_schema import FormCreateSchema
from .form_create_status import FormCreateStatus
from .form_envelope import FormEnvelope
from .form_list_envelope import FormListEnvelope
from .form_patch import FormPatch
from .form_patch_schema import FormPatchSchema
from .form_patch_status import FormPatchStatus
from .form_schema import FormSchema
from .get_analytics_usage_granularity import GetAnalyticsUsageGranularity
from .get_analytics_usage_metric import GetAnalyticsUsageMetric
from .get_oauth_authorization_code_challenge_method import (
    GetOauthAuthorizationCodeChallengeMethod,
)
from .get_oauth_authorization_response_type import GetOauthAuthorizationResponseType
from .get_oauth_server_metadata_response_200 import GetOauthServerMetadataResponse200
from .get_openapi_document_response_200 import GetOpenapiDocumentResponse200
from .highlight import Highlight
from .highlight_field import HighlightField
from .history_entry import HistoryEntry
from .history_entry_action import HistoryEntryAction
from .instance_create import InstanceCreate
from .invitation import Invitation
from .invitation_create import InvitationCreate
from .invitation_create_role import InvitationCreateRole
from .invitation_created import InvitationCreated
from .invitation_created_envelope import InvitationCreatedEnvelope
from .invitation_envelope import InvitationEnvelope
from .invitation_list_envelope import InvitationListEnvelope
from .issue_oauth_token_body import IssueOauthTokenBody
from .issue_oauth_token_body_grant_type import IssueOauthTokenBodyGrantType
from .issue_oauth_token_response_400 import IssueOauthTokenResponse400
from .issue_oauth_token_response_401 import IssueOauthTokenResponse401
from .issue_oauth_token_token_out import IssueOauthTokenTokenOut
from .job import Job
from .job_envelope import JobEnvelope
from .job_error import JobError
from .job_status import JobStatus
from .list_documents_sort import ListDocumentsSort
from .list_forms_status_type_0 import ListFormsStatusType0
from .list_meta import ListMeta
from .list_webhook_deliveries_status_type_0 import ListWebhookDeliveriesStatusType0
from .list_workflow_instances_state_type_0 import ListWorkflowInstancesStateType0
from .login_body import LoginBody
from .mail_account import MailAccount
from .mail_account_create import MailAccountCreate
from .mail_account_create_security import MailAccountCreateSecurity
from .mail_account_envelope import MailAccountEnvelope
from .mail_account_list_envelope import MailAccountListEnvelope
from .mail_account_patch import MailAccountPatch
from .mail_account_patch_security import MailAccountPatchSecurity
from .mail_account_test import MailAccountTest
from .mail_account_test_envelope import MailAccountTestEnvelope
from .mail_poll import MailPoll
from .mail_poll_envelope import MailPollEnvelope
from .mail_rule import MailRule
from .mail_rule_afterimport import MailRuleAfterimport
from .mail_rule_out import MailRuleOut
from .match_field import MatchField
from .matching_rule import MatchingRule
from .matching_rule_actions import MatchingRuleActions
from .matching_rule_actions_in import MatchingRuleActionsIn
from .matching_rule_actions_in_custom_fields import MatchingRuleActionsInCustomFields
from .matching_rule_actions_in_setmetadata import MatchingRuleActionsInSetmetadata
from .matching_rule_actions_setcustomfields import MatchingRuleActionsSetcustomfields
from .matching_rule_actions_setmetadata import MatchingRuleActionsSetmetadata
from .matching_rule_apply import MatchingRuleApply
from .matching_rule_create import MatchingRuleCreate
from .matching_rule_envelope import MatchingRuleEnvelope
from .matching_rule_list_envelope import MatchingRuleListEnvelope
from .matching_rule_match import MatchingRuleMatch
from .matching_rule_match_in import MatchingRuleMatchIn
from .matching_rule_patch import MatchingRulePatch
from .mention import Mention
from .mention_list_envelope import MentionListEnvelope
from .message import Message
from .message_create import MessageCreate
from .message_generator_type_0 import MessageGeneratorType0
from .message_role import MessageRole
from .meta import Meta
from .metadata_operation import MetadataOperation
from .metadata_operation_metadata import MetadataOperationMetadata
from .mfa_login_body import MfaLoginBody
from .mfa_settings import MfaSettings
from .mfa_settings_envelope import MfaSettingsEnvelope
from .mfa_settings_patch import MfaSettingsPatch
from .mfa_status import MfaStatus
from .mfa_status_envelope import MfaStatusEnvelope
from .neighbor import Neighbor
from .neighbor_properties import NeighborProperties
from .neighborhood import Neighborhood
from .neighborhood_envelope import NeighborhoodEnvelope
from .note import Note
from .note_author import NoteAuthor
from .note_author_type import NoteAuthorType
from .note_create import NoteCreate
from .note_envelope import NoteEnvelope
from .note_list_envelope import NoteListEnvelope
from .notification import Notification
from .notification_data import NotificationData
from .notification_envelope import NotificationEnvelope
from .notification_list_envelope import NotificationListEnvelope
from .pagination import Pagination
from .passkey import Passkey
from .passkey_authentication_options_body import PasskeyAuthenticationOptionsBody
from .passkey_authentication_verify_body import PasskeyAuthenticationVerifyBody
from .passkey_envelope import PasskeyEnvelope
from .passkey_options import PasskeyOptions
from .passkey_options_envelope import PasskeyOptionsEnvelope
from .passkey_options_publickey import PasskeyOptionsPublickey
from .passkey_registration_verify_body import PasskeyRegistrationVerifyBody
from .person import Person
from .push_delivery import PushDelivery
from .push_delivery_pushchannel import PushDeliveryPushchannel
from .push_delivery_status import PushDeliveryStatus
from .push_subscription import PushSubscription
from .push_subscription_create import PushSubscriptionCreate
from .push_subscription_create_device_token_type_1 import (
    PushSubscriptionCreateDeviceTokenType1,
)
from .push_subscription_create_device_token_type_1_keys import (
    PushSubscriptionCreateDeviceTokenType1Keys,
)
from .push_subscription_create_platform import PushSubscriptionCreatePlatform
from .push_subscription_envelope import PushSubscriptionEnvelope
from .push_subscription_list_envelope import PushSubscriptionListEnvelope
from .push_subscription_platform import PushSubscriptionPlatform
from .recovery_codes import RecoveryCodes
from .recovery_codes_envelope import RecoveryCodesEnvelope
from .registration_credential_json import RegistrationCredentialJSON
from .registration_credential_json_authenticator_attachment_type_0 import (
    RegistrationCredentialJSONAuthenticatorAttachmentType0,
)
from .relationship import Relationship
from .relationship_create import RelationshipCreate
from .relationship_create_properties import RelationshipCreateProperties
from .relationship_envelope import RelationshipEnvelope
from .relationship_list_envelope import RelationshipListEnvelope
from .relationship_properties import RelationshipProperties
from .replay import Replay
from .replay_body import ReplayBody
from .replay_envelope import ReplayEnvelope
from .restore_operation import RestoreOperation
from .revoke_oauth_token_body import RevokeOauthTokenBody
from .revoke_oauth_token_body_token_type_hint import RevokeOauthTokenBodyTokenTypeHint
from .revoke_oauth_token_response_200 import RevokeOauthTokenResponse200
from .revoke_oauth_token_response_400 import RevokeOauthTokenResponse400
from .revoke_oauth_token_response_401 import RevokeOauthTokenResponse401
from .saved_view import SavedView
from .saved_view_create import SavedViewCreate
from .saved_view_create_columns_item import SavedViewCreateColumnsItem
from .saved_view_create_filters import SavedViewCreateFilters
from .saved_view_create_sort import SavedViewCreateSort
from .saved_view_envelope import SavedViewEnvelope
from .saved_view_filters import SavedViewFilters
from .saved_view_list_envelope import SavedViewListEnvelope
from .saved_view_owner import SavedViewOwner
from .saved_view_owner_type import SavedViewOwnerType
from .saved_view_patch import SavedViewPatch
from .saved_view_patch_columns_item import SavedViewPatchColumnsItem
from .saved_view_patch_filters import SavedViewPatchFilters
from .saved_view_patch_sort import SavedViewPatchSort
from .search_hit import SearchHit
from .search_hit_list_envelope import SearchHitListEnvelope
from .search_hit_signals import SearchHitSignals
from .share_link import ShareLink
from .share_link_create import ShareLinkCreate
from .share_link_created import ShareLinkCreated
from .share_link_created_envelope import ShareLinkCreatedEnvelope
from .share_link_envelope import ShareLinkEnvelope
from .share_link_list_envelope import ShareLinkListEnvelope
from .sharing_settings import SharingSettings
from .sharing_settings_envelope import SharingSettingsEnvelope
from .sharing_settings_patch import SharingSettingsPatch
from .similar_document import SimilarDocument
from .similar_document_list_envelope import SimilarDocumentListEnvelope
from .source_type import SourceType
from .start_workflow_operation import StartWorkflowOperation
from .step import Step
from .step_mode import StepMode
from .step_out import StepOut
from .step_out_mode import StepOutMode
from .subject import Subject
from .subject_type import SubjectType
from .submission import Submission
from .submission_data import SubmissionData
from .submission_envelope import SubmissionEnvelope
from .submission_list_envelope import SubmissionListEnvelope
from .submit_oauth_authorization_code_challenge_method import (
    SubmitOauthAuthorizationCodeChallengeMethod,
)
from .submit_oauth_authorization_response_type import (
    SubmitOauthAuthorizationResponseType,
)
from .suggestion import Suggestion
from .suggestions import Suggestions
from .suggestions_envelope import SuggestionsEnvelope
from .tag_suggestion import TagSuggestion
from .tag_suggestions import TagSuggestions
from .tag_suggestions_envelope import TagSuggestionsEnvelope
from .tags_operation import TagsOperation
from .tags_operation_op import TagsOperationOp
from .tenant import Tenant
from .token import Token
from .token_envelope import TokenEnvelope
from .totp_code_body import TotpCodeBody
from .totp_setup import TotpSetup
from .totp_setup_envelope import TotpSetupEnvelope
from .trash_operation import TrashOperation
from .upload_document_body import UploadDocumentBody
from .upload_document_body_custom_fields import UploadDocumentBodyCustomFields
from .upload_document_body_metadata import UploadDocumentBodyMetadata
from .upload_document_version_body import UploadDocumentVersionBody
from .usage_point import UsagePoint
from .usage_point_list_envelope import UsagePointListEnvelope
from .web_push_key import WebPushKey
from .web_push_key_envelope import WebPushKeyEnvelope
from .webhook_attempt import WebhookAttempt
from .webhook_create import WebhookCreate
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_envelope import WebhookDeliveryEnvelope
from .webhook_delivery_list_envelope import WebhookDeliveryListEnvelope
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_envelope import WebhookEndpointEnvelope
from .webhook_endpoint_list_envelope import WebhookEndpointListEnvelope
from .webhook_endpoint_with_secret import WebhookEndpointWithSecret
from .webhook_endpoint_with_secret_envelope import WebhookEndpointWithSecretEnvelope
from .webhook_event_type import WebhookEventType
from .webhook_event_type_list_envelope import WebhookEventTypeListEnvelope
from .webhook_event_type_sample import WebhookEventTypeSample
from .webhook_figures import WebhookFigures
from .webhook_patch import WebhookPatch
from .workflow_definition import WorkflowDefinition
from .workflow_definition_envelope import WorkflowDefinitionEnvelope
from .workflow_definition_list_envelope import WorkflowDefinitionListEnvelope
from .workflow_figures import WorkflowFigures
from .workflow_figures_bystate import WorkflowFiguresBystate
from .workflow_instance import WorkflowInstance
from .workflow_instance_envelope import WorkflowInstanceEnvelope
from .workflow_instance_list_envelope import WorkflowInstanceListEnvelope
from .workflow_instance_state import WorkflowInstanceState

__all__ = (
    "ActBody",
    "Algorithm",
    "AnalyticsSummary",
    "AnalyticsSummaryEnvelope",
    "ApiRequestFigures",
    "Approver",
    "ApproverRef",
    "ApproverRefRoleType0",
    "ApproverRole",
    "AssertionResponseJSON",
    "AttestationResponseJSON",
    "AuthenticationCredentialJSON",
    "AuthenticationCredentialJSONAuthenticatorAttachmentType0",
    "BulkEdit",
    "Caller",
    "CallerEnvelope",
    "CallerType",
    "Citation",
    "Conversation",
    "ConversationEnvelope",
    "ConversationSummary",
    "ConversationSummaryListEnvelope",
    "CreateFormSubmissionFilesBody",
    "CreateFormSubmissionFilesBodyData",
    "CreateFormSubmissionJsonBody",
    "CreateFormSubmissionJsonBodyData",
    "CustomField",
    "CustomFieldCreate",
    "CustomFieldEnvelope",
    "CustomFieldListEnvelope",
    "CustomFieldOption",
    "CustomFieldOptionIn",
    "CustomFieldPatch",
    "CustomFieldType",
    "CustomFieldsOperation",
    "CustomFieldsOperationCustomFields",
    "DefinitionCreate",
    "DefinitionPatch",
    "Document",
    "DocumentCustomField",
    "DocumentEntity",
    "DocumentEnvelope",
    "DocumentFigures",
    "DocumentFiguresBycontenttype",
    "DocumentFiguresBystatus",
    "DocumentListEnvelope",
    "DocumentMetadata",
    "DocumentPatch",
    "DocumentPatchCustomFields",
    "DocumentPatchMetadata",
    "DocumentSelection",
    "DocumentSelectionSort",
    "DocumentSource",
    "DocumentStatus",
    "DocumentVersion",
    "DocumentVersionEnvelope",
    "DocumentVersionListEnvelope",
    "DocumentWithEntities",
    "DocumentWithEntitiesEnvelope",
    "DocumentWithEntitiesMetadata",
    "DocumentWorkflow",
    "Entity",
    "EntityCreate",
    "EntityCreateProperties",
    "EntityEnvelope",
    "EntityListEnvelope",
    "EntityPatch",
    "EntityPatchProperties",
    "EntityProperties",
    "Error",
    "ErrorEnvelope",
    "Form",
    "FormCreate",
    "FormCreateSchema",
    "FormCreateStatus",
    "FormEnvelope",
    "FormListEnvelope",
    "FormPatch",
    "FormPatchSchema",
    "FormPatchStatus",
    "FormSchema",
    "GetAnalyticsUsageGranularity",
    "GetAnalyticsUsageMetric",
    "GetOauthAuthorizationCodeChallengeMethod",
    "GetOauthAuthorizationResponseType",
    "GetOauthServerMetadataResponse200",
    "GetOpenapiDocumentResponse200",
    "Highlight",
    "HighlightField",
    "HistoryEntry",
    "HistoryEntryAction",
    "InstanceCreate",
    "Invitation",
    "InvitationCreate",
    "InvitationCreateRole",
    "InvitationCreated",
    "InvitationCreatedEnvelope",
    "InvitationEnvelope",
    "InvitationListEnvelope",
    "IssueOauthTokenBody",
    "IssueOauthTokenBodyGrantType",
    "IssueOauthTokenResponse400",
    "IssueOauthTokenResponse401",
    "IssueOauthTokenTokenOut",
    "Job",
    "JobEnvelope",
    "JobError",
    "JobStatus",
    "ListDocumentsSort",
    "ListFormsStatusType0",
    "ListMeta",
    "ListWebhookDeliveriesStatusType0",
    "ListWorkflowInstancesStateType0",
    "LoginBody",
    "MailAccount",
    "MailAccountCreate",
    "MailAccountCreateSecurity",
    "MailAccountEnvelope",
    "MailAccountListEnvelope",
    "MailAccountPatch",
    "MailAccountPatchSecurity",
    "MailAccountTest",
    "MailAccountTestEnvelope",
    "MailPoll",
    "MailPollEnvelope",
    "MailRule",
    "MailRuleAfterimport",
    "MailRuleOut",
    "MatchField",
    "MatchingRule",
    "MatchingRuleActions",
    "MatchingRuleActionsIn",
    "MatchingRuleActionsInCustomFields",
    "MatchingRuleActionsInSetmetadata",
    "MatchingRuleActionsSetcustomfields",
    "MatchingRuleActionsSetmetadata",
    "MatchingRuleApply",
    "MatchingRuleCreate",
    "MatchingRuleEnvelope",
    "MatchingRuleListEnvelope",
    "MatchingRuleMatch",
    "MatchingRuleMatchIn",
    "MatchingRulePatch",
    "Mention",
    "MentionListEnvelope",
    "Message",
    "MessageCreate",
    "MessageGeneratorType0",
    "MessageRole",
    "Meta",
    "MetadataOperation",
    "MetadataOperationMetadata",
    "MfaLoginBody",
    "MfaSettings",
    "MfaSettingsEnvelope",
    "MfaSettingsPatch",
    "MfaStatus",
    "MfaStatusEnvelope",
    "Neighbor",
    "NeighborProperties",
    "Neighborhood",
    "NeighborhoodEnvelope",
    "Note",
    "NoteAuthor",
    "NoteAuthorType",
    "NoteCreate",
    "NoteEnvelope",
    "NoteListEnvelope",
    "Notification",
    "NotificationData",
    "NotificationEnvelope",
    "NotificationListEnvelope",
    "Pagination",
    "Passkey",
    "PasskeyAuthenticationOptionsBody",
    "PasskeyAuthenticationVerifyBody",
    "PasskeyEnvelope",
    "PasskeyOptions",
    "PasskeyOptionsEnvelope",
    "PasskeyOptionsPublickey",
    "PasskeyRegistrationVerifyBody",
    "Person",
    "PushDelivery",
    "PushDeliveryPushchannel",
    "PushDeliveryStatus",
    "PushSubscription",
    "PushSubscriptionCreate",
    "PushSubscriptionCreateDeviceTokenType1",
    "PushSubscriptionCreateDeviceTokenType1Keys",
    "PushSubscriptionCreatePlatform",
    "PushSubscriptionEnvelope",
    "PushSubscriptionListEnvelope",
    "PushSubscriptionPlatform",
    "RecoveryCodes",
    "RecoveryCodesEnvelope",
    "RegistrationCredentialJSON",
    "RegistrationCredentialJSONAuthenticatorAttachmentType0",
    "Relationship",
    "RelationshipCreate",
    "RelationshipCreateProperties",
    "RelationshipEnvelope",
    "RelationshipListEnvelope",
    "RelationshipProperties",
    "Replay",
    "ReplayBody",
    "ReplayEnvelope",
    "RestoreOperation",
    "RevokeOauthTokenBody",
    "RevokeOauthTokenBodyTokenTypeHint",
    "RevokeOauthTokenResponse200",
    "RevokeOauthTokenResponse400",
    "RevokeOauthTokenResponse401",
    "SavedView",
    "SavedViewCreate",
    "SavedViewCreateColumnsItem",
    "SavedViewCreateFilters",
    "SavedViewCreateSort",
    "SavedViewEnvelope",
    "SavedViewFilters",
    "SavedViewListEnvelope",
    "SavedViewOwner",
    "SavedViewOwnerType",
    "SavedViewPatch",
    "SavedViewPatchColumnsItem",
    "SavedViewPatchFilters",
    "SavedViewPatchSort",
    "SearchHit",
    "SearchHitListEnvelope",
    "SearchHitSignals",
    "ShareLink",
    "ShareLinkCreate",
    "ShareLinkCreated",
    "ShareLinkCreatedEnvelope",
    "ShareLinkEnvelope",
    "ShareLinkListEnvelope",
    "SharingSettings",
    "SharingSettingsEnvelope",
    "SharingSettingsPatch",
    "SimilarDocument",
    "SimilarDocumentListEnvelope",
    "SourceType",
    "StartWorkflowOperation",
    "Step",
    "StepMode",
    "StepOut",
    "StepOutMode",
    "Subject",
    "SubjectType",
    "Submission",
    "SubmissionData",
    "SubmissionEnvelope",
    "SubmissionListEnvelope",
    "SubmitOauthAuthorizationCodeChallengeMethod",
    "SubmitOauthAuthorizationResponseType",
    "Suggestion",
    "Suggestions",
    "SuggestionsEnvelope",
    "TagSuggestion",
    "TagSuggestions",
    "TagSuggestionsEnvelope",
    "TagsOperation",
    "TagsOperationOp",
    "Tenant",
    "Token",
    "TokenEnvelope",
    "TotpCodeBody",
    "TotpSetup",
    "TotpSetupEnvelope",
    "TrashOperation",
    "UploadDocumentBody",
    "UploadDocumentBodyCustomFields",
    "UploadDocumentBodyMetadata",
    "UploadDocumentVersionBody",
    "UsagePoint",
    "UsagePointListEnvelope",
    "WebPushKey",
    "WebPushKeyEnvelope",
    "WebhookAttempt",
    "WebhookCreate",
    "WebhookDelivery",
    "WebhookDeliveryEnvelope",
    "WebhookDeliveryListEnvelope",
    "WebhookEndpoint",
    "WebhookEndpointEnvelope",
    "WebhookEndpointListEnvelope",
    "WebhookEndpointWithSecret",
    "WebhookEndpointWithSecretEnvelope",
    "WebhookEventType",
    "WebhookEventTypeListEnvelope",
    "WebhookEventTypeSample",
    "WebhookFigures",
    "WebhookPatch",
    "WorkflowDefinition",
    "WorkflowDefinitionEnvelope",
    "WorkflowDefinitionListEnvelope",
    "WorkflowFigures",
    "WorkflowFiguresBystate",
    "WorkflowInstance",
    "WorkflowInstanceEnvelope",
    "WorkflowInstanceListEnvelope",
    "WorkflowInstanceState",
)
