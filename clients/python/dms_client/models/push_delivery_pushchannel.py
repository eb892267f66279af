from enum import StrEnum


class PushDeliveryPushchannel(StrEnum):
    APNS = "apns"
    FCM = "fcm"
    WEBPUSH = "webpush"

    def __str__(self) -> str:
        return str(self.value)
