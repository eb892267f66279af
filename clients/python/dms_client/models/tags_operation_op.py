from enum import StrEnum


class TagsOperationOp(StrEnum):
    ADDTAGS = "addTags"
    REMOVETAGS = "removeTags"

    def __str__(self) -> str:
        return str(self.value)
