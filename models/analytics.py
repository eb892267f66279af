"""Analytics aggregates: counters per hour and per day, and running totals, per tenant.

Kept as things happen (services/analytics/counting.py writes them in the transaction of the
change) and recomputable from the records (`flask analytics rebuild`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import UTCDateTime


class AnalyticsCounter(db.Model):
    """How much of `metric` (for `dimension`: a status, an API key, or '') happened in the
    hour or day starting at `bucket`. `origin` says where a rebuild gets it from: `records`
    rows are recomputed from the tables; `kept` rows are what no record holds any more
    (purged documents, deleted webhook endpoints, API requests) and a rebuild keeps them."""

    __tablename__ = "analytics_counters"

    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    metric: Mapped[str] = mapped_column(String(40), primary_key=True)
    dimension: Mapped[str] = mapped_column(String(200), primary_key=True)
    granularity: Mapped[str] = mapped_column(String(4), primary_key=True)  # hour | day
    bucket: Mapped[datetime] = mapped_column(UTCDateTime(), primary_key=True)
    origin: Mapped[str] = mapped_column(String(8), primary_key=True)  # records | kept
    value: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)


class AnalyticsTotal(db.Model):
    """A figure as it stands now (documents by status and by content type, storage bytes,
    workflow instances by state): what the summary reads without counting rows."""

    __tablename__ = "analytics_totals"

    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    metric: Mapped[str] = mapped_column(String(40), primary_key=True)
    dimension: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
