from enum import StrEnum


class ListWebhookDeliveriesStatusType0(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
