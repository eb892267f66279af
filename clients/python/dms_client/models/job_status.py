from enum import StrEnum


class JobStatus(StrEnum):
    FAILED = "failed"
    PARTIALLY_FAILED = "partially_failed"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
