from enum import StrEnum


class InvitationCreateRole(StrEnum):
    ADMIN = "admin"
    AUDITOR = "auditor"
    MEMBER = "member"

    def __str__(self) -> str:
        return str(self.value)
