"""Account fixtures: the local SMTP server invitations are mailed through."""

from tests.smtp_server import smtp_server

__all__ = ["smtp_server"]
