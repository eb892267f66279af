from enum import StrEnum


class GetOauthAuthorizationResponseType(StrEnum):
    CODE = "code"

    def __str__(self) -> str:
        return str(self.value)
