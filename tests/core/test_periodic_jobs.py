"""The self-booking chains (webhook and push reconcilers, recovery and workflow sweeps): a
worker's maintenance revives them after Redis lost them, and never starts a second chain
beside a living one, whatever the moment it looks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import clock
from tests.helpers import forget_jobs

PREFIXES = ("webhooks-reconcile-", "recover-lost-work-", "workflows-sweep-", "push-reconcile-")
T0 = datetime(2026, 11, 23, 9, 0, 59, tzinfo=UTC)  # a second before a minute's boundary


def booked(prefix: str) -> list[str]:
    from rq.registry import ScheduledJobRegistry

    from services.core import queue

    return [
        j for j in ScheduledJobRegistry(queue=queue.queue()).get_job_ids() if j.startswith(prefix)
    ]


def test_maintenance_revives_the_chains_after_a_flush(app):
    from jobs.worker import AppWorker
    from services.core import queue

    with app.app_context():
        forget_jobs()
        assert all(booked(p) == [] for p in PREFIXES)
        AppWorker.flask_app = app
        worker = AppWorker([queue.queue()], connection=queue.queue().connection)
        worker.run_maintenance_tasks()
        for prefix in PREFIXES:
            assert len(booked(prefix)) == 1, prefix


def test_a_living_chain_is_not_doubled_at_any_moment(app):
    from jobs import housekeeping

    with app.app_context():
        forget_jobs()
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
        forget_jobs()
        clock.freeze(T0)
        webhooks.schedule_reconcile()
        clock.freeze(T0 + timedelta(seconds=2))
        webhooks.schedule_reconcile()
        assert len(booked("webhooks-reconcile-")) == 2


def test_a_booking_lost_from_the_schedule_is_made_again(app):
    """A job whose hash still says "scheduled" but which no schedule holds (a partial flush,
    an eviction) will never run: the chain counts as dead and is booked again."""
    from rq.registry import ScheduledJobRegistry

    from jobs import webhooks
    from services.core import queue

    with app.app_context():
        forget_jobs()
        job_id = webhooks.schedule_reconcile()
        registry = ScheduledJobRegistry(queue=queue.queue())
        registry.connection.zrem(registry.key, job_id)  # the booking lost, the hash kept
        assert booked("webhooks-reconcile-") == []
        webhooks.schedule_reconcile(unless_booked=True)
        assert len(booked("webhooks-reconcile-")) == 1
