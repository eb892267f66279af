"""The shared SMTP sender (services/core/smtp.py): the URL's forms, a message through a real
local server (aiosmtpd), STARTTLS refused rather than skipped, and no send without a commit."""

from __future__ import annotations

import smtplib

import pytest
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from extensions import db, redis_store
from services.core import queue, smtp, transaction
from tests.helpers import forget_jobs
from tests.smtp_server import free_port, smtp_server

__all__ = ["smtp_server"]


def test_the_url_forms():
    plain = smtp.parse_url("smtp://relay.internal")
    assert (plain.host, plain.port, plain.tls, plain.verify) == ("relay.internal", 25, "none", True)
    starttls = smtp.parse_url("smtp://me%40acme.example:p%3Ass@mail.example:2525?starttls=true")
    assert (starttls.port, starttls.tls) == (2525, "starttls")
    assert (starttls.username, starttls.password) == ("me@acme.example", "p:ss")
    assert smtp.parse_url("smtp://mail.example?starttls=1").port == 587
    tls = smtp.parse_url("smtps://mail.example?verify=false")
    assert (tls.port, tls.tls, tls.verify) == (465, "ssl", False)
    for wrong in ("http://mail.example", "smtp://", "mail.example"):
        with pytest.raises(ValueError):
            smtp.parse_url(wrong)


def test_a_message_reaches_the_server(app, smtp_server):
    with app.app_context():
        smtp.send("someone@acme.example", "Hello\r\nBcc: injected@evil.example", "Body text")
    message = smtp_server.messages[0]
    assert message["To"] == "someone@acme.example"
    assert message["Bcc"] is None and "injected" not in str(smtp_server.envelopes)
    assert message["Auto-Submitted"] == "auto-generated"
    assert message.get_content().strip() == "Body text"


def test_starttls_is_refused_when_the_server_does_not_offer_it(app, smtp_server):
    with app.app_context():
        app.config["DMS_SMTP_URL"] += "?starttls=true"
        with pytest.raises(smtplib.SMTPNotSupportedError):
            smtp.send("someone@acme.example", "Hello", "Body")
    assert smtp_server.messages == []


def test_nothing_is_queued_without_a_commit_or_without_smtp(app, smtp_server, work):
    with app.app_context():
        smtp.send_later("someone@acme.example", "Rolled back", "Body")
        db.session.rollback()
    work()
    assert smtp_server.messages == []
    app.config["DMS_SMTP_URL"] = None
    with app.app_context():
        smtp.send_later("someone@acme.example", "No SMTP", "Body")
        transaction.commit()
    work()
    assert smtp_server.messages == []


def test_a_server_that_is_down_gets_the_message_again_later(app, work):
    app.config["DMS_SMTP_URL"] = f"smtp://127.0.0.1:{free_port()}?timeout=2"  # nobody listens
    try:
        with app.app_context():
            smtp.send_later("someone@acme.example", "Later", "Body")
            transaction.commit()
        work()
        with app.app_context():
            registry = ScheduledJobRegistry(queue=queue.queue())
            booked = [Job.fetch(i, connection=redis_store.client).func_name
                      for i in registry.get_job_ids()]  # fmt: skip
            assert booked.count(smtp.JOB) == 1  # booked for a retry
            forget_jobs()
    finally:
        app.config["DMS_SMTP_URL"] = None
