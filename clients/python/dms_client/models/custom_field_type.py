from enum import StrEnum


class CustomFieldType(StrEnum):
    BOOLEAN = "boolean"
    DATE = "date"
    DOCUMENTLINK = "documentLink"
    INTEGER = "integer"
    MONETARY = "monetary"
    NUMBER = "number"
    SELECT = "select"
    STRING = "string"

    def __str__(self) -> str:
        return str(self.value)
