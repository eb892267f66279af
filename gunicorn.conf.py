"""Production web server settings: `gunicorn wsgi:app` reads this file."""

import multiprocessing
import os

bind = os.environ.get("DMS_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("DMS_THREADS", "4"))
# Long uploads stream through the worker; do not kill it mid-body.
timeout = int(os.environ.get("DMS_WORKER_TIMEOUT", "300"))
# Above the app's own header limits (8 KiB each, 32 KiB total), so the app answers first,
# in the JSON envelope, instead of gunicorn's plain-text 400.
limit_request_field_size = 16 * 1024
limit_request_fields = 200
limit_request_line = 16 * 1024
# gunicorn 27 opens a control socket under ~/.gunicorn by default; we do not use it.
control_socket_disable = True
accesslog = None  # the app writes one structured JSON line per request
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def child_exit(server, worker):
    # Multi-process Prometheus metrics: forget a dead worker's live gauges.
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
