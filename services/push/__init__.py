"""Push to people's devices (APNs, FCM, Web Push): their subscriptions, and the delivery of
each notification to each device through RQ jobs (docs/push.md). The notifications resource
embeds `wire.PushDeliveryOut` through `wire.deliveries_by_notification`."""

from services.push.wire import PushDeliveryOut, deliveries_by_notification

__all__ = ["PushDeliveryOut", "deliveries_by_notification"]
