from enum import StrEnum


class SavedViewPatchColumnsItem(StrEnum):
    CREATED = "created"
    FILENAME = "filename"
    MODIFIED = "modified"
    SIZE = "size"
    SOURCE = "source"
    STATUS = "status"
    TAGS = "tags"
    TITLE = "title"
    TYPE = "type"

    def __str__(self) -> str:
        return str(self.value)
