from enum import StrEnum


class MailRuleAfterimport(StrEnum):
    DELETE = "delete"
    MARKREAD = "markRead"
    MOVE = "move"

    def __str__(self) -> str:
        return str(self.value)
