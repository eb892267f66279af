"""Changing documents in the portal: upload (several files at once; a script sends each file
on its own request and shows its progress, and without JavaScript the form posts them all),
a new version, the title, tags and metadata, and starting a workflow on a document.

Uploads go through the same services as the API's (services/documents: receive_file with
the upload limit, sniffing and clean-up; create_document with its events, extraction and
thumbnail), with `source.type` = `portal`. A file whose bytes the workspace already stores
(outside the trash) is refused as a duplicate unless the person asks to keep both: a retried
or doubled upload makes no twin. Each file is its own unit of work, so one refusal never
undoes the files beside it."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, jsonify, redirect, render_template, request, url_for
from pydantic import ValidationError
from werkzeug.datastructures import FileStorage

from errors import DomainError
from extensions import db
from models.documents import Document, SourceType
from portal.access import is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.documents.pages import EDITORS
from services.core.actors import Actor
from services.core.transaction import transactional
from services.documents import documents, uploads
from services.documents.filters import METADATA_KEY_RE
from services.documents.wire import MAX_METADATA_KEYS, MAX_TAGS, DocumentPatch
from services.workflows import instances

# The most files one plain (no JavaScript) form post stores; the script sends one per request.
MAX_FILES = 20


class DuplicateUpload(DomainError):
    """The workspace stores these bytes already, as `twin`."""

    def __init__(self, twin: Document) -> None:
        super().__init__(
            409, "DUPLICATE", f"The same file is already stored as “{twin.title}”.", "file"
        )
        self.twin = twin


def _size(limit: int) -> str:
    return f"{limit / (1024 * 1024):.0f} MB" if limit >= 1024 * 1024 else f"{limit:,} bytes"


def refusal_words(error: DomainError, name: str) -> str:
    """Why a file was not stored, in words a person can act on."""
    if error.code == "PAYLOAD_TOO_LARGE":
        return f"“{name}” is too large: files may be at most {_size(_limit())}."
    return f"“{name}” was not added: {error.message}"


def _limit() -> int:
    return int(current_app.config["DMS_MAX_UPLOAD_BYTES"])


# --- upload ------------------------------------------------------------------------------------


def _tags(text: str) -> tuple[list[str], str | None]:
    """Comma-separated tags, checked as the API checks them; the error in words."""
    tags = list(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    if len(tags) > MAX_TAGS:
        return [], f"Give at most {MAX_TAGS} tags."
    long = [t for t in tags if len(t) > 100]
    if long:
        return [], f"A tag may have at most 100 characters (“{long[0][:20]}…” has more)."
    return tags, None


def _store(storage: FileStorage, tags: list[str], keep_duplicates: bool, actor: Actor):
    tenant_id = portal_tenant().id
    with uploads.receive_file(tenant_id, storage.stream, storage.filename or "upload") as received:
        if not keep_duplicates:
            twin = documents.same_content(tenant_id, received.blob.sha256)
            if twin is not None:
                raise DuplicateUpload(twin)
        return documents.create_document(
            received,
            actor,
            title=None,
            tags=tags,
            metadata={},
            source={"type": SourceType.PORTAL.value},
        )


def _upload_one(storage: FileStorage, tags: list[str], keep: bool) -> dict[str, Any]:
    name = uploads.clean_filename(storage.filename)
    try:
        document = transactional(_store)(storage, tags, keep, portal_actor())
    except DomainError as error:
        result: dict[str, Any] = {
            "name": name,
            "ok": False,
            "status": error.status,
            "code": error.code,
            "message": refusal_words(error, name),
        }
        if isinstance(error, DuplicateUpload):
            result["url"] = url_for("portal.document_detail", document_id=error.twin.id)
        return result
    return {
        "name": name,
        "ok": True,
        "id": document.id,
        "title": document.title,
        "url": url_for("portal.document_detail", document_id=document.id),
        "message": f"Added “{document.title}”.",
    }


def _upload_page(results: list[dict], errors: dict[str, list[str]], status: int = 200):
    return render_template(
        "portal/documents/upload.html",
        results=results,
        errors=errors,
        max_files=MAX_FILES,
        limit=_size(_limit()),
        values={"tags": request.form.get("tags", "")[:5000]},
    ), status


@bp.get("/documents/upload")
@roles_required(*EDITORS)
def upload_page():
    return _upload_page([], {})


@bp.post("/documents/upload")
@roles_required(*EDITORS)
def upload_documents():
    """Store each `file` part as a new document. The script's requests (one file each,
    X-Requested-With) get JSON: 201 with the document, or the refusal's status with its
    words; a plain form gets the page with a line per file."""
    scripted = request.headers.get("X-Requested-With") == "XMLHttpRequest"
    files = [f for f in request.files.getlist("file") if f.filename]
    tags, tag_error = _tags(request.form.get("tags", "")[:10_000])
    errors: dict[str, list[str]] = {}
    if tag_error:
        errors["tags"] = [tag_error]
    if not files:
        errors["file"] = ["Choose one or more files to upload."]
    elif len(files) > MAX_FILES:
        errors["file"] = [f"Upload at most {MAX_FILES} files at once."]
    if errors:
        if scripted:
            message = " ".join(m for ms in errors.values() for m in ms)
            return jsonify(ok=False, code="VALIDATION_ERROR", message=message), 422
        return _upload_page([], errors, 422)
    keep = request.form.get("duplicates") == "keep"
    results = [_upload_one(f, tags, keep) for f in files]
    if scripted:
        result = results[0] if len(results) == 1 else {"ok": False, "results": results}
        return jsonify(result), 201 if result.get("ok") else result.get("status", 422)
    stored = sum(1 for r in results if r["ok"])
    return _upload_page(results, {}, 201 if stored == len(results) else 422 if not stored else 200)


# --- a new version ----------------------------------------------------------------------------


def _store_version(document_id: str, storage: FileStorage, actor: Actor):
    tenant_id = portal_tenant().id
    document = documents.get_document(tenant_id, document_id)
    with uploads.receive_file(tenant_id, storage.stream, storage.filename or "upload") as received:
        return documents.add_version(document, received, actor)


@bp.post("/documents/<document_id>/versions")
@roles_required(*EDITORS)
def upload_version_page(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    target = url_for("portal.document_detail", document_id=document.id, _anchor="versions")
    storage = request.files.get("file")
    if storage is None or not storage.filename:
        flash("Choose the file of the new version.", "error")
        return redirect(target)
    name = uploads.clean_filename(storage.filename)
    try:
        version = transactional(_store_version)(document.id, storage, portal_actor())
    except DomainError as error:
        if error.status == 404:
            raise
        flash(refusal_words(error, name).replace("was not added", "is not a new version"), "error")
        return redirect(target)
    flash(f"Version {version.number} is now current ({name}).", "success")
    return redirect(target)


# --- title, tags, metadata --------------------------------------------------------------------


def _metadata(text: str) -> tuple[dict[str, str], list[str]]:
    """`key = value` lines (blank lines skipped) as a dict, and what is wrong, in words."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            problems.append(f"Line {number}: write it as key = value.")
        elif not METADATA_KEY_RE.fullmatch(key):
            problems.append(
                f"Line {number}: “{key[:40]}” is not a key: use 1 to 64 letters, digits, "
                "dots, dashes or underscores."
            )
        elif len(value) > 1000:
            problems.append(f"Line {number}: a value may have at most 1,000 characters.")
        elif key in found:
            problems.append(f"Line {number}: “{key}” is given twice.")
        else:
            found[key] = value
    if len(found) > MAX_METADATA_KEYS:
        problems.append(f"Give at most {MAX_METADATA_KEYS} keys.")
    return found, problems


def _edit_values(document: Document) -> dict[str, str]:
    return {
        "title": document.title,
        "tags": ", ".join(document.tag_names),
        "metadata": "\n".join(f"{k} = {v}" for k, v in sorted((document.meta or {}).items())),
    }


def _edit_page(document: Document, form: dict[str, str], errors: dict, status: int = 200):
    return render_template(
        "portal/documents/edit.html", document=document, form=form, errors=errors
    ), status


@bp.get("/documents/<document_id>/edit")
@roles_required(*EDITORS)
def edit_document_page(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    return _edit_page(document, _edit_values(document), {})


@bp.post("/documents/<document_id>/edit")
@roles_required(*EDITORS)
@transactional
def edit_document(document_id: str):
    """Title, tags and the whole metadata (a key left out is removed), through the same
    checks and service as PATCH /documents/{id}."""
    document = documents.get_document(portal_tenant().id, document_id)
    form = {
        "title": request.form.get("title", "")[:2000],
        "tags": request.form.get("tags", "")[:10_000],
        "metadata": request.form.get("metadata", "")[:100_000],
    }
    errors: dict[str, list[str]] = {}
    title = form["title"].strip()
    if not title:
        errors["title"] = ["Give the document a title."]
    elif len(title) > 500:
        errors["title"] = ["A title may have at most 500 characters."]
    tags, tag_error = _tags(form["tags"])
    if tag_error:
        errors["tags"] = [tag_error]
    metadata, problems = _metadata(form["metadata"])
    if problems:
        errors["metadata"] = problems
    if not errors:
        patch = {**metadata, **{k: None for k in (document.meta or {}) if k not in metadata}}
        try:
            body = DocumentPatch.model_validate({"title": title, "tags": tags, "metadata": patch})
        except ValidationError as invalid:  # the checks above say it first; kept as a guard
            errors["form"] = [
                f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in invalid.errors()
            ]
    if errors:
        return _edit_page(document, form, errors, 422)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    try:
        documents.update_document(document, changes, portal_actor())
    except DomainError as error:
        db.session.rollback()
        if error.status == 404:
            raise
        return _edit_page(document, form, {"form": [error.message]}, error.status)
    flash(f"Saved “{document.title}”.", "success")
    return redirect(url_for("portal.document_detail", document_id=document.id))


# --- starting a workflow ----------------------------------------------------------------------


@bp.post("/documents/<document_id>/workflow")
@roles_required(*EDITORS)
@transactional
def start_document_workflow(document_id: str):
    tenant_id = portal_tenant().id
    document = documents.get_document(tenant_id, document_id)
    target = url_for("portal.document_detail", document_id=document.id)
    definition_id = request.form.get("definition_id", "")[:40]
    if not definition_id:
        flash("Choose the workflow to start.", "error")
        return redirect(target)
    try:
        instance = instances.start_instance(
            tenant_id, definition_id, "document", document.id, portal_actor()
        )
    except DomainError as error:
        db.session.rollback()
        if error.status != 422:
            raise
        words = {
            "definitionId": "That workflow no longer exists; choose another.",
            "documentId": "A document in the trash cannot start a workflow; restore it first.",
        }
        flash(words.get(error.errors[0].field or "", error.message), "error")
        return redirect(target)
    flash("Started the workflow; its first approvers are notified.", "success")
    if is_htmx():
        return "", 204, {"HX-Redirect": target}
    return redirect(url_for("portal.approval_detail", instance_id=instance.id))
