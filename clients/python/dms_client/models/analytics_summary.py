from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.api_request_figures import ApiRequestFigures
    from ..models.document_figures import DocumentFigures
    from ..models.webhook_figures import WebhookFigures
    from ..models.workflow_figures import WorkflowFigures


T = TypeVar("T", bound="AnalyticsSummary")


@_attrs_define
class AnalyticsSummary:
    """
    Attributes:
        api_requests (ApiRequestFigures):
        documents (DocumentFigures):
        storage_bytes (int): Bytes of every stored version of every document.
        webhooks (WebhookFigures):
        workflows (WorkflowFigures):
    """

    api_requests: ApiRequestFigures
    documents: DocumentFigures
    storage_bytes: int
    webhooks: WebhookFigures
    workflows: WorkflowFigures
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        api_requests = self.api_requests.to_dict()

        documents = self.documents.to_dict()

        storage_bytes = self.storage_bytes

        webhooks = self.webhooks.to_dict()

        workflows = self.workflows.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "apiRequests": api_requests,
                "documents": documents,
                "storageBytes": storage_bytes,
                "webhooks": webhooks,
                "workflows": workflows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_request_figures import ApiRequestFigures
        from ..models.document_figures import DocumentFigures
        from ..models.webhook_figures import WebhookFigures
        from ..models.workflow_figures import WorkflowFigures

        d = dict(src_dict)
        api_requests = ApiRequestFigures.from_dict(d.pop("apiRequests"))

        documents = DocumentFigures.from_dict(d.pop("documents"))

        storage_bytes = d.pop("storageBytes")

        webhooks = WebhookFigures.from_dict(d.pop("webhooks"))

        workflows = WorkflowFigures.from_dict(d.pop("workflows"))

        analytics_summary = cls(
            api_requests=api_requests,
            documents=documents,
            storage_bytes=storage_bytes,
            webhooks=webhooks,
            workflows=workflows,
        )

        analytics_summary.additional_properties = d
        return analytics_summary

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
