from enum import StrEnum


class ApproverRefRoleType0(StrEnum):
    ADMIN = "admin"
    AUDITOR = "auditor"
    MEMBER = "member"

    def __str__(self) -> str:
        return str(self.value)
