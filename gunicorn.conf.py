"""Production web server settings: `gunicorn wsgi:app` reads this file."""

import multiprocessing
import os

bind = os.environ.get("DMS_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("DMS_THREADS", "4"))
# gunicorn's threaded worker, whose refusals of what its parser cannot accept answer in the
# JSON envelope rather than in HTML (web_server.py).
worker_class = "web_server.EnvelopeThreadWorker"
# Long uploads stream through the worker; do not kill it mid-body.
timeout = int(os.environ.get("DMS_WORKER_TIMEOUT", "300"))
# Above the app's own limits (observability.py: a 16 KiB URL, 100 headers of 8 KiB and 32 KiB
# in all), so the app answers first, with its own codes and headers; past these, gunicorn
# refuses the request itself (in the envelope too, web_server.py). gunicorn caps a request
# line at 8190 bytes unless the limit is 0, which means "up to 1 MiB" (its fast parser's
# ceiling); the reverse proxy should keep its own tighter limits in front
# (docs/operations.md).
limit_request_line = 0
limit_request_field_size = 32 * 1024
limit_request_fields = 500
# gunicorn 27 opens a control socket under ~/.gunicorn by default; we do not use it.
control_socket_disable = True
accesslog = None  # the app writes one structured JSON line per request
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def child_exit(server, worker):
    # Multi-process Prometheus metrics: forget a dead worker's live gauges.
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
