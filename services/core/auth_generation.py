"""What lets each process authenticate without SQL and still see every change at once.

Authentication reads API keys, tenants, users and refresh-token families on every request.
Each process remembers what it read (`Memory`) and trusts it only while one Redis value, the
*auth generation*, is what it was at the read:

- every committed ORM change to one of those rows sets a new generation (a session hook
  below, so no service, view or CLI command can forget it), and each process then reads them
  from the database again: a revoked key, a deactivated user, a revoked token family are
  refused on the very next request, in every process;
- the generation is a random token, not a counter, so a Redis that restarts empty can never
  bring an old generation back;
- an API request does not wait for the generation: its caller is identified under the one
  this process last read, and the rate limiter's round trip to Redis brings the current one
  back before the view runs; if they differ, the caller is identified again (`for_request`,
  `confirmed`, api.auth.confirm_caller);
- when Redis cannot be read nothing is trusted from memory and every request reads the
  database;
- a change made behind the application's back (SQL by hand) is picked up within MAX_AGE
  seconds, or at once after `flask keys flush-cache`."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import current_app, g, has_app_context, has_request_context
from redis.exceptions import RedisError
from sqlalchemy import event
from sqlalchemy.orm import Session

from extensions import db, redis_store
from models import ApiKey, OAuthToken, Tenant, User
from services.core import deferred_reads

log = logging.getLogger("dms.auth_generation")

WATCHED = (ApiKey, Tenant, User, OAuthToken)
# Upper bound on trusting a remembered row without a change notice.
MAX_AGE = 30.0
# Remembered rows per memory and process; beyond this it is emptied and refilled from use.
MAX_ENTRIES = 10_000
_CHANGED = "dms.auth_rows_changed"
_LAST_READ = "dms.auth_generation_last_read"  # per app (process): for_request() assumes it
MISSING = object()


@dataclass(frozen=True)
class _Entry:
    value: Any
    generation: str
    loaded_at: float  # time.monotonic()


class Memory:
    """One process's memory of rows read for authentication, of one kind (named), per app."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _entries(self) -> dict[str, _Entry]:
        memories = current_app.extensions.setdefault("dms.auth_memories", {})
        return memories.setdefault(self.name, {})

    def get(self, key: str, generation: str | None) -> Any:
        """The value remembered under `generation` (not older than MAX_AGE), or MISSING."""
        entry = self._entries().get(key)
        if (
            entry is None
            or generation is None
            or entry.generation != generation
            or time.monotonic() - entry.loaded_at >= MAX_AGE
        ):
            return MISSING
        return entry.value

    def put(self, key: str, value: Any, generation: str | None) -> None:
        if generation is None:  # Redis unreachable: nothing is trusted, so nothing is kept
            return
        entries = self._entries()
        if len(entries) >= MAX_ENTRIES:
            entries.clear()
        entries[key] = _Entry(value, generation, time.monotonic())

    def forget(self, key: str) -> None:
        self._entries().pop(key, None)


def _generation_key() -> str:
    return redis_store.key("auth", "generation")


def current() -> str | None:
    """The auth generation; None when Redis is unreachable (then nothing is trusted)."""
    client = redis_store.client
    try:
        value = client.get(_generation_key())
        if value is None:  # first use, or Redis restarted empty
            client.set(_generation_key(), uuid.uuid4().hex, nx=True)
            value = client.get(_generation_key())
    except RedisError as exc:
        log.warning("auth generation unreadable (%s): reading from the database",
                    type(exc).__name__)  # fmt: skip
        value = None
    generation = value.decode() if value is not None else None
    current_app.extensions[_LAST_READ] = generation
    return generation


@contextmanager
def assuming() -> Iterator[None]:
    """Let for_request() assume the generation inside this block, whose caller promises to
    ask confirmed() before the request's view runs (api.auth: identify_caller, then
    confirm_caller)."""
    g.auth_generation_may_assume = True
    try:
        yield
    finally:
        g.auth_generation_may_assume = False


def for_request() -> str | None:
    """The generation to read remembered rows under in this request (once per request).
    Inside assuming(): the one this process last read, with no round trip of its own, while
    its confirming GET rides along with the request's first pipeline to Redis (the rate
    limiter's; services/core/deferred_reads). Elsewhere, or before this process has read
    one: current()."""
    if not has_request_context():
        return current()
    if "auth_generation" not in g:
        assumed = current_app.extensions.get(_LAST_READ)
        if assumed is None or not g.get("auth_generation_may_assume"):
            g.auth_generation, g.auth_generation_assumed = current(), False
        else:
            g.auth_generation, g.auth_generation_assumed = assumed, True
            deferred_reads.defer_get(_generation_key())
    return g.auth_generation


def confirmed() -> bool:
    """Whether the generation this request's caller was identified under (for_request) is the
    current one; False means what was remembered may be out of date: identify it again,
    and for_request() now gives the generation just read."""
    if not g.pop("auth_generation_assumed", False):
        return True
    assumed = g.auth_generation
    answer = deferred_reads.answer(_generation_key())
    if answer is deferred_reads.MISSING or answer is None:
        g.auth_generation = current()  # no pipeline carried it, or Redis restarted empty
    else:
        value = answer.decode() if isinstance(answer, bytes) else answer
        g.auth_generation = current_app.extensions[_LAST_READ] = value
    return g.auth_generation == assumed


def renew() -> None:
    """Start a new generation: every process reads every remembered row again."""
    current_app.extensions.get("dms.auth_memories", {}).clear()
    generation = uuid.uuid4().hex
    try:
        redis_store.client.set(_generation_key(), generation)
        current_app.extensions[_LAST_READ] = generation
    except RedisError as exc:
        # Other processes keep their copies until MAX_AGE; say so loudly.
        log.error("auth generation not renewed (%s): other processes may trust changed rows "
                  "for up to %.0f s", type(exc).__name__, MAX_AGE)  # fmt: skip


def mark_changed() -> None:
    """For bulk UPDATEs of watched rows, which the session hook cannot see: renew the
    generation when the unit of work commits."""
    db.session.info[_CHANGED] = True


@event.listens_for(Session, "after_flush")
def _note_auth_changes(session: Session, _flush_context) -> None:
    touched = (*session.dirty, *session.deleted)
    if any(isinstance(obj, WATCHED) for obj in touched):
        session.info[_CHANGED] = True


@event.listens_for(Session, "after_commit")
def _renew_generation(session: Session) -> None:
    # A rollback leaves the flag for the next commit: renewing once too often costs one
    # database read per row and process, never correctness.
    if (
        session.info.pop(_CHANGED, False)
        and has_app_context()
        and "dms.redis" in current_app.extensions
    ):
        renew()
