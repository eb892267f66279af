from enum import StrEnum


class GetAnalyticsUsageMetric(StrEnum):
    APIREQUESTS = "apiRequests"
    DOCUMENTS = "documents"
    STORAGEBYTES = "storageBytes"
    UPLOADS = "uploads"
    WEBHOOKDELIVERIES = "webhookDeliveries"
    WEBHOOKDELIVERIESFAILED = "webhookDeliveriesFailed"
    WORKFLOWCYCLEHOURS = "workflowCycleHours"
    WORKFLOWSFINISHED = "workflowsFinished"

    def __str__(self) -> str:
        return str(self.value)
