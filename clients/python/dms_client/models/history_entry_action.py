from enum import StrEnum


class HistoryEntryAction(StrEnum):
    APPROVED = "approved"
    CANCELLED = "cancelled"
    ESCALATED = "escalated"
    REJECTED = "rejected"
    STALLED = "stalled"
    STARTED = "started"
    STEP_COMPLETED = "step_completed"

    def __str__(self) -> str:
        return str(self.value)
