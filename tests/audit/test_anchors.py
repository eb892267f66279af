"""`flask audit anchor` and `audit verify --anchor/--anchor-file`: the head kept elsewhere."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from extensions import db
from models import AuditEntry
from services.audit import audit_log
from services.core.actors import Actor


def _record(app, tenant_id: str, count: int) -> None:
    with app.app_context():
        for n in range(count):
            audit_log.record(tenant_id, Actor.system(), "test.event", details={"n": n})
        db.session.commit()


def test_anchor_prints_the_head_in_one_line(app, cli, tenant):
    _record(app, tenant.id, 3)
    result = cli("audit", "anchor", "acme")
    assert result.exit_code == 0
    slug, seq, head_hash, created_at = result.output.strip().split(" ")
    with app.app_context():
        head = db.session.query(AuditEntry).filter_by(tenant_id=tenant.id, seq=4).one()
    assert (slug, seq, head_hash) == ("acme", "4", head.hash)
    assert created_at.endswith("Z")


def test_anchor_output_appends_and_verify_checks_every_line_of_the_tenant(
    app, cli, tenant, other_tenant, tmp_path
):
    anchors = tmp_path / "anchors"
    assert cli("audit", "anchor", "acme", "--output", str(anchors)).output == ""
    _record(app, tenant.id, 2)
    cli("audit", "anchor", "acme", "--output", str(anchors))
    cli("audit", "anchor", "globex", "--output", str(anchors))
    assert [line.split()[:2] for line in anchors.read_text().splitlines()] == [
        ["acme", "1"],
        ["acme", "3"],
        ["globex", "1"],
    ]
    result = cli("audit", "verify", "acme", "--anchor-file", str(anchors))
    assert result.output == "ok: 3 entries verified, 2 anchors matched\n"


def test_an_entry_whose_hash_differs_from_its_anchor_is_reported(app, cli, tenant):
    _record(app, tenant.id, 2)
    _, seq, head_hash, _ = cli("audit", "anchor", "acme").output.split()
    assert cli("audit", "verify", "acme", "--anchor", f"{seq}:{head_hash}").exit_code == 0
    result = cli("audit", "verify", "acme", "--anchor", f"2:{'f' * 64}")
    assert result.exit_code == 2
    assert "BROKEN at entry #2: hash differs from the anchor" in result.output


def test_a_broken_chain_is_not_anchored(app, cli, tenant, tmp_path):
    _record(app, tenant.id, 2)
    with app.app_context():
        db.session.execute(
            update(AuditEntry)
            .where(AuditEntry.tenant_id == tenant.id, AuditEntry.seq == 2)
            .values(action="forged")
        )
        db.session.commit()
    anchors = tmp_path / "anchors"
    result = cli("audit", "anchor", "acme", "--output", str(anchors))
    assert result.exit_code == 2 and "BROKEN at entry #2" in result.output
    assert not anchors.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--anchor", "3"), "--anchor '3' is not SEQ:HASH"),
        (("--anchor", "0:" + "a" * 64), "is not SEQ:HASH"),
        (("--anchor", "1:" + "A" * 64), "is not SEQ:HASH"),
        (("--anchor", "1:" + "a" * 64, "--anchor", "1:" + "b" * 64), "disagree about entry #1"),
        (("--anchor-file", "{dir}/missing"), "anchor file:"),
        (("--anchor-file", "{dir}/other"), "has no line for 'acme'"),
        (("--anchor-file", "{dir}/garbled"), "line 2 is not SLUG SEQ HASH CREATED_AT"),
    ],
)
def test_bad_anchors_are_one_line_errors_not_a_broken_chain(cli, tenant, tmp_path, args, message):
    (tmp_path / "other").write_text(f"globex 1 {'a' * 64} 2026-01-01T00:00:00Z\n")
    (tmp_path / "garbled").write_text(f"acme 1 {'a' * 64} 2026-01-01T00:00:00Z\nacme 2\n")
    result = cli("audit", "verify", "acme", *(a.format(dir=tmp_path) for a in args))
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and message in result.output
