from enum import StrEnum


class ListWorkflowInstancesStateType0(StrEnum):
    APPROVED = "approved"
    CANCELLED = "cancelled"
    IN_PROGRESS = "in_progress"
    PENDING = "pending"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
