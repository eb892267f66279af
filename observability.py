"""Request ids, structured JSON request logs and Prometheus metrics, wired by `init_app`."""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid

from flask import Flask, current_app, g, request
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

import tenancy
from errors import DomainError

_REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
# The app's own request limits, answered in the envelope (docs/operations.md lists them);
# gunicorn.conf.py sets the server's limits above these, so the app is the one that answers.
MAX_HEADER_BYTES = 8 * 1024
MAX_HEADERS_TOTAL = 32 * 1024
MAX_HEADER_COUNT = 100
MAX_URL_BYTES = 16 * 1024  # path and query string

request_log = logging.getLogger("dms.request")


class JsonFormatter(logging.Formatter):
    """One JSON object per line; `extra=` fields are merged in."""

    _STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in self._STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_logging(app: Flask) -> None:
    """Attach one JSON handler to the `dms` logger (idempotent across app instances)."""
    logger = logging.getLogger("dms")
    logger.setLevel(app.config["DMS_LOG_LEVEL"])
    if app.config["DMS_LOG_JSON"] and not any(
        getattr(h, "dms_json", False) for h in logger.handlers
    ):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler.dms_json = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "dms_http_requests",
            "HTTP requests answered",
            ["endpoint", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "dms_http_request_duration_seconds",
            "Time to answer an HTTP request",
            ["endpoint", "method"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )


def metrics_text() -> bytes:
    """This process's metrics; with PROMETHEUS_MULTIPROC_DIR set (gunicorn with several
    workers), the sum over every worker, so a scrape does not depend on which one answers."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(current_app.extensions["dms.metrics"].registry)


def init_app(app: Flask) -> None:
    app.extensions["dms.metrics"] = Metrics()
    configure_logging(app)

    @app.before_request
    def start_request() -> None:
        g.started = time.perf_counter()
        incoming = request.headers.get("X-Request-Id", "")
        g.request_id = incoming if _REQUEST_ID_RE.match(incoming) else f"req_{uuid.uuid4().hex}"
        _check_request_size()

    @app.after_request
    def finish_request(response):
        response.headers["X-Request-Id"] = g.get("request_id", "")
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        endpoint = request.endpoint or "unmatched"
        metrics: Metrics = current_app.extensions["dms.metrics"]
        metrics.requests.labels(endpoint, request.method, str(response.status_code)).inc()
        metrics.latency.labels(endpoint, request.method).observe(elapsed)
        if not request.path.startswith("/static/"):
            path = tenancy.loggable_path()
            tenant = g.get("tenant")
            credential = g.get("credential")
            request_log.info(
                "%s %s %s",
                request.method,
                path,
                response.status_code,
                extra={
                    "request_id": g.get("request_id"),
                    "method": request.method,
                    "path": path,
                    "status": response.status_code,
                    "latency_ms": round(elapsed * 1000, 2),
                    "tenant": tenant.id if tenant is not None else None,
                    "credential": credential.id if credential is not None else None,
                    "ip": g.get("client_ip") or request.remote_addr,
                },
            )
        return response


def _check_request_size() -> None:
    environ = request.environ
    url_bytes = len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", ""))
    if url_bytes > MAX_URL_BYTES:
        raise DomainError(
            414, "URI_TOO_LONG", f"The path and query are limited to {MAX_URL_BYTES} bytes."
        )
    total = 0
    for count, (name, value) in enumerate(request.headers.items(), start=1):
        size = len(name) + len(value)
        total += size
        if size > MAX_HEADER_BYTES or total > MAX_HEADERS_TOTAL:
            raise DomainError(431, "HEADERS_TOO_LARGE", f"Request header {name} is too large.")
        if count > MAX_HEADER_COUNT:
            raise DomainError(
                431, "HEADERS_TOO_LARGE", f"A request may carry {MAX_HEADER_COUNT} headers."
            )
