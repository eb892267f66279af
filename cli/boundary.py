"""The command boundary: one unit of work per operator command, and one way to fail (one line
on stderr, exit status 1, never a traceback); with the groups several capabilities add
commands to."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import click
from botocore.exceptions import BotoCoreError, ClientError
from flask.cli import AppGroup, with_appcontext
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError

from errors import DomainError
from extensions import db
from services.core import transaction

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("dms.cli")


class CommandError(Exception):
    """A command cannot do what it was asked (embeddings off, a file already there): its
    message is the line the operator reads."""


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _describe(error: Exception) -> str:
    """The line an expected failure prints: the domain's messages, or what failed and why."""
    if isinstance(error, DomainError):
        return "; ".join(e.message for e in error.errors)
    if isinstance(error, DBAPIError):
        return f"database: {_one_line(error.orig)}"
    if isinstance(error, RedisError):
        return f"Redis: {_one_line(error)}"
    if isinstance(error, BotoCoreError | ClientError):
        return f"blob store: {_one_line(error)}"
    return _one_line(error)


# What an operator can meet and act on: the domain's refusals, and the database, Redis, the
# blob store or a file being out of reach. Anything else is a defect and keeps its traceback.
EXPECTED = (DomainError, CommandError, DBAPIError, RedisError, BotoCoreError, ClientError, OSError)


def boundary(work: Callable[P, R]) -> Callable[P, R]:
    """Run a command as one unit of work: commit when it returns, roll back when it raises.
    An expected failure prints `error: ...` on stderr and exits 1; its detail (with the
    traceback) goes to the `dms.cli` log at DEBUG (DMS_LOG_LEVEL=DEBUG shows it). Commands
    that exit on their own (`sys.exit(2)`) are rolled back and keep their status."""

    @wraps(work)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            result = work(*args, **kwargs)
            transaction.commit()
        except BrokenPipeError:
            _rollback()
            raise  # output piped into `head`: click leaves quietly
        except EXPECTED as error:
            _rollback()
            log.debug("command %s failed", work.__name__, exc_info=True)
            click.echo(f"error: {_describe(error)}", err=True)
            sys.exit(1)
        except BaseException:
            _rollback()
            raise
        return result

    run.in_boundary = True  # type: ignore[attr-defined]  (what the CLI tests check for)
    return run


def _rollback() -> None:
    """Roll back what the command wrote; a database that is gone has nothing to roll back."""
    try:
        db.session.rollback()
    except DBAPIError:
        log.debug("rollback failed", exc_info=True)


class CommandGroup(AppGroup):
    """A command group whose every command runs in an app context and inside the boundary,
    so no command can leave it out."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable], click.Command]:
        attach = super().command(*args, **kwargs)

        def decorator(work: Callable) -> click.Command:
            return attach(boundary(work))

        return decorator


def command(name: str, **kwargs: Any) -> Callable[[Callable], click.Command]:
    """A command of `flask` itself (not in a group), in an app context and inside the boundary."""

    def decorator(work: Callable) -> click.Command:
        return click.command(name, **kwargs)(with_appcontext(boundary(work)))

    return decorator


tenants_cli = CommandGroup("tenants", help="Create and inspect tenants.")
documents_cli = CommandGroup("documents", help="Re-extract document text and empty the trash.")

COMMANDS = (tenants_cli, documents_cli)
