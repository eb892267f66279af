from enum import StrEnum


class PushSubscriptionCreatePlatform(StrEnum):
    ANDROID = "android"
    IOS = "ios"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
