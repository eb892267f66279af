"""`flask documents import`: a real folder on disk into a tenant's documents, through the upload
path; re-runs skip what is stored, refusals are listed, `--after` moves or deletes, and a run
killed with SIGKILL is run again without doubling or losing anything."""

from __future__ import annotations

import hashlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from extensions import db
from models import Document
from models.event import Event
from models.search import DocumentText
from services.core import queue, transaction
from services.core.actors import Actor
from services.documents import documents, uploads
from services.documents.blobs import blob_store

ROOT = Path(__file__).resolve().parents[2]
FLASK = Path(sys.executable).with_name("flask")


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def _documents(app, tenant_id: str) -> list[Document]:
    with app.app_context():
        rows = db.session.scalars(
            select(Document).where(Document.tenant_id == tenant_id).order_by(Document.filename)
        ).all()
        db.session.expunge_all()
        return list(rows)


def _blobs(app, tenant_id: str) -> set[str]:
    with app.app_context():
        return {sha for t, sha in blob_store().iter_blobs(-3600) if t == tenant_id}


def test_import_reimport_refusals_and_source(app, cli, tenant, other_tenant, tmp_path, client):
    folder = tmp_path / "in"
    _write(
        folder,
        {
            "a.txt": b"first letter\n",
            "b.md": b"# second\n",
            "same-as-a.txt": b"first letter\n",
            "empty.txt": b"",
            ".hidden.txt": b"hidden\n",
            "scan.pdf.part": b"still arriving",
            "~$lock.docx": b"lock",
            "sub/deeper.txt": b"in a subfolder\n",
        },
    )
    (folder / "link.txt").symlink_to("/etc/passwd")
    (folder / "fifo").parent.mkdir(exist_ok=True)
    os.mkfifo(folder / "fifo")

    result = cli("documents", "import", str(folder), "--tenant", tenant.id, "--tags", "inbox,scan")
    assert result.exit_code == 1, result.output
    assert "imported 2, skipped 1 (already stored), refused 3" in result.stdout
    assert "refused empty.txt: empty" in result.stderr
    assert "refused link.txt: a symbolic link (links are not followed)" in result.stderr
    assert "refused fifo: not a regular file" in result.stderr
    docs = _documents(app, tenant.id)
    assert sorted(d.filename for d in docs) == ["a.txt", "b.md"]  # not recursive
    assert all(d.tag_names == ["inbox", "scan"] for d in docs)
    assert {d.source["path"] for d in docs} == {"a.txt", "b.md"}
    assert all(d.source["type"] == "folder" for d in docs)
    assert docs[0].sha256 == hashlib.sha256(b"first letter\n").hexdigest()

    # Again, recursive: only the subfolder's file is new; the source path is relative.
    again = cli("documents", "import", str(folder), "--tenant", tenant.id, "--recursive")
    assert "imported 1, skipped 3 (already stored), refused 3" in again.stdout
    deeper = [d for d in _documents(app, tenant.id) if d.filename == "deeper.txt"]
    assert deeper[0].source == {"type": "folder", "path": "sub/deeper.txt"}
    assert deeper[0].tag_names == []

    # The same bytes for another tenant are that tenant's own: nothing is skipped there.
    other = cli("documents", "import", str(folder), "--tenant", other_tenant.id)
    assert "imported 2, skipped 1" in other.stdout
    assert len(_documents(app, tenant.id)) == 3

    # The upload path's events: each document has its document.created in the outbox.
    with app.app_context():
        created = db.session.scalar(
            select(func.count()).where(
                Event.tenant_id == tenant.id, Event.type == "document.created"
            )
        )
    assert created == 3


def test_bad_arguments_are_one_line_errors(cli, tenant, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    assert (
        "give --tenant SLUG or --tenant-per-folder"
        in cli("documents", "import", str(folder)).stderr
    )
    missing = cli("documents", "import", str(folder), "--tenant", "nobody")
    assert missing.exit_code == 1 and "No tenant 'nobody'" in missing.stderr
    inside = cli(
        "documents", "import", str(folder), "--tenant", tenant.id, "--after", f"move:{folder}/done"
    )
    assert inside.exit_code == 1 and "outside the imported folder" in inside.stderr
    assert (
        cli("documents", "import", str(folder), "--tenant", tenant.id, "--after", "burn").exit_code
        == 1
    )
    long_tag = cli("documents", "import", str(folder), "--tenant", tenant.id, "--tags", "x" * 101)
    assert long_tag.exit_code == 1 and "tags:" in long_tag.stderr
    not_there = cli("documents", "import", str(tmp_path / "nope"), "--tenant", tenant.id)
    assert not_there.exit_code == 1 and "not a folder" in not_there.stderr


def test_the_upload_limit_refuses_a_file_with_its_reason(make_app, tenant, tmp_path):
    small = make_app(DMS_MAX_UPLOAD_BYTES=100)
    folder = tmp_path / "in"
    _write(folder, {"big.txt": b"x" * 101, "fits.txt": b"y" * 100})
    result = small.test_cli_runner().invoke(
        args=["documents", "import", str(folder), "--tenant", tenant.id]
    )
    assert "imported 1, skipped 0 (already stored), refused 1" in result.stdout
    assert "refused big.txt: larger than the upload limit of 100 bytes" in result.stderr
    assert [d.filename for d in _documents(small, tenant.id)] == ["fits.txt"]


def test_after_move_and_delete_happen_to_stored_files_only(app, cli, tenant, tmp_path):
    folder, done = tmp_path / "in", tmp_path / "done"
    _write(folder, {"a.txt": b"alpha\n", "sub/b.txt": b"beta\n", "empty.txt": b""})
    done.mkdir()
    (done / "sub").mkdir()
    (done / "sub" / "b.txt").write_bytes(b"already here")  # a name taken in the target
    moved = cli(
        "documents",
        "import",
        str(folder),
        "--tenant",
        tenant.id,
        "--recursive",
        "--after",
        f"move:{done}",
    )
    assert "imported 2" in moved.stdout
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "empty.txt"  # refused: stays where it was
    ]
    assert (done / "a.txt").read_bytes() == b"alpha\n"
    assert (done / "sub" / "b (2).txt").read_bytes() == b"beta\n"
    assert (done / "sub" / "b.txt").read_bytes() == b"already here"

    # delete: what is imported and what was stored already both go; refusals stay.
    _write(folder, {"c.txt": b"gamma\n", "a-again.txt": b"alpha\n"})
    deleted = cli("documents", "import", str(folder), "--tenant", tenant.id, "--after", "delete")
    assert "imported 1, skipped 1 (already stored), refused 1" in deleted.stdout
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == ["empty.txt"]
    assert len(_documents(app, tenant.id)) == 3


def test_tenant_per_folder_layout(app, cli, tenant, other_tenant, tmp_path):
    folder = tmp_path / "inboxes"
    _write(
        folder,
        {
            f"{tenant.id}/one.txt": b"for the first\n",
            f"{other_tenant.id}/two.txt": b"for the second\n",
            "nobody/three.txt": b"for no tenant\n",
            "loose.txt": b"not in a tenant's folder\n",
        },
    )
    done = tmp_path / "done"
    result = cli(
        "documents", "import", str(folder), "--tenant-per-folder", "--after", f"move:{done}"
    )
    assert result.exit_code == 0, result.output
    assert (done / tenant.id / "one.txt").exists() and (done / other_tenant.id / "two.txt").exists()
    assert (folder / "nobody" / "three.txt").exists() and (folder / "loose.txt").exists()
    assert "imported 2, skipped 0" in result.stdout
    assert "no tenant 'nobody'" in result.stderr
    assert [d.filename for d in _documents(app, tenant.id)] == ["one.txt"]
    assert [d.filename for d in _documents(app, other_tenant.id)] == ["two.txt"]
    assert _documents(app, other_tenant.id)[0].source["path"] == "two.txt"


def test_a_batch_is_extracted_indexed_and_found(app, cli, tenant, client, headers, work, tmp_path):
    folder = tmp_path / "in"
    _write(folder, {f"note-{i}.txt": f"quarterly zeppelin report {i}\n".encode() for i in range(7)})
    result = cli("documents", "import", str(folder), "--tenant", tenant.id)
    assert "imported 7" in result.stdout
    with app.app_context():
        waiting = queue.queue().get_job_ids()
    assert len([j for j in waiting if not j.startswith("thumbnail-")]) >= 7
    with app.app_context():  # each text row names its job, for the recovery sweep
        job_ids = db.session.scalars(
            select(DocumentText.job_id).where(DocumentText.tenant_id == tenant.id)
        ).all()
    assert len(job_ids) == 7 and set(job_ids) <= set(waiting)
    work()
    assert {d.text_status for d in _documents(app, tenant.id)} == {"done"}
    found = client.get("/api/v1/search?q=zeppelin", headers=headers).get_json()
    assert len(found["data"]) == 7


def test_a_rolled_back_unit_of_work_schedules_nothing(app, tenant, tmp_path):
    """The documents a unit of work collects for extraction are forgotten with its rollback:
    the next commit schedules its own documents only."""
    with app.app_context():
        before = len(queue.queue().get_job_ids())
        for name, keep in (("dropped.txt", False), ("kept.txt", True)):
            with uploads.receive_file(tenant.id, io.BytesIO(name.encode() * 3), name) as received:
                documents.create_document(
                    received,
                    Actor.cli(),
                    title=None,
                    tags=[],
                    metadata={},
                    source={"type": "folder"},
                )
            if keep:
                transaction.commit()
            else:
                db.session.rollback()
        jobs = [queue.queue().fetch_job(j) for j in queue.queue().get_job_ids()[before:]]
    extraction = [j for j in jobs if j.func_name == "jobs.search.extract_documents"]
    assert [[i[0] for i in j.args[1]] for j in extraction] == [
        [d.id for d in _documents(app, tenant.id)]
    ]
    assert [d.filename for d in _documents(app, tenant.id)] == ["kept.txt"]


# --- real processes ----------------------------------------------------------------------------


def _env(app) -> dict[str, str]:
    config = app.config
    return {
        **os.environ,
        "DATABASE_URL": config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": config["REDIS_URL"],
        "DMS_REDIS_PREFIX": config["REDIS_KEY_PREFIX"],
        "SECRET_KEY": config["SECRET_KEY"],
        "DMS_STORAGE_DIR": config["DMS_STORAGE_DIR"],
        "DMS_ENV_FILE": os.devnull,
        "DMS_LOG_JSON": "0",
    }


def _start(app, log: Path, *args: str) -> subprocess.Popen:
    with log.open("a") as out:
        return subprocess.Popen(
            [str(FLASK), "--app", "app", "documents", "import", *args],
            cwd=ROOT,
            env=_env(app),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _until(condition, seconds: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"{what} within {seconds}s; log:\n{log.read_text()}")


def _count(app, tenant_id: str) -> int:
    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Document).where(Document.tenant_id == tenant_id)
        )


def test_killed_mid_import_then_run_again_doubles_and_loses_nothing(app, tenant, tmp_path):
    folder, log = tmp_path / "in", tmp_path / "import.log"
    total = 600
    _write(folder, {f"f{i:04}.txt": f"document number {i}\n".encode() * 20 for i in range(total)})
    before = _blobs(app, tenant.id)  # earlier tests' (the store outlives them)
    proc = _start(app, log, str(folder), "--tenant", tenant.id)
    try:
        _until(lambda: _count(app, tenant.id) > 0, 60, "a first batch committed", log)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert 0 < _count(app, tenant.id) < total, "killed before the end"

    again = _start(app, log, str(folder), "--tenant", tenant.id)
    assert again.wait(timeout=300) == 0, log.read_text()
    docs = _documents(app, tenant.id)
    assert len(docs) == total
    assert len({d.sha256 for d in docs}) == total
    assert _blobs(app, tenant.id) - before == {d.sha256 for d in docs} - before


def _watch(app, tmp_path: Path, folder: Path, *args: str) -> tuple[subprocess.Popen, Path]:
    log = tmp_path / "watch.log"
    proc = _start(app, log, str(folder), "--watch", "--settle", "1", "--rescan", "2", *args)
    _until(lambda: "watching" in log.read_text(), 60, "the watcher started", log)
    return proc, log


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_watch_waits_for_a_file_to_stop_growing_and_ignores_temporary_files(app, tenant, tmp_path):
    folder = tmp_path / "scanner"
    folder.mkdir()
    proc, log = _watch(app, tmp_path, folder, "--tenant", tenant.id, "--after", "delete")
    try:
        for name in (".hidden.pdf", "~$report.docx", "scan.pdf.part", "dl.crdownload", "x.tmp"):
            (folder / name).write_bytes(b"not finished " + name.encode())
        chunk = b"page of a slowly written scan\n" * 100
        with (folder / "slow.txt").open("wb") as out:
            for _ in range(8):  # 8 chunks, 0.4 s apart: longer than --settle
                out.write(chunk)
                out.flush()
                time.sleep(0.4)
                assert _count(app, tenant.id) == 0, "imported while still growing"
        _until(lambda: _count(app, tenant.id) == 1, 90, "the finished file imported", log)
        (doc,) = _documents(app, tenant.id)
        assert doc.size == len(chunk) * 8
        assert doc.source == {"type": "folder", "path": "slow.txt"}
        _until(lambda: not (folder / "slow.txt").exists(), 30, "--after delete applied", log)
        time.sleep(2.5)  # past a re-scan: the temporary files are still not taken
        assert _count(app, tenant.id) == 1
        assert len(list(folder.iterdir())) == 5
    finally:
        _stop(proc)
    assert proc.returncode == 0, log.read_text()


def test_watch_survives_the_folder_removed_and_made_again(app, tenant, tmp_path):
    folder = tmp_path / "mount"
    folder.mkdir()
    proc, log = _watch(app, tmp_path, folder, "--tenant", tenant.id, "--recursive")
    try:
        (folder / "before.txt").write_bytes(b"before the unmount\n")
        _until(lambda: _count(app, tenant.id) == 1, 90, "the first file imported", log)
        for path in sorted(folder.rglob("*"), reverse=True):
            path.unlink()
        folder.rmdir()
        time.sleep(1.5)  # the watcher finds its folder gone and waits for it
        folder.mkdir()
        _write(folder, {"after.txt": b"after the mount\n", "deep/er.txt": b"deeper\n"})
        _until(lambda: _count(app, tenant.id) == 3, 120, "files in the new folder imported", log)
        assert proc.poll() is None
        assert "watch lost" in log.read_text() or "folder missing" in log.read_text()
    finally:
        _stop(proc)
    paths = sorted(d.source["path"] for d in _documents(app, tenant.id))
    assert paths == ["after.txt", "before.txt", "deep/er.txt"]


def test_one_watcher_serves_each_tenants_folder_and_a_tenant_made_later(
    app, tenant, create_tenant, tmp_path
):
    folder = tmp_path / "inboxes"
    (folder / tenant.id).mkdir(parents=True)
    proc, log = _watch(app, tmp_path, folder, "--tenant-per-folder")
    try:
        _write(folder, {f"{tenant.id}/mine.txt": b"for the first tenant\n"})
        _write(folder, {"later/theirs.txt": b"for a tenant not made yet\n"})
        _until(lambda: _count(app, tenant.id) == 1, 90, "the first tenant's file imported", log)
        _until(lambda: "no tenant 'later'" in log.read_text(), 90, "the unknown folder seen", log)
        create_tenant("later")
        _until(lambda: _count(app, "later") == 1, 90, "picked up once the tenant exists", log)
    finally:
        _stop(proc)
    assert [d.source["path"] for d in _documents(app, "later")] == ["theirs.txt"]


def test_hostile_file_names_are_imported_under_readable_names(app, cli, tenant, tmp_path):
    """A name that is not UTF-8, or holds a terminal's escape sequence, neither stops the
    import (a row could not store it) nor reaches the operator's terminal raw."""
    folder = tmp_path / "in"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/caf\xe9.txt", "wb") as out:
        out.write(b"latin-1 name\n")
    (folder / "red\x1b[31m.txt").write_bytes(b"escape in the name\n")
    (folder / "empty\x1b[2J.txt").write_bytes(b"")
    result = cli("documents", "import", str(folder), "--tenant", tenant.id)
    assert "imported 2, skipped 0 (already stored), refused 1" in result.stdout
    assert "\x1b" not in result.output
    assert "refused empty?[2J.txt: empty" in result.stderr
    paths = sorted(d.source["path"] for d in _documents(app, tenant.id))
    assert paths == ["caf\ufffd.txt", "red?[31m.txt"]
