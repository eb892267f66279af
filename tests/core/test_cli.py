"""The command boundary (cli/boundary.py): every operator command is one unit of work, and
every failure an operator can meet is one line on stderr with exit status 1, never a
traceback (CONTRACT §8). The capabilities' own commands are tested in tests/<name>/."""

from __future__ import annotations

import logging

import click
import pytest

from cli.boundary import CommandError, CommandGroup
from errors import DomainError
from extensions import db
from services.accounts import tenants
from services.core import transaction
from services.core.actors import Actor


def _one_error_line(result) -> str:
    """The failure's line on stderr, checked to be the only one and free of a traceback."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tenants", "create", "Bad Slug!", "--plan", "free"), "Tenant id must be"),
        (("users", "create", "nope", "a@b.example", "--role", "admin"), "No tenant 'nope'"),
        (("keys", "create", "acme", "--name", "x", "--scopes", "documents:nuke"), "Unknown scope"),
        (
            (
                "keys",
                "create",
                "acme",
                "--name",
                "x",
                "--scopes",
                "documents:read",
                "--allow-ip",
                "10.0.0.0/33",
            ),
            "not an IPv4 or IPv6",
        ),
        (("keys", "revoke", "acme", "key_doesnotexist"), "API key not found"),
        (("graph", "rescan", "nope"), "no tenant 'nope'"),
        (("tenants", "delete", "acme"), "run again with --yes"),
    ],
)
def test_errors_are_one_line_and_non_zero(cli, args, message):
    cli("tenants", "create", "acme", "--plan", "free")
    assert message in _one_error_line(cli(*args))


def _failing_command(app, error: BaseException, cleaned: list[str]) -> list[str]:
    """A command that creates a tenant, then fails with `error`: its rollback must undo it."""
    group = CommandGroup("boundary-check")

    @group.command("fail")
    def fail() -> None:
        tenants.create_tenant("half-done", "free", Actor.cli())
        transaction.after_rollback(lambda: cleaned.append("rolled back"))
        raise error

    app.cli.add_command(group)
    return ["boundary-check", "fail"]


@pytest.mark.parametrize(
    "error",
    [
        DomainError(409, "CONFLICT", "Refused by the domain."),
        CommandError("Refused by the command."),
    ],
)
def test_a_refusal_rolls_the_unit_of_work_back(app, make_app, error):
    own = make_app()  # on `app`'s migrated database, with a command of its own
    cleaned: list[str] = []
    result = own.test_cli_runner().invoke(args=_failing_command(own, error, cleaned))
    assert _one_error_line(result) == f"error: {error.args[0]}"
    assert cleaned == ["rolled back"]
    with own.app_context():
        assert tenants.get_tenant("half-done") is None


def test_a_defect_keeps_its_traceback_and_is_rolled_back_too(app, make_app):
    own = make_app()
    cleaned: list[str] = []
    result = own.test_cli_runner().invoke(args=_failing_command(own, KeyError("a bug"), cleaned))
    assert isinstance(result.exception, KeyError)  # not hidden behind an `error:` line
    assert cleaned == ["rolled back"]
    with own.app_context():
        assert tenants.get_tenant("half-done") is None


def test_a_command_that_returns_is_committed(cli, app):
    assert cli("tenants", "create", "acme", "--plan", "free").exit_code == 0
    with app.app_context():
        db.session.remove()  # a fresh session: what it finds was committed
        assert tenants.get_tenant("acme") is not None


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////nonexistent-directory/dms.sqlite3",  # cannot be opened
        "postgresql+psycopg://postgres@127.0.0.1:1/dms?connect_timeout=2",  # nobody listens
    ],
)
def test_an_unreachable_database_is_one_line(make_app, url, caplog):
    app = make_app(SQLALCHEMY_DATABASE_URI=url)
    with caplog.at_level(logging.DEBUG, logger="dms.cli"):
        result = app.test_cli_runner().invoke(args=["tenants", "list"])
    assert _one_error_line(result).startswith("error: database: ")
    # The detail, traceback included, is in the log at DEBUG (DMS_LOG_LEVEL=DEBUG).
    (record,) = [r for r in caplog.records if r.name == "dms.cli"]
    assert record.levelno == logging.DEBUG and record.exc_info is not None


def test_a_database_without_its_tables_is_one_line(fresh_install):
    app = fresh_install()  # created, never migrated
    result = app.test_cli_runner().invoke(args=["tenants", "list"])
    assert "tenants" in _one_error_line(result)


def test_an_unreachable_redis_is_one_line(make_app):
    app = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    result = app.test_cli_runner().invoke(args=["worker", "--burst"])
    assert _one_error_line(result).startswith("error: Redis: ")


def test_a_file_that_cannot_be_written_is_one_line(cli, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = cli("backup", "create", str(blocker / "backup"))
    assert str(blocker) in _one_error_line(result)


def _every_command(group: click.Group, path: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _every_command(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def test_every_operator_command_runs_inside_the_boundary(app):
    """Each command of cli/ comes from a CommandGroup or cli.boundary.command; `flask db` is
    Flask-Migrate's."""
    commands = dict(_every_command(app.cli))
    outside = [
        name
        for name, command in commands.items()
        if not name.startswith("db ") and not getattr(command.callback, "in_boundary", False)
    ]
    assert len(commands) > 40 and outside == []


def test_worker_command_runs_the_queues_and_stops_when_empty(cli):
    result = cli("worker", "--burst")
    assert result.exit_code == 0, result.output
