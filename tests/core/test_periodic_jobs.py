"""The self-booking chains (webhook and push reconcilers, recovery and workflow sweeps): a
worker's maintenance revives them after Redis lost them, and never starts a second chain
beside a living one, whatever the moment it looks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import clock

PREFIXES = ("webhooks-reconcile-", "recover-lost-work-", "workflows-sweep-", "push-reconcile-")
T0 = datetime(2026, 11, 23, 9, 0, 59, tzinfo=UTC)  # a second before a minute's boundary


def booked(prefix: str) -> list[str]:
    from rq.registry import ScheduledJobRegistry

    from services.core import queue

    return [
        j for j in ScheduledJobRegistry(queue=queue.queue()).get_job_ids() if j.startswith(prefix)
    ]


def flush_jobs() -> None:
    """Lose this test's queue's jobs as a Redis flush would (only ours: other test processes
    may share the Redis server)."""
    from rq.registry import ScheduledJobRegistry

    from services.core import queue

    registry = ScheduledJobRegistry(queue=queue.queue())
    for job_id in registry.get_job_ids():
        registry.remove(job_id, delete_job=True)
    queue.queue().empty()


def test_maintenance_revives_the_chains_after_a_flush(app):
    from jobs.worker import AppWorker
    from services.core import queue

    with app.app_context():
        flush_jobs()
        assert all(booked(p) == [] for p in PREFIXES)
        AppWorker.flask_app = app
        worker = AppWorker([queue.queue()], connection=queue.queue().connection)
        worker.run_maintenance_tasks()
        for prefix in PREFIXES:
            assert len(booked(prefix)) == 1, prefix


def test_a_living_chain_is_not_doubled_at_any_moment(app):
    from jobs import housekeeping

    with app.app_context():
        flush_jobs()
        clock.freeze(T0)
        housekeeping.ensure_scheduled()
        # Later looks, across the slot boundary and while the run waits: still one chain each.
        for seconds in (1, 2, 30, 59):
            clock.freeze(T0 + timedelta(seconds=seconds))
            housekeeping.ensure_scheduled()
        for prefix in PREFIXES:
            assert len(booked(prefix)) == 1, (prefix, booked(prefix))


def test_without_the_guard_the_boundary_would_start_a_second_chain(app):
    """What the guard prevents: booking unconditionally a second later books another slot."""
    from jobs import webhooks

    with app.app_context():
        flush_jobs()
        clock.freeze(T0)
        webhooks.schedule_reconcile()
        clock.freeze(T0 + timedelta(seconds=2))
        webhooks.schedule_reconcile()
        assert len(booked("webhooks-reconcile-")) == 2
