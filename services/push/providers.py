"""Which provider serves a channel, with the operator's settings (config.py, docs/push.md); a
channel whose settings are missing answers UNCONFIGURED instead of failing loudly."""

from __future__ import annotations

import time

from flask import current_app

from models.push import PushChannel
from services.push import apns, devices, fcm, webpush
from services.push.credentials import ApnsSettings, FcmSettings
from services.push.payloads import Answer, Message, Verdict
from services.push.webpush import VapidSettings


def apns_settings() -> ApnsSettings | None:
    c = current_app.config
    values = (
        c["DMS_APNS_KEY_PATH"],
        c["DMS_APNS_KEY_ID"],
        c["DMS_APNS_TEAM_ID"],
        c["DMS_APNS_TOPIC"],
    )
    if not all(values):
        return None
    return ApnsSettings(c["DMS_APNS_URL"], *values)


def fcm_settings() -> FcmSettings | None:
    c = current_app.config
    if not c["DMS_FCM_CREDENTIALS"]:
        return None
    return FcmSettings(c["DMS_FCM_URL"], c["DMS_FCM_CREDENTIALS"], c["DMS_FCM_PROJECT_ID"])


def vapid_settings() -> VapidSettings | None:
    c = current_app.config
    if not (c["DMS_VAPID_PRIVATE_KEY"] and c["DMS_VAPID_SUBJECT"]):
        return None
    return VapidSettings(c["DMS_VAPID_PRIVATE_KEY"], c["DMS_VAPID_SUBJECT"])


def send(channel: str, token: str, message: Message) -> Answer:
    """One push through the channel's provider; never raises for what the provider does (an
    unreadable key or service-account file is a FAILED answer naming it)."""
    try:
        return _send(channel, token, message)
    except (OSError, ValueError, KeyError) as exc:
        return Answer(Verdict.FAILED, f"push settings unusable: {type(exc).__name__}: {exc}"[:500])


def _send(channel: str, token: str, message: Message) -> Answer:
    unconfigured = Answer(Verdict.UNCONFIGURED, f"{channel} is not configured on this server")
    if channel == PushChannel.APNS:
        settings = apns_settings()
        return apns.send(settings, token, message, time.time()) if settings else unconfigured
    if channel == PushChannel.FCM:
        settings = fcm_settings()
        return fcm.send(settings, token, message) if settings else unconfigured
    if channel == PushChannel.WEBPUSH:
        settings = vapid_settings()
        if settings is None:
            return unconfigured
        return webpush.send(settings, token, message, devices.options())
    return Answer(Verdict.FAILED, f"unknown push channel {channel!r}")
