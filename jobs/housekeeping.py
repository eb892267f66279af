"""Aliases for the periodic job paths of a release where one job booked all periodic work (RQ
keeps a job's function as a dotted path): a Redis upgraded in place may still hold runs
booked under them, and these run them instead of failing them."""

from __future__ import annotations

from jobs import search, worker

# The search recovery chain (same job ids, "recover-lost-work-*"): a run books its successor
# under the new path.
recover_lost_work = search.recover_lost_work


def daily_housekeeping() -> list[str]:
    """Book the periodic jobs: each capability's daily one does its part of this job's work,
    at its own hour."""
    return worker.ensure_scheduled()
