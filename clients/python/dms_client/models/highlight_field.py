from enum import StrEnum


class HighlightField(StrEnum):
    TEXT = "text"
    TITLE = "title"

    def __str__(self) -> str:
        return str(self.value)
