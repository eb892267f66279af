from enum import StrEnum


class DocumentSelectionSort(StrEnum):
    CREATEDAT = "createdAt"
    TITLE = "title"
    UPDATEDAT = "updatedAt"
    VALUE_1 = "-createdAt"
    VALUE_3 = "-updatedAt"
    VALUE_5 = "-title"

    def __str__(self) -> str:
        return str(self.value)
