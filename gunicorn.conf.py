"""Production web server settings: `gunicorn wsgi:app` reads this file."""

import gc
import os

MiB = 1024 * 1024


def memory_bytes() -> int:
    """The memory this host gives us: the cgroup's limit when it sets one, else MemTotal."""
    try:
        with open("/sys/fs/cgroup/memory.max") as limit:
            value = limit.read().strip()
        if value != "max":
            return int(value)
    except (OSError, ValueError):
        pass
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def worker_count(cpus: int, memory: int, share: float, per_worker: int) -> int:
    """Web worker processes: one per CPU (a gthread worker's threads wait on I/O, so more
    processes than cores buy nothing but memory), and no more than `share` of the host's
    memory holds at `per_worker` bytes each; at least one. docs/operations.md, "Memory and
    workers"."""
    by_memory = int(memory * share) // per_worker if memory and per_worker else cpus
    return max(1, min(cpus, by_memory))


bind = os.environ.get("DMS_BIND", "127.0.0.1:8000")
# WEB_CONCURRENCY overrides the formula; DMS_WEB_MEMORY_SHARE and DMS_WORKER_MEMORY_MB tune it.
workers = int(
    os.environ.get("WEB_CONCURRENCY")
    or worker_count(
        os.cpu_count() or 1,
        memory_bytes(),
        float(os.environ.get("DMS_WEB_MEMORY_SHARE", "0.25")),
        int(os.environ.get("DMS_WORKER_MEMORY_MB", "64")) * MiB,
    )
)
threads = int(os.environ.get("DMS_THREADS", "8"))
# The app is built once, in the master, and the workers fork from it: its code and read-only
# data are shared copy-on-write (gc.freeze keeps the collector from writing to every object's
# header in each worker). Each worker forgets the connections the master made (post_fork).
# A HUP then restarts the workers on the master's code: deploy new code with a restart
# (docs/operations.md). DMS_PRELOAD=0 builds the app in each worker instead.
preload_app = os.environ.get("DMS_PRELOAD", "1") != "0"
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


def when_ready(server):
    # After the preloaded app is built, before the first fork: what exists now is shared.
    if preload_app:
        server.app.wsgi().warm()  # app.App.warm: templates and mappers, once for all
        gc.collect()
        gc.freeze()


def post_fork(server, worker):
    if preload_app:
        server.app.wsgi().after_fork()  # app.App.after_fork: no connection crosses a fork
