"""The periodic jobs: each capability declares its own (the `PERIODIC` list of its
jobs/<name>.py), the worker's scheduling books every one of them, a capability added to
capabilities.py gets its jobs booked without a change to the worker, and booking again books
nothing more. The self-booking chains (webhook and push reconcilers, recovery and workflow
sweeps): a worker's maintenance revives them after Redis lost them, and never starts a second
chain beside a living one, whatever the moment it looks."""

from __future__ import annotations

import importlib
import sys
import types
from datetime import UTC, datetime, time, timedelta

import pytest
from rq.utils import import_attribute

import clock
from tests.helpers import forget_jobs

T0 = datetime(2026, 11, 23, 9, 0, 59, tzinfo=UTC)  # a second before a minute's boundary
CHAINS = ("webhooks-reconcile", "recover-lost-work", "workflows-sweep", "push-reconcile")
# What the capabilities declare, by job id prefix: the chains, and the daily work of each.
DECLARED = {
    "core": {"idempotency-expiry"},
    "documents": {"documents-daily"},
    "search": {"recover-lost-work", "search-daily"},
    "webhooks": {"webhooks-reconcile"},
    "push": {"push-reconcile"},
    "notifications": {"key-rotation-reminders"},
    "workflows": {"workflows-sweep"},
    "analytics": {"analytics-roll-up"},
    "bulk": {"bulk-recover"},
    "matching": {"matching-retrain", "matching-recover"},
    "mailaccounts": {"mail-poll-due"},
}


def booked(prefix: str) -> list[str]:
    from rq.registry import ScheduledJobRegistry

    from services.core import queue

    return [
        j
        for j in ScheduledJobRegistry(queue=queue.queue()).get_job_ids()
        if j.startswith(f"{prefix}-")
    ]


def declared() -> dict[str, list]:
    """Each capability's PERIODIC (and what all share), read from the modules themselves, not
    through the worker."""
    import capabilities

    found = {}
    for name in ["core", *capabilities.having("jobs")]:
        periodic = list(getattr(importlib.import_module(f"jobs.{name}"), "PERIODIC", ()))
        if periodic:
            found[name] = periodic
    return found


def test_the_capabilities_declare_their_periodic_jobs():
    assert {name: {p.name for p in periodic} for name, periodic in declared().items()} == DECLARED


def test_every_declared_periodic_job_names_a_job_function():
    """RQ keeps a job's function as a dotted path: a misspelt one fails only when it runs."""
    for periodic in [p for ps in declared().values() for p in ps]:
        assert callable(import_attribute(periodic.job)), periodic


def test_the_worker_books_every_capabilitys_periodic_jobs(app):
    from jobs import worker

    with app.app_context():
        forget_jobs()
        worker.ensure_scheduled()
        for periodic in [p for ps in declared().values() for p in ps]:
            assert len(booked(periodic.name)) == 1, periodic.name


def test_booking_twice_books_once(app):
    from jobs import worker

    with app.app_context():
        forget_jobs()
        first = worker.ensure_scheduled()
        again = worker.ensure_scheduled()
        # The chains are alive, so not booked again; the daily jobs are booked under the
        # same ids (the day's), which is one job each.
        assert set(again) < set(first)
        for periodic in [p for ps in declared().values() for p in ps]:
            assert len(booked(periodic.name)) == 1, (periodic.name, booked(periodic.name))


def test_a_capability_added_to_the_registry_gets_its_periodic_jobs_booked(app, monkeypatch):
    """Nothing in the worker names the capabilities: one more row in capabilities.py with a
    `jobs` layer, and its jobs/<name>.py's PERIODIC is booked."""
    import capabilities
    from jobs import worker
    from services.core.queue import Periodic

    almanac = types.ModuleType("jobs.almanac")
    almanac.PERIODIC = [  # type: ignore[attr-defined]
        Periodic("almanac-daily", "jobs.almanac.daily", daily_at=time(4, 0)),
        Periodic("almanac-chain", "jobs.almanac.chain", every=timedelta(minutes=7)),
    ]
    monkeypatch.setitem(sys.modules, "jobs.almanac", almanac)
    row = capabilities.Capability("almanac", "days of the year", frozenset({"jobs"}))
    monkeypatch.setattr(capabilities, "CAPABILITIES", (*capabilities.CAPABILITIES, row))
    with app.app_context():
        forget_jobs()
        worker.ensure_scheduled()
        assert len(booked("almanac-daily")) == 1
        assert len(booked("almanac-chain")) == 1
        forget_jobs()  # no worker may ever meet a job whose function does not exist


def test_a_periodic_job_runs_every_so_often_or_daily():
    from services.core.queue import Periodic

    with pytest.raises(ValueError):
        Periodic("both", "jobs.x.y", every=timedelta(minutes=1), daily_at=time(3, 0))
    with pytest.raises(ValueError):
        Periodic("neither", "jobs.x.y")


def test_the_old_job_paths_run_under_the_new_layout(app):
    """Runs booked in Redis before the periodic jobs moved to their capabilities still name
    jobs.housekeeping's functions: they run, and book the new jobs."""
    with app.app_context():
        forget_jobs()
        import_attribute("jobs.housekeeping.daily_housekeeping")()
        assert len(booked("documents-daily")) == 1 and len(booked("search-daily")) == 1
        forget_jobs()
        assert "extractions" in import_attribute("jobs.housekeeping.recover_lost_work")()
        assert len(booked("recover-lost-work")) == 1


def test_maintenance_revives_the_chains_after_a_flush(app):
    from jobs.worker import AppWorker
    from services.core import queue

    with app.app_context():
        forget_jobs()
        assert all(booked(p) == [] for p in CHAINS)
        AppWorker.flask_app = app
        worker = AppWorker([queue.queue()], connection=queue.queue().connection)
        worker.run_maintenance_tasks()
        for prefix in CHAINS:
            assert len(booked(prefix)) == 1, prefix


def test_a_living_chain_is_not_doubled_at_any_moment(app):
    from jobs import worker

    with app.app_context():
        forget_jobs()
        clock.freeze(T0)
        worker.ensure_scheduled()
        # Later looks, across the slot boundary and while the run waits: still one chain each.
        for seconds in (1, 2, 30, 59):
            clock.freeze(T0 + timedelta(seconds=seconds))
            worker.ensure_scheduled()
        for prefix in CHAINS:
            assert len(booked(prefix)) == 1, (prefix, booked(prefix))


def test_without_the_guard_the_boundary_would_start_a_second_chain(app):
    """What the guard prevents: booking unconditionally a second later books another slot."""
    from jobs import webhooks

    with app.app_context():
        forget_jobs()
        clock.freeze(T0)
        webhooks.RECONCILE.book()
        clock.freeze(T0 + timedelta(seconds=2))
        webhooks.RECONCILE.book()
        assert len(booked("webhooks-reconcile")) == 2


def test_a_booking_lost_from_the_schedule_is_made_again(app):
    """A job whose hash still says "scheduled" but which no schedule holds (a partial flush,
    an eviction) will never run: the chain counts as dead and is booked again."""
    from rq.registry import ScheduledJobRegistry

    from jobs import webhooks
    from services.core import queue

    with app.app_context():
        forget_jobs()
        job_id = webhooks.RECONCILE.book()
        registry = ScheduledJobRegistry(queue=queue.queue())
        registry.connection.zrem(registry.key, job_id)  # the booking lost, the hash kept
        assert booked("webhooks-reconcile") == []
        webhooks.RECONCILE.book(unless_booked=True)
        assert len(booked("webhooks-reconcile")) == 1
