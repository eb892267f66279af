from enum import StrEnum


class MatchField(StrEnum):
    CONTENT = "content"
    FILENAME = "filename"
    TITLE = "title"

    def __str__(self) -> str:
        return str(self.value)
