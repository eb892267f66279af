"""Pessimistic disconnect handling that costs a round trip only when it can matter.

SQLAlchemy's `pool_pre_ping` pings on every checkout: one extra round trip per request, as
long as a short query takes. A connection that went back to the pool a moment ago is alive
with near certainty; one that sat idle may have been closed by a server restart, a
firewall or an idle timeout. So this pings on checkout only when the connection has been
idle for `idle_seconds` or more, and a failed ping makes the pool replace the connection
(DisconnectionError), as pre-ping does. A server restart under traffic can still fail the
requests that already hold a connection; SQLAlchemy then invalidates the rest of the pool
at the first such error."""

from __future__ import annotations

import time

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine

_CHECKED_IN = "dms_checked_in_at"


def install(engine: Engine, idle_seconds: float) -> None:
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection, record) -> None:
        record.info[_CHECKED_IN] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection, record, _proxy) -> None:
        returned = record.info.get(_CHECKED_IN)
        if returned is None or time.monotonic() - returned < idle_seconds:
            return  # new, or back in the pool a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            raise exc.DisconnectionError("the pooled connection did not answer") from error
