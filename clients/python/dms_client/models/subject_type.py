from enum import StrEnum


class SubjectType(StrEnum):
    DOCUMENT = "document"
    FORMSUBMISSION = "formSubmission"

    def __str__(self) -> str:
        return str(self.value)
