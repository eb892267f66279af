from enum import StrEnum


class SubmitOauthAuthorizationResponseType(StrEnum):
    CODE = "code"

    def __str__(self) -> str:
        return str(self.value)
