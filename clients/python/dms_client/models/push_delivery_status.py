from enum import StrEnum


class PushDeliveryStatus(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    UNCONFIGURED = "unconfigured"

    def __str__(self) -> str:
        return str(self.value)
