from enum import StrEnum


class MailAccountCreateSecurity(StrEnum):
    NONE = "none"
    SSL = "ssl"
    STARTTLS = "starttls"

    def __str__(self) -> str:
        return str(self.value)
