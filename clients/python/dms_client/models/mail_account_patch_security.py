from enum import StrEnum


class MailAccountPatchSecurity(StrEnum):
    NONE = "none"
    SSL = "ssl"
    STARTTLS = "starttls"

    def __str__(self) -> str:
        return str(self.value)
